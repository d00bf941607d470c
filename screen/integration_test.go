package screen_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/agents/claude"
	"github.com/codeman-dev/codeman/internal/rig/wait"
	"github.com/codeman-dev/codeman/internal/simclaude"
	"github.com/codeman-dev/codeman/respawn"
	"github.com/codeman-dev/codeman/screen"
)

func TestIntegration_Version(t *testing.T) {
	requireScreen(t)
	v, err := screen.InstalledVersion(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("GNU screen %s, exact hardcopy: %v", v, v.ExactHardcopy())
}

func TestIntegration_ListSessionsWithNone(t *testing.T) {
	requireScreen(t)
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil { // screen insists
		t.Fatal(err)
	}
	t.Setenv("SCREENDIR", dir) // screen -ls exits 1 here, and that is no error
	names, err := screen.ListSessions(context.Background())
	if err != nil || len(names) != 0 {
		t.Errorf("ListSessions in an empty SCREENDIR = %v, %v", names, err)
	}
}

func TestIntegration_ParseTarget(t *testing.T) {
	s := startEcho(t)
	s.run("-X", "screen", "-t", "second", "4", "sleep", "600")
	short := s.name[strings.IndexByte(s.name, '.')+1:]
	pid := s.name[:strings.IndexByte(s.name, '.')]
	noEnv := func(string) string { return "" }
	for arg, want := range map[string]string{
		"screen:" + short + ":0": s.window("0").Address(),
		"screen:" + pid + ":4":   s.window("4").Address(),
		"screen:" + s.name:       s.window("4").Address(), // the window made last is current
	} {
		w, err := screen.ParseTarget(arg, noEnv)
		if err != nil || w.Address() != want {
			t.Errorf("ParseTarget(%q) = %v, %v; want %s", arg, w, err, want)
		}
	}
	env := map[string]string{"STY": s.name, "WINDOW": "0"}
	if w, err := screen.ParseTarget("", func(k string) string { return env[k] }); err != nil || w != s.window("0") {
		t.Errorf("ParseTarget from STY and WINDOW = %v, %v", w, err)
	}
	_, err := screen.ParseTarget("screen:"+short+":9", noEnv)
	if !errors.Is(err, screen.ErrNoWindow) {
		t.Errorf("ParseTarget of a missing window: err = %v, want ErrNoWindow", err)
	}
	_, err = screen.ParseTarget("screen:no-such-session", noEnv)
	if !errors.Is(err, screen.ErrNoSession) || !strings.Contains(err.Error(), s.name) {
		t.Errorf("ParseTarget of a missing session: err = %v, want ErrNoSession listing %s", err, s.name)
	}
}

// lastRead splits the echo program's reads into what came before the
// last read and the last read.
func lastRead(reads []string) (string, string) {
	if len(reads) == 0 {
		return "", ""
	}
	return strings.Join(reads[:len(reads)-1], ""), reads[len(reads)-1]
}

func TestIntegration_SubmitArrivesLiterally(t *testing.T) {
	s := startEcho(t)
	term := screen.NewWindowTerminal(s.window("0"), screen.TerminalOptions{TempDir: t.TempDir()})
	tests := []struct {
		name, text, want string
	}{
		{"SingleLine", `echo "$HOME" ^A \015 \\ 'it''s' %s %% $(x) ` + "`y` ~ !", ""},
		{"MultiLine", "first $HOME\nsecond ^A \\ \"q\"\n\nthird %", ""},
	}
	tests[0].want = tests[0].text
	// Each newline is pasted as a CR, inside the markers.
	tests[1].want = "\x1b[200~first $HOME\rsecond ^A \\ \"q\"\r\rthird %\x1b[201~"
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(s.reads())
			if err := term.Submit(context.Background(), tt.text); err != nil {
				t.Fatal(err)
			}
			wait.For(t, "Enter read", waitTimeout, func() bool { r := s.reads(); return len(r) > before && r[len(r)-1] == "\r" })
			text, enter := lastRead(s.reads()[before:])
			if text != tt.want || enter != "\r" {
				t.Errorf("program read %q then %q, want %q then a lone CR", text, enter, tt.want)
			}
		})
	}
}

func TestIntegration_PressEnterIsOneKey(t *testing.T) {
	s := startEcho(t)
	term := screen.NewWindowTerminal(s.window("0"), screen.TerminalOptions{TempDir: t.TempDir()})
	if err := term.Press(context.Background(), respawn.KeyEnter); err != nil {
		t.Fatal(err)
	}
	wait.For(t, "Enter read", waitTimeout, func() bool { return len(s.reads()) == 1 })
	if got := s.reads(); got[0] != "\r" {
		t.Errorf("program read %q, want one CR", got)
	}
}

// TestIntegration_PressSubmitKeys: the keys Submit presses around its
// text reach the program as a terminal sends them: Backspace as DEL, vim's
// i as the letter, each on its own.
func TestIntegration_PressSubmitKeys(t *testing.T) {
	s := startEcho(t)
	term := screen.NewWindowTerminal(s.window("0"), screen.TerminalOptions{TempDir: t.TempDir()})
	for _, k := range []respawn.Key{respawn.KeyBackspace, respawn.KeyVimInsert} {
		if err := term.Press(context.Background(), k); err != nil {
			t.Fatal(err)
		}
	}
	wait.For(t, "two keys read", waitTimeout, func() bool { return strings.Join(s.reads(), "") == "\x7fi" })
}

// collector gathers a poller's output.
type collector struct {
	mu   sync.Mutex
	text strings.Builder
}

func (c *collector) add(data []byte, _ time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.text.Write(data)
}

func (c *collector) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.text.String()
}

func startRealPoller(t *testing.T, w screen.Window) (*screen.Poller, *collector) {
	t.Helper()
	p := screen.NewPoller(w, screen.PollerOptions{
		PollInterval:   screen.MinPollInterval,
		CaptureTimeout: 500 * time.Millisecond, // a closed window is noticed after one timeout
		TempDir:        t.TempDir(),
	})
	c := &collector{}
	p.Subscribe(c.add)
	if err := p.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Error(err)
		}
	})
	return p, c
}

func TestIntegration_PollerReportsOutput(t *testing.T) {
	s := startEcho(t)
	p, out := startRealPoller(t, s.window("0"))
	first, ok := p.Snapshot()
	if !ok || first.Width != 80 || first.Height != 24 || !strings.Contains(first.Text(), "ready") {
		t.Fatalf("first snapshot %dx%d %q, want 80x24 showing ready", first.Width, first.Height, first.Text())
	}
	term := screen.NewWindowTerminal(s.window("0"), screen.TerminalOptions{TempDir: t.TempDir()})
	long := strings.Repeat("0123456789", 10) // wraps in an 80-column window
	if err := term.Submit(context.Background(), long); err != nil {
		t.Fatal(err)
	}
	want := `got "` + long + `"` + "\n"
	wait.For(t, "output with the wrapped line joined", waitTimeout, func() bool { return strings.Contains(out.String(), want) })
	wait.For(t, "Enter in the output", waitTimeout, func() bool { return strings.Contains(out.String(), `got "\r"`) })
	snap, _ := p.Snapshot()
	if !strings.Contains(snap.Text(), `got "`+long[:74]) || !snap.At.After(first.At) {
		t.Errorf("snapshot rows %q at %v, want the wrapped line, later than %v", snap.Lines, snap.At, first.At)
	}
	if !strings.Contains(out.String(), "got") || strings.Contains(out.String(), "ready") {
		t.Errorf("output %q: want only what changed after Start", out.String())
	}
}

func TestIntegration_PollerStopsWhenWindowCloses(t *testing.T) {
	s := startEcho(t)
	s.run("-X", "screen", "3", "sleep", "600")
	p, _ := startRealPoller(t, s.window("3"))
	s.run("-p", "3", "-X", "kill")
	waitClosed(t, p)
	if err := p.Err(); !errors.Is(err, screen.ErrNoWindow) || !strings.Contains(err.Error(), "closed") {
		t.Errorf("Err() = %v, want the window closed", err)
	}
}

func TestIntegration_PollerStopsWhenSessionEnds(t *testing.T) {
	s := startEcho(t)
	p, _ := startRealPoller(t, s.window("0"))
	s.run("-X", "quit")
	waitClosed(t, p)
	if err := p.Err(); !errors.Is(err, screen.ErrNoSession) || !strings.Contains(err.Error(), "ended") {
		t.Errorf("Err() = %v, want the session ended", err)
	}
}

func waitClosed(t *testing.T, p *screen.Poller) {
	t.Helper()
	select {
	case <-p.Done():
	case <-time.After(waitTimeout):
		t.Fatal("poller did not stop")
	}
}

// TestIntegration_SimulatedClaude drives the simulated Claude Code in a
// 120x40 window: the detector must read the prompt box, a working turn
// and its end from hardcopies (on screen 4.x through the glyph repair),
// and a submitted prompt must arrive whole.
func TestIntegration_SimulatedClaude(t *testing.T) {
	log := t.TempDir() + "/claude.log"
	s := startSized(t, 120, 40, "claude", "--log", log, "--work", "1s", "--seed", "7", "--cwd", t.TempDir())
	p, out := startRealPoller(t, s.window("0"))
	patterns := claude.DefaultPatterns()
	facts := func() respawn.ScreenFacts {
		snap, _ := p.Snapshot()
		return patterns.Classify(snap)
	}
	wait.For(t, "the prompt box", waitTimeout, func() bool { return facts().PromptBox })
	if snap, _ := p.Snapshot(); snap.Width != 120 || snap.Height != 40 {
		t.Errorf("window %dx%d, want 120x40", snap.Width, snap.Height)
	}
	term := screen.NewWindowTerminal(s.window("0"), screen.TerminalOptions{TempDir: t.TempDir()})
	prompt := "run the tests\nthen say $HOME ^A done"
	if err := term.Submit(context.Background(), prompt); err != nil {
		t.Fatal(err)
	}
	wait.For(t, "a working turn", waitTimeout, func() bool { return facts().Working })
	wait.For(t, "the turn's completion line", waitTimeout, func() bool { f := facts(); return f.Completion && !f.Working })
	if !strings.Contains(out.String(), "esc to interrupt") {
		t.Errorf("output never showed the busy footer:\n%s", out.String())
	}
	if !submitted(t, log, prompt) {
		t.Errorf("simulated Claude did not get %q as one submitted prompt", prompt)
	}
}

// submitted reports whether the simulated Claude logged prompt as one
// submitted prompt.
func submitted(t *testing.T, log, prompt string) bool {
	t.Helper()
	entries, err := simclaude.ReadLog(log)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Kind == simclaude.LogSubmit && e.Text == prompt {
			return true
		}
	}
	t.Logf("simulated Claude's log: %+v", entries)
	return false
}

// With a person attached and looking at another window, everything must
// still go to the window named: screen runs some commands (eval) in the
// attached display's window whatever -p says.
func TestIntegration_AttachedDisplayOnAnotherWindow(t *testing.T) {
	log := t.TempDir() + "/echo.log"
	s, _ := startOnPTY(t, 100, 30, "echo", log)
	s.log = log
	s.run("-X", "screen", "1", "sleep", "600") // the display now shows window 1
	term := screen.NewWindowTerminal(s.window("0"), screen.TerminalOptions{TempDir: t.TempDir()})
	wait.For(t, "echo program ready", waitTimeout, func() bool {
		shot, err := term.Snapshot(context.Background())
		return err == nil && strings.Contains(shot.Text(), "ready")
	})
	if err := term.Submit(context.Background(), "to window 0\nonly"); err != nil {
		t.Fatal(err)
	}
	wait.For(t, "Enter read", waitTimeout, func() bool { r := s.reads(); return len(r) > 0 && r[len(r)-1] == "\r" })
	if text, _ := lastRead(s.reads()); text != "\x1b[200~to window 0\ronly\x1b[201~" {
		t.Errorf("window 0 read %q", text)
	}
	shot, err := term.Snapshot(context.Background())
	if err != nil || shot.Width != 100 || shot.Height != 30 || !strings.Contains(shot.Text(), "to window 0") {
		t.Errorf("snapshot of window 0: %dx%d %q, %v", shot.Width, shot.Height, shot.Text(), err)
	}
}
