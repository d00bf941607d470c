//go:build linux

package loadtest

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"

	"github.com/codeman-dev/codeman/agents/claude"
	"github.com/codeman-dev/codeman/respawn"
)

// render draws the printer's first frame and one status update per
// elapsed time through a terminal emulator and returns the screen.
func render(t *testing.T, p Printer, elapsed ...time.Duration) respawn.Screen {
	t.Helper()
	emu := vt.NewEmulator(p.Width, p.Height)
	defer emu.Close()
	go io.Copy(io.Discard, emu) // the emulator's answers to queries; nobody reads them
	emu.Write(p.Frame(0))
	for _, e := range elapsed {
		emu.Write(p.StatusUpdate(e))
	}
	lines := strings.Split(emu.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return respawn.Screen{Lines: lines, Width: p.Width, Height: p.Height, At: time.Now()}
}

// The daemon must see the printer's screen as Claude at work, or the CPU
// measurement would not be one of working panes.
func TestPrinter_ScreenShowsClaudeWorking(t *testing.T) {
	for _, size := range []struct{ w, h int }{{200, 50}, {80, 24}, {120, 12}} {
		p := Printer{Width: size.w, Height: size.h}
		screen := render(t, p, 100*time.Millisecond, 12*time.Second, 75*time.Second)
		facts := claude.DefaultPatterns().Classify(screen)
		if !facts.Working || !facts.PromptBox || facts.Blocker() != "" {
			t.Errorf("%dx%d: facts %+v, want working with a prompt box\n%s", size.w, size.h, facts, screen.Text())
		}
		if got, want := screen.Lines[size.h-1-statusFromBottom], p.StatusText(75*time.Second); got != want {
			t.Errorf("%dx%d: status row %q, want %q", size.w, size.h, got, want)
		}
		if got := screen.Lines[size.h-1-footerFromBottom]; !strings.HasSuffix(got, "esc to interrupt") {
			t.Errorf("%dx%d: footer %q", size.w, size.h, got)
		}
	}
}

func TestPrinter_StatusUpdateIsWorkingOutput(t *testing.T) {
	p := Printer{Width: 200, Height: 50}
	d := claude.NewStreamDetector(claude.DefaultPatterns())
	d.Feed(p.Frame(0))
	f := d.Feed(p.StatusUpdate(12 * time.Second))
	if !f.Working || f.Tokens != 362 {
		t.Fatalf("facts of a status update: %+v, want working with 362 tokens", f)
	}
}

func TestSpinnerParts(t *testing.T) {
	tests := []struct {
		elapsed   time.Duration
		glyph     string
		statusRow string
	}{
		{0, "·", "Enchanting… (0s · ↓ 2 tokens)"},
		{100 * time.Millisecond, "✢", "Enchanting… (0s · ↓ 5 tokens)"},
		{12 * time.Second, "·", "Enchanting… (12s · ↓ 362 tokens)"},
		{65*time.Second + 500*time.Millisecond, "✻", "Enchanting… (1m 5s · ↓ 2.0k tokens)"},
		{time.Hour + 5*time.Second, "*", "Enchanting… (1h 0m 5s · ↓ 108.2k tokens)"},
	}
	for _, tt := range tests {
		glyph, rest := spinnerParts(DefaultVerb, tt.elapsed)
		if glyph != tt.glyph || rest != tt.statusRow {
			t.Errorf("spinnerParts(%s) = %q %q, want %q %q", tt.elapsed, glyph, rest, tt.glyph, tt.statusRow)
		}
	}
}

func TestVisibleWidth(t *testing.T) {
	tests := map[string]int{
		"":                         0,
		"abc":                      3,
		fg(colorLogo, "✢") + " ab": 4,
		"\x1b[?1049h❯\u00a0x":      3,
		"\x1b[48;5;16m▛█\x1b[49m":  2,
	}
	for in, want := range tests {
		if got := visibleWidth(in); got != want {
			t.Errorf("visibleWidth(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestLogInput_ReadInputLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "in.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	r, w := io.Pipe()
	done := make(chan struct{})
	go func() { logInput(r, f); close(done) }()
	for _, chunk := range []string{"write a brief", "\r", "\x1b[200~a\nb\x1b[201~"} {
		w.Write([]byte(chunk))
	}
	w.Close()
	<-done
	f.Close()
	entries, err := ReadInputLog(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Data)
	}
	if want := []string{"write a brief", "\r", "\x1b[200~a\nb\x1b[201~"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("logged %q, want %q", got, want)
	}
}

func TestReadInputLog_BadLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "in.jsonl")
	os.WriteFile(path, []byte(`{"t":"2026-11-29T10:00:00Z","data":"x"}`+"\nnot json\n"), 0o600)
	_, err := ReadInputLog(path)
	if err == nil || !strings.Contains(err.Error(), path+" line 2") {
		t.Fatalf("error %v, want one naming %s line 2", err, path)
	}
}
