package tmux

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/respawn"
)

// fakeRunner records each command with the fake time it ran at and
// answers capture-pane with a screen that changes once Enter has been
// pressed changeAfter times.
type fakeRunner struct {
	clock       *clockwork.FakeClock
	start       time.Time
	changeAfter int

	mu     sync.Mutex
	calls  []string
	enters int
}

func (f *fakeRunner) Run(_ context.Context, args ...string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, fmt.Sprintf("%4dms %s", f.clock.Since(f.start).Milliseconds(), strings.Join(args, " ")))
	switch {
	case args[0] == "send-keys" && args[len(args)-1] == "Enter":
		f.enters++
	case args[0] == "capture-pane":
		if f.changeAfter > 0 && f.enters >= f.changeAfter {
			return "> hello\nsubmitted\n", nil
		}
		return "> hello\n", nil
	}
	return "", nil
}

// runOnFakeClock runs fn, advancing clock in steps whenever fn waits on
// it, and returns fn's error.
func runOnFakeClock(t *testing.T, clock *clockwork.FakeClock, step time.Duration, fn func() error) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	blockCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- fn()
		stop()
	}()
	for clock.BlockUntilContext(blockCtx, 1) == nil {
		clock.Advance(step)
	}
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		t.Fatal("fn did not return")
		return nil
	}
}

func newFakeTerminal(changeAfter, retries int) (*PaneTerminal, *fakeRunner, *clockwork.FakeClock) {
	clock := clockwork.NewFakeClock()
	runner := &fakeRunner{clock: clock, start: clock.Now(), changeAfter: changeAfter}
	timing := respawn.DefaultSendTiming()
	timing.EnterRetries = retries
	term := NewPaneTerminal(Server{Socket: "/unused"}, "%1", TerminalOptions{
		Runner: runner, Clock: clock, Timing: timing,
	})
	return term, runner, clock
}

// TestPaneTerminal_SubmitTiming checks the whole command sequence of a
// Submit whose first Enter is lost: text, the pause, Enter on its own,
// captures every 200ms for 1s, a second Enter, and the change seen.
func TestPaneTerminal_SubmitTiming(t *testing.T) {
	term, runner, clock := newFakeTerminal(2, respawn.DefaultEnterRetries)
	if err := runOnFakeClock(t, clock, 100*time.Millisecond, func() error {
		return term.Submit(context.Background(), "hello")
	}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"   0ms send-keys -t %1 -l -- hello",
		" 100ms capture-pane -p -t %1",
		" 100ms send-keys -t %1 Enter",
		" 300ms capture-pane -p -t %1",
		" 500ms capture-pane -p -t %1",
		" 700ms capture-pane -p -t %1",
		" 900ms capture-pane -p -t %1",
		"1100ms capture-pane -p -t %1",
		"1100ms send-keys -t %1 Enter",
		"1300ms capture-pane -p -t %1",
	}
	if !reflect.DeepEqual(runner.calls, want) {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(runner.calls, "\n"), strings.Join(want, "\n"))
	}
}

func TestPaneTerminal_SubmitGivesUp(t *testing.T) {
	term, runner, clock := newFakeTerminal(0, 1)
	err := runOnFakeClock(t, clock, 100*time.Millisecond, func() error {
		return term.Submit(context.Background(), "hello")
	})
	if err == nil || !strings.Contains(err.Error(), "did not change after 2 Enter presses") {
		t.Fatalf("Submit = %v, want a did-not-change error", err)
	}
	if runner.enters != 2 {
		t.Errorf("pressed Enter %d times, want 2", runner.enters)
	}
}

func TestPaneTerminal_SubmitEmptyPressesEnterOnly(t *testing.T) {
	term, runner, clock := newFakeTerminal(1, respawn.DefaultEnterRetries)
	if err := runOnFakeClock(t, clock, 100*time.Millisecond, func() error {
		return term.Submit(context.Background(), "")
	}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.Join(runner.calls, "\n"), "-l") {
		t.Errorf("typed something for empty text: %q", runner.calls)
	}
	if runner.enters != 1 {
		t.Errorf("pressed Enter %d times, want 1", runner.enters)
	}
}
