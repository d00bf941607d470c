package tmux

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
)

// TestClient_FallsBackToPolling makes every control connection fail and
// checks, on a fake clock, that the client backs off, switches to
// capture-pane polling, says so in Mode and the log, delivers redraws only
// when the screen changes, and returns to control mode once it works.
func TestClient_FallsBackToPolling(t *testing.T) {
	ts := tmuxtest.NewServer(t)
	pane := ts.NewSession("poll", "sh", "-c", `echo first-screen; while read l; do echo "got $l"; done`)
	ts.WaitFor(pane, func(s string) bool { return strings.Contains(s, "first-screen") }, "the shell", 5*time.Second)
	srv := Server{Socket: ts.Socket()}
	clock := clockwork.NewFakeClock()
	var logs logBuffer
	var got collector
	client := NewClient(srv, "poll", ClientOptions{Clock: clock, Logger: logs.logger(), MaxFailures: 2})
	var failing atomic.Bool
	var dials atomic.Int32
	failing.Store(true)
	client.dial = func(ctx context.Context) (*conn, error) {
		dials.Add(1)
		if failing.Load() {
			return nil, errors.New("control mode broken for the test")
		}
		return client.connect(ctx)
	}
	client.Subscribe(pane, got.add)
	if err := client.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	// First failure: a backoff timer. Second failure: polling, whose
	// ticker is the only thing waiting on the clock.
	block(t, ctx, clock)
	clock.Advance(DefaultBackoffMin)
	block(t, ctx, clock)
	if want := "polling: control mode broken for the test"; client.Mode() != want {
		t.Fatalf("Mode() = %q, want %q", client.Mode(), want)
	}
	if !strings.Contains(logs.String(), "polling panes with capture-pane") {
		t.Errorf("log lacks the polling line:\n%s", logs.String())
	}

	pollOnce(t, ctx, clock, DefaultPollInterval)
	got.waitFor(t, "first-screen", time.Second)
	if !strings.HasPrefix(string(got.bytes()), "\x1b[0m\x1b[H\x1b[2J") {
		t.Errorf("polled output does not start with a redraw: %q", got.bytes())
	}

	// An unchanged screen delivers nothing; a changed one a new redraw.
	chunks := got.chunkCount()
	pollOnce(t, ctx, clock, DefaultPollInterval)
	if got.chunkCount() != chunks {
		t.Errorf("unchanged screen delivered %d more chunks", got.chunkCount()-chunks)
	}
	ts.Tmux("send-keys", "-t", pane, "-l", "polled")
	ts.Tmux("send-keys", "-t", pane, "Enter")
	ts.WaitFor(pane, func(s string) bool { return strings.Contains(s, "got polled") }, "the echo", 5*time.Second)
	pollOnce(t, ctx, clock, DefaultPollInterval)
	got.waitFor(t, "got polled", time.Second)

	// After RetryControl the client tries control mode again.
	failing.Store(false)
	before := dials.Load()
	clock.Advance(DefaultRetryControl)
	waitConnected(t, client, 5*time.Second)
	if dials.Load() <= before {
		t.Errorf("no dial after RetryControl")
	}
	if client.Mode() != ModeControl {
		t.Errorf("Mode() = %q after control came back", client.Mode())
	}
	if !strings.Contains(logs.String(), "tmux control mode is back") {
		t.Errorf("log lacks the recovery line:\n%s", logs.String())
	}
}

// TestClient_PollsOldTmux checks that a server too old for control-mode
// flow control is polled from the start, and that an unchanged screen is
// not delivered again when a polling round ends.
func TestClient_PollsOldTmux(t *testing.T) {
	ts := tmuxtest.NewServer(t)
	pane := ts.NewSession("old", "cat")
	clock := clockwork.NewFakeClock()
	client := NewClient(Server{Socket: ts.Socket()}, "old", ClientOptions{Clock: clock})
	var got collector
	client.Subscribe(pane, got.add)
	var dials atomic.Int32
	client.dial = func(ctx context.Context) (*conn, error) {
		dials.Add(1)
		return nil, errors.New("unexpected dial")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	client.cancel = cancel // what Start would do; Close cancels and waits
	defer client.Close()
	client.wg.Add(1)
	go client.run(ctx, CheckVersion("3.1c"), nil, nil)
	block(t, ctx, clock)
	if want := "polling: tmux 3.1c is too old: codeman needs 3.2 or newer for control-mode flow control"; client.Mode() != want {
		t.Errorf("Mode() = %q, want %q", client.Mode(), want)
	}
	pollOnce(t, ctx, clock, DefaultPollInterval)
	pollOnce(t, ctx, clock, DefaultRetryControl) // ends the round; the next one starts
	pollOnce(t, ctx, clock, DefaultPollInterval)
	if n := got.chunkCount(); n != 1 {
		t.Errorf("an unchanged screen was delivered %d times, want once", n)
	}
	if dials.Load() != 0 {
		t.Errorf("dialled %d times on a server without flow control", dials.Load())
	}
}

// block waits until one goroutine waits on the fake clock.
func block(t *testing.T, ctx context.Context, clock *clockwork.FakeClock) {
	t.Helper()
	if err := clock.BlockUntilContext(ctx, 1); err != nil {
		t.Fatalf("nothing waits on the clock: %v", err)
	}
}

// pollOnce advances the clock by one poll interval and waits until the
// poll has run: the poller arms its next timer only afterwards.
func pollOnce(t *testing.T, ctx context.Context, clock *clockwork.FakeClock, d time.Duration) {
	t.Helper()
	clock.Advance(d)
	block(t, ctx, clock)
}

func TestClient_Backoff(t *testing.T) {
	c := NewClient(Server{Socket: "/unused"}, "x", ClientOptions{BackoffMin: time.Second, BackoffMax: 10 * time.Second})
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 10 * time.Second, 10 * time.Second}
	for i, w := range want {
		if got := c.backoff(i + 1); got != w {
			t.Errorf("backoff(%d) = %s, want %s", i+1, got, w)
		}
	}
	if got := c.backoff(1000); got != 10*time.Second {
		t.Errorf("backoff(1000) = %s", got)
	}
}
