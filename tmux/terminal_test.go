package tmux

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
	"github.com/codeman-dev/codeman/internal/rig/wait"
	"github.com/codeman-dev/codeman/respawn"
)

// keysPane starts the keys program (it shows each read from its terminal
// as `read "..."`) in a new session and waits until it runs.
func keysPane(t *testing.T, ts *tmuxtest.Server, session string) string {
	t.Helper()
	pane := ts.NewSession(session, programArgv(t, "keys")...)
	ts.WaitFor(pane, func(s string) bool { return strings.Contains(s, "ready") }, "the keys program", 5*time.Second)
	return pane
}

// readLine is how the keys program shows one read of b.
func readLine(b string) string { return "read " + strconv.Quote(b) }

// wantReads fails unless the screen shows the reads in order.
func wantReads(t *testing.T, screen string, reads ...string) {
	t.Helper()
	rest := screen
	for _, r := range reads {
		i := strings.Index(rest, readLine(r)+"\n")
		if i < 0 {
			t.Errorf("screen lacks %s after the earlier reads; screen:\n%s", readLine(r), screen)
			return
		}
		rest = rest[i+len(readLine(r)):]
	}
}

// allReads joins the bytes of every read shown on the screen.
func allReads(screen string) string {
	var b strings.Builder
	for _, line := range strings.Split(screen, "\n") {
		if q, ok := strings.CutPrefix(line, "read "); ok {
			if s, err := strconv.Unquote(q); err == nil {
				b.WriteString(s)
			}
		}
	}
	return b.String()
}

// sendTexts are single-line texts that must arrive exactly as typed.
var sendTexts = []struct{ name, text string }{
	{"Plain", "hello world"},
	{"Dollar", "echo $HOME ${PATH}"},
	{"TrailingSemicolon", "first; second;"},
	{"Quotes", `say "hi" and 'bye'`},
	{"Backslashes", `C:\path\to\ \; \\`},
	{"LeadingDash", "-x --flag"},
	{"Format", "#{pane_id} #(echo no) #[bold]"},
	{"Tilde", "~/notes ~root"},
	{"Unicode", "café ✻ ❯\u00a0ok 日本"},
	{"Tab", "a\tb"},
	{"KeyName", "Enter"},
}

func TestPaneTerminal_Submit(t *testing.T) {
	ts := tmuxtest.NewServer(t)
	srv := Server{Socket: ts.Socket()}
	ctx := context.Background()
	runners := map[string]func(session string) Runner{
		"Exec":    func(string) Runner { return srv },
		"Control": func(session string) Runner { return startClient(t, srv, session, ClientOptions{}) },
	}
	for rname, runner := range runners {
		t.Run(rname, func(t *testing.T) {
			session := "submit-" + strings.ToLower(rname)
			pane := keysPane(t, ts, session)
			term := NewPaneTerminal(srv, pane, TerminalOptions{Runner: runner(session), Timing: timing(func(t *respawn.SendTiming) { t.VerifyInterval = 20 * time.Millisecond })})
			for _, tt := range sendTexts {
				t.Run(tt.name, func(t *testing.T) {
					if err := term.Submit(ctx, tt.text); err != nil {
						t.Fatal(err)
					}
					// The text, then Enter as a read of its own.
					wantReads(t, ts.Capture(pane), tt.text, "\r")
				})
			}
		})
	}
}

func TestPaneTerminal_SubmitMultiLine(t *testing.T) {
	ts := tmuxtest.NewServer(t)
	pane := keysPane(t, ts, "multi")
	srv := Server{Socket: ts.Socket()}
	term := NewPaneTerminal(srv, pane, TerminalOptions{})
	// The control bytes arrive as they are: tmux 3.7 rewrites them in a
	// paste (ESC as ^[) unless paste-buffer has -S.
	text := "line one $HOME \x1b[1m\x7f\x01\nline two; \"q\" \\ #{pane_id}\n-x last"
	if err := term.Submit(context.Background(), text); err != nil {
		t.Fatal(err)
	}
	// One bracketed paste (tmux turns LF into CR inside it), then Enter.
	paste := "\x1b[200~" + strings.ReplaceAll(text, "\n", "\r") + "\x1b[201~"
	wantReads(t, ts.Capture(pane), paste, "\r")
	if bufs := ts.Tmux("list-buffers", "-F", "#{buffer_name}"); strings.Contains(bufs, "codeman-") {
		t.Errorf("paste buffer left behind: %q", bufs)
	}
}

func TestPaneTerminal_SubmitLongText(t *testing.T) {
	ts := tmuxtest.NewServer(t)
	pane := ts.NewSession("long", programArgv(t, "linelen")...)
	ts.WaitFor(pane, func(s string) bool { return strings.Contains(s, "ready") }, "the program", 5*time.Second)
	term := NewPaneTerminal(Server{Socket: ts.Socket()}, pane, TerminalOptions{})
	text := strings.Repeat("0123456789", 2000) // past tmux's command size limit
	if err := term.Submit(context.Background(), text); err != nil {
		t.Fatal(err)
	}
	ts.WaitFor(pane, func(s string) bool { return strings.Contains(s, "line of 20000 bytes") }, "the whole line", 5*time.Second)
}

func TestPaneTerminal_Press(t *testing.T) {
	ts := tmuxtest.NewServer(t)
	pane := keysPane(t, ts, "press")
	term := NewPaneTerminal(Server{Socket: ts.Socket()}, pane, TerminalOptions{})
	ctx := context.Background()
	for _, k := range []respawn.Key{respawn.KeyEnter, "Down", "2", respawn.KeyBackspace, respawn.KeyVimInsert} {
		if err := term.Press(ctx, k); err != nil {
			t.Fatalf("Press(%s): %v", k, err)
		}
	}
	// Keys sent back to back may arrive in one read. Backspace is DEL, as a
	// terminal sends it; vim's i is the letter.
	ts.WaitFor(pane, func(s string) bool { return strings.Contains(allReads(s), "\r\x1b[B2\x7fi") }, "Enter, Down, 2, Backspace and i", 5*time.Second)
	for _, k := range []respawn.Key{"Escape", "C-l", "", "Enter Enter"} {
		if err := term.Press(ctx, k); err == nil {
			t.Errorf("Press(%q) succeeded, want an error", k)
		}
	}
}

// TestPaneTerminal_EnterRetries uses a pane whose screen never changes (no
// echo, no output) and counts the Enter presses it receives.
func TestPaneTerminal_EnterRetries(t *testing.T) {
	ts := tmuxtest.NewServer(t)
	log := filepath.Join(t.TempDir(), "lines")
	pane := ts.NewSession("silent", "sh", "-c", `stty -echo; while IFS= read -r l; do echo "[$l]" >> "$0"; done`, log)
	term := NewPaneTerminal(Server{Socket: ts.Socket()}, pane, TerminalOptions{
		Timing: timing(func(t *respawn.SendTiming) {
			t.EnterRetries, t.VerifyTimeout, t.VerifyInterval = 2, 150*time.Millisecond, 50*time.Millisecond
		}),
	})
	err := term.Submit(context.Background(), "hello")
	if err == nil || !strings.Contains(err.Error(), "screen did not change after 3 Enter presses") {
		t.Fatalf("Submit = %v, want an error about 3 Enter presses", err)
	}
	wait.For(t, "three lines in "+log, 5*time.Second, func() bool {
		b, _ := os.ReadFile(log)
		return string(b) == "[hello]\n[]\n[]\n"
	})
}

func TestPaneTerminal_Snapshot(t *testing.T) {
	ts := tmuxtest.NewServer(t)
	pane := ts.NewSession("snap", "sh", "-c", `printf 'top line   \n\342\235\257\302\240typed   \n'; exec cat`)
	ts.WaitFor(pane, func(s string) bool { return strings.Contains(s, "typed") }, "the output", 5*time.Second)
	term := NewPaneTerminal(Server{Socket: ts.Socket()}, pane, TerminalOptions{})
	before := time.Now()
	scr, err := term.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if scr.Width != tmuxtest.Width || scr.Height != tmuxtest.Height {
		t.Errorf("size = %dx%d, want %dx%d", scr.Width, scr.Height, tmuxtest.Width, tmuxtest.Height)
	}
	if len(scr.Lines) < 2 || scr.Lines[0] != "top line" || scr.Lines[1] != "❯\u00a0typed" {
		t.Errorf("lines = %q", scr.Lines[:min(3, len(scr.Lines))])
	}
	if len(scr.Lines) > scr.Height {
		t.Errorf("%d lines on a %d-row screen", len(scr.Lines), scr.Height)
	}
	if scr.At.Before(before) {
		t.Errorf("At = %v, before the call at %v", scr.At, before)
	}
	if _, err := NewPaneTerminal(Server{Socket: ts.Socket()}, "%99", TerminalOptions{}).Snapshot(context.Background()); !errors.Is(err, ErrNoPane) {
		t.Errorf("Snapshot of %%99 = %v, want ErrNoPane", err)
	}
	byName := NewPaneTerminal(Server{Socket: ts.Socket()}, "snap:0", TerminalOptions{})
	if err := byName.Submit(context.Background(), "x"); err == nil || !strings.Contains(err.Error(), "not a pane id") {
		t.Errorf("Submit to a pane by name = %v, want an error", err)
	}
}

// timing returns the default send timing changed by f.
func timing(f func(*respawn.SendTiming)) respawn.SendTiming {
	t := respawn.DefaultSendTiming()
	f(&t)
	return t
}
