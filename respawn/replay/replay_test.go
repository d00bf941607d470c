package replay

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/agents/claude"
	"github.com/codeman-dev/codeman/hooks"
	"github.com/codeman-dev/codeman/respawn"
)

var update = flag.Bool("update", false, "rewrite the expected timelines in agents/claude/testdata/replay")

// draw returns the bytes a full-screen TUI writes to show rows.
func draw(rows ...string) string {
	var b strings.Builder
	b.WriteString("\x1b[H\x1b[2J")
	for i, r := range rows {
		fmt.Fprintf(&b, "\x1b[%d;1H%s", i+1, r)
	}
	return b.String()
}

var (
	rule    = strings.Repeat("─", 60)
	box     = []string{rule, "❯\u00a0", rule}
	idleFtr = "  ⏸ manual mode on · ? for shortcuts"
	busyFtr = "  ⏸ manual mode on · esc to interrupt"
)

// syntheticCast is a turn that works for 20 s and ends.
func syntheticCast(t *testing.T) *Cast {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{Width: 80, Height: 24})
	if err != nil {
		t.Fatal(err)
	}
	sec := 0.0
	for ; sec < 20; sec += 0.2 {
		frame := draw(append(append([]string{"❯ fix the bug", "", fmt.Sprintf("✢ Enchanting… (%ds · ↓ %d tokens)", int(sec), int(sec*10))}, box...), busyFtr)...)
		w.Write(sec, "o", frame)
	}
	w.Write(sec, "o", draw(append(append([]string{"❯ fix the bug", "● Fixed.", "✻ Churned for 20s · done 6:47 PM"}, box...), idleFtr)...))
	c, err := Read(&buf, "synthetic.cast")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func testConfig() respawn.Config {
	cfg := respawn.DefaultConfig()
	cfg.KickstartPrompt = "continue with the next task"
	return cfg
}

func sends(tl []Entry) []string {
	var out []string
	for _, e := range tl {
		if e.Event == "send" {
			if e.Key != "" {
				out = append(out, "key "+string(e.Key))
			} else {
				out = append(out, *e.Text)
			}
		}
	}
	return out
}

func TestRun_CycleAfterTurn(t *testing.T) {
	tl, err := Run(syntheticCast(t), Options{Config: testConfig(), Agent: claude.DefaultPatterns()})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{respawn.DefaultUpdatePrompt, "/clear", "/init", "continue with the next task"}
	if got := sends(tl); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("sends = %q\nwant %q\n%s", got, want, timelineText(tl))
	}
	for _, e := range tl {
		if e.Event == "send" && e.T < 30 {
			t.Fatalf("typed at %.1fs, while Claude worked or right after:\n%s", e.T, timelineText(tl))
		}
	}
}

// A replay without an agent has nothing to read the recording with: it
// is refused, naming the option.
func TestRun_NeedsAgent(t *testing.T) {
	tl, err := Run(syntheticCast(t), Options{Config: testConfig()})
	if err == nil || !strings.Contains(err.Error(), "Options.Agent") || tl != nil {
		t.Fatalf("Run without an agent = %d entries, %v; want an error naming Options.Agent", len(tl), err)
	}
}

func TestRead_Errors(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"Empty", "", "empty recording"},
		{"Blank", " \n\t\n", "x.cast: empty recording"},
		{"HeaderAfterBlank", "\n{\"version\":2,\"width\":0,\"height\":24}\n", "x.cast:2: header: width 0"},
		{"BadHeader", "{\"version\":2", "x.cast:1: header"},
		{"Version", `{"version":1,"width":80,"height":24}`, "version 1"},
		{"BadEvent", "{\"version\":2,\"width\":80,\"height\":24}\n[0.1, \"o\", \"a\"]\n[0.2, \"o\"]\n", "x.cast:3: event has 2 fields"},
		{"BackInTime", "{\"version\":2,\"width\":80,\"height\":24}\n[0.5, \"o\", \"a\"]\n[0.2, \"o\", \"b\"]\n", "x.cast:3: time 0.200000 goes back"},
		{"Kind", "{\"version\":2,\"width\":80,\"height\":24}\n[0.5, \"x\", \"a\"]\n", "x.cast:2: unknown event kind"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.text), "x.cast")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestWriter_SplitUTF8(t *testing.T) {
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, Header{Width: 10, Height: 2})
	b := []byte("a✻b")
	w.Output(0.1, b[:2])
	w.Output(0.2, b[2:])
	c, err := Read(&buf, "split.cast")
	if err != nil {
		t.Fatal(err)
	}
	var got string
	for _, e := range c.Events {
		got += e.Data
	}
	if got != "a✻b" {
		t.Fatalf("got %q", got)
	}
}

// TestGolden replays every recording under agents/claude/testdata/replay
// and compares the timeline with its .timeline file (regenerate with
// -update; review the diff).
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "agents", "claude", "testdata", "replay", "*.cast"))
	if len(files) == 0 {
		t.Skip("no recordings in agents/claude/testdata/replay")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			f, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			c, err := Read(f, filepath.Base(file))
			if err != nil {
				t.Fatal(err)
			}
			tl, err := Run(c, Options{Config: testConfig(), Agent: claude.DefaultPatterns(), Interpret: hooks.InterpretPayload})
			if err != nil {
				t.Fatal(err)
			}
			got := timelineJSON(tl)
			golden := strings.TrimSuffix(file, ".cast") + ".timeline"
			if *update {
				os.WriteFile(golden, []byte(got), 0o644)
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Fatalf("timeline of %s changed:\n%s\nwant:\n%s", file, got, want)
			}
		})
	}
}

func timelineText(tl []Entry) string {
	var b strings.Builder
	for _, e := range tl {
		b.WriteString(e.String() + "\n")
	}
	return b.String()
}

func timelineJSON(tl []Entry) string {
	var b strings.Builder
	for _, e := range tl {
		e.T = float64(time.Duration(e.T*1000)) / 1000 // millisecond precision keeps goldens stable
		j, _ := json.Marshal(e)
		b.Write(j)
		b.WriteByte('\n')
	}
	return b.String()
}

// TestRecordings checks what matters in each real recording, beyond the
// golden timelines: what is typed, and that nothing is typed too early.
func TestRecordings(t *testing.T) {
	cycle := []string{respawn.DefaultUpdatePrompt, "/clear", "/init", "continue with the next task"}
	for _, tc := range []struct {
		file      string
		want      []string // sends, in order (a prefix of all sends)
		notBefore float64  // no send before this second: the turn is still running
	}{
		{"turn-ends.cast", cycle, 16.5},
		{"long-work.cast", cycle, 34},
		{"background-agent.cast", cycle, 11.7},
		{"plan-approval.cast", []string{"key Enter"}, 5.8},
		{"question.cast", nil, 0},
		{"permission.cast", nil, 0},
		{"api-error.cast", []string{"continue"}, 300},
		{"usage-limit.cast", nil, 0},
	} {
		t.Run(tc.file, func(t *testing.T) {
			f, err := os.Open(filepath.Join("..", "..", "agents", "claude", "testdata", "replay", tc.file))
			if err != nil {
				t.Skip(err)
			}
			defer f.Close()
			c, err := Read(f, tc.file)
			if err != nil {
				t.Fatal(err)
			}
			tl, err := Run(c, Options{Config: testConfig(), Agent: claude.DefaultPatterns(), Interpret: hooks.InterpretPayload})
			if err != nil {
				t.Fatal(err)
			}
			got := sends(tl)
			if !hasPrefix(got, tc.want) || (tc.want == nil && len(got) != 0) {
				t.Fatalf("sends = %q, want %q first\n%s", got, tc.want, timelineText(tl))
			}
			for _, e := range tl {
				if e.Event == "send" && e.T < tc.notBefore {
					t.Fatalf("typed at %.1fs, before %.1fs\n%s", e.T, tc.notBefore, timelineText(tl))
				}
			}
		})
	}
}

func hasPrefix(got, want []string) bool {
	if len(got) < len(want) {
		return false
	}
	for i := range want {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

// OnDecision sees every decision of the timeline, in order, in virtual
// time from the recording's start.
func TestRun_OnDecision(t *testing.T) {
	var got []respawn.Decision
	tl, err := Run(syntheticCast(t), Options{Config: testConfig(), Agent: claude.DefaultPatterns(), OnDecision: func(d respawn.Decision) { got = append(got, d) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(tl) || len(got) == 0 {
		t.Fatalf("%d decisions for %d timeline entries", len(got), len(tl))
	}
	start := got[0].At
	for i, d := range got {
		if string(d.Kind) != tl[i].Event || d.At.Sub(start).Seconds() != tl[i].T {
			t.Fatalf("decision %d: %s at %s, timeline %s", i, d, d.At.Sub(start), tl[i])
		}
	}
}
