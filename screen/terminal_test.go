package screen

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/respawn"
)

// newTestTerminal returns a terminal on window 0 of f with a fake clock.
func newTestTerminal(t *testing.T, f *fakeScreen) (*WindowTerminal, *clockwork.FakeClock) {
	t.Helper()
	clock := clockwork.NewFakeClock()
	term := NewWindowTerminal(Window{Session: f.session, Window: "0"},
		TerminalOptions{Runner: f, Clock: clock, TempDir: t.TempDir()})
	return term, clock
}

// withClock runs fn and moves the fake clock on whenever fn waits on it.
func withClock(t *testing.T, clock *clockwork.FakeClock, fn func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- fn() }()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case err := <-done:
			return err
		case <-deadline:
			t.Fatal("call did not return")
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
		if clock.BlockUntilContext(ctx, 1) == nil {
			clock.Advance(10 * time.Millisecond)
		}
		cancel()
	}
}

// echoOnEnter makes the window show a new row for every Enter, as a shell
// or Claude Code would.
func echoOnEnter(f *fakeScreen) {
	f.onInput = func(w *fakeWindow, in string) {
		if in == "\r" {
			w.rows = append(w.rows[1:], "submitted")
		}
	}
}

func TestWindowTerminal_SubmitSendsTextThenEnter(t *testing.T) {
	f := newFakeScreen("9.work")
	f.addWindow("0", 80, "$ ", "", "")
	echoOnEnter(f)
	term, clock := newTestTerminal(t, f)
	text := `echo "$HOME" ^A \015 'q' % ` + "`x`"
	if err := withClock(t, clock, func() error { return term.Submit(context.Background(), text) }); err != nil {
		t.Fatal(err)
	}
	if got, want := f.inputs("0"), []string{text, "\r"}; !reflect.DeepEqual(got, want) {
		t.Errorf("window got %q, want %q", got, want)
	}
	// The size is asked for once, before the first hardcopy.
	want := []string{"X readbuf", "X paste", "Q info", "X hardcopy", `X stuff \015`, "X hardcopy"}
	if got := f.commands(); !reflect.DeepEqual(got, want) {
		t.Errorf("commands = %q, want %q", got, want)
	}
	for _, c := range f.calls {
		if slices.Contains(c, "-X") && !slices.Equal(c[:5], []string{"-S", "9.work", "-p", "0", "-X"}) {
			t.Errorf("command %q does not name the session and window", c)
		}
	}
}

func TestWindowTerminal_SubmitMultiLineIsOneBracketedPaste(t *testing.T) {
	f := newFakeScreen("9.work")
	f.addWindow("0", 80, "❯", "", "")
	echoOnEnter(f)
	term, clock := newTestTerminal(t, f)
	err := withClock(t, clock, func() error { return term.Submit(context.Background(), "first line\n\nthird line") })
	if err != nil {
		t.Fatal(err)
	}
	// Newlines go as CRs, as a terminal pastes them; inside the paste
	// Claude Code keeps each as a newline.
	want := []string{"\x1b[200~first line\r\rthird line\x1b[201~", "\r"}
	if got := f.inputs("0"); !reflect.DeepEqual(got, want) {
		t.Errorf("window got %q, want %q", got, want)
	}
}

func TestPasteData(t *testing.T) {
	tests := map[string]string{
		"one line":                 "one line",
		"a\nb":                     "\x1b[200~a\rb\x1b[201~",
		"a\n\nb":                   "\x1b[200~a\r\rb\x1b[201~",
		"a\r\nb\rc":                "\x1b[200~a\rb\rc\x1b[201~",
		"x\x1b[201~\ny":            "\x1b[200~x\ry\x1b[201~",
		"\x1b[200~single\x1b[201~": "single",
		"ends with newline\n":      "\x1b[200~ends with newline\r\x1b[201~",
	}
	for in, want := range tests {
		if got := string(pasteData(in)); got != want {
			t.Errorf("pasteData(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWindowTerminal_SubmitRetriesEnter(t *testing.T) {
	f := newFakeScreen("9.work")
	f.addWindow("0", 80, "❯ hi", "", "")
	enters := 0
	f.onInput = func(w *fakeWindow, in string) {
		if in == "\r" {
			// The first two presses are lost, as when Claude Code is still
			// busy drawing; the third submits.
			if enters++; enters == 3 {
				w.rows = []string{"❯ hi", "working", ""}
			}
		}
	}
	term, clock := newTestTerminal(t, f)
	if err := withClock(t, clock, func() error { return term.Submit(context.Background(), "hi") }); err != nil {
		t.Fatal(err)
	}
	if enters != 3 {
		t.Errorf("Enter pressed %d times, want 3", enters)
	}
}

func TestWindowTerminal_SubmitFailsWhenScreenNeverChanges(t *testing.T) {
	f := newFakeScreen("9.work")
	f.addWindow("0", 80, "frozen")
	term, clock := newTestTerminal(t, f)
	err := withClock(t, clock, func() error { return term.Submit(context.Background(), "hi") })
	if err == nil || !strings.Contains(err.Error(), "did not change after 4 Enter presses") ||
		!strings.Contains(err.Error(), "screen:9.work:0") {
		t.Errorf("Submit = %v, want a failure naming the window and the 4 presses", err)
	}
	if n := strings.Count(strings.Join(f.commands(), ";"), `X stuff \015`); n != 4 {
		t.Errorf("Enter sent %d times, want 1 + 3 retries", n)
	}
}

func TestWindowTerminal_SubmitToGoneWindow(t *testing.T) {
	f := newFakeScreen("9.work")
	f.addWindow("0", 80, "x")
	f.end()
	term, clock := newTestTerminal(t, f)
	err := withClock(t, clock, func() error { return term.Submit(context.Background(), "hi") })
	if err == nil || !strings.Contains(err.Error(), "no such screen session") {
		t.Errorf("Submit = %v, want no such session", err)
	}
}

func TestWindowTerminal_Press(t *testing.T) {
	f := newFakeScreen("9.work")
	f.addWindow("0", 80, "x")
	term, _ := newTestTerminal(t, f)
	ctx := context.Background()
	for _, k := range []respawn.Key{respawn.KeyEnter, "Down", "Up", "Tab", "BTab", "2", respawn.KeyBackspace, respawn.KeyVimInsert} {
		if err := term.Press(ctx, k); err != nil {
			t.Fatalf("Press(%s): %v", k, err)
		}
	}
	want := []string{"\r", "\x1b[B", "\x1b[A", "\t", "\x1b[Z", "2", "\x7f", "i"}
	if got := f.inputs("0"); !reflect.DeepEqual(got, want) {
		t.Errorf("window got %q, want %q", got, want)
	}
	for _, k := range []respawn.Key{"Escape", "C-l", "22"} {
		if err := term.Press(ctx, k); err == nil || !strings.Contains(err.Error(), "not a key codeman sends") {
			t.Errorf("Press(%q) = %v, want a refusal", k, err)
		}
	}
}

func TestWindowTerminal_Snapshot(t *testing.T) {
	f := newFakeScreen("9.work")
	f.addWindow("0", 132, "top", "", "bottom  ")
	term, clock := newTestTerminal(t, f)
	ctx := context.Background()
	s, err := term.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := respawn.Screen{Lines: []string{"top", "", "bottom"}, Width: 132, Height: 3, At: clock.Now()}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("Snapshot = %+v, want %+v", s, want)
	}
	if _, err := term.Snapshot(ctx); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(strings.Join(f.commands(), ";"), "Q info"); n != 1 {
		t.Errorf("-Q info asked %d times for two snapshots, want once", n)
	}
}
