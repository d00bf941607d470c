package respawn

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"go.uber.org/goleak"
)

// The loop hands the core the output that arrived before any other event,
// so that no decision is taken without it. These tests take the output's
// own wake-up away (a nil notify channel never fires) and hand output over
// as if the loop were busy (outputWhileBusy), so that output reaches the
// core only through the event under test.

// outputWhileBusy gives c a chunk while its core is held, as by a loop
// handling another event: the chunk waits in pending.
func outputWhileBusy(c *Controller, data []byte) {
	c.coreMu.Lock()
	defer c.coreMu.Unlock()
	c.Output(data)
}

func (f *fakeTerminal) show(screen []string) {
	f.mu.Lock()
	f.screen = screen
	f.mu.Unlock()
}

// heldTerminal holds the next snapshot, once asked, until released: the
// screen it returns is the one shown when the snapshot was taken.
type heldTerminal struct {
	*fakeTerminal
	mu      sync.Mutex
	gate    chan struct{}
	entered chan struct{}
}

func (h *heldTerminal) holdNext() chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.gate = make(chan struct{})
	return h.gate
}

func (h *heldTerminal) Snapshot(ctx context.Context) (Screen, error) {
	s, err := h.fakeTerminal.Snapshot(ctx)
	h.mu.Lock()
	gate := h.gate
	h.gate = nil
	h.mu.Unlock()
	if gate != nil {
		h.entered <- struct{}{}
		select {
		case <-gate:
		case <-ctx.Done():
			return Screen{}, ctx.Err()
		}
	}
	return s, err
}

// startUnnotified starts a controller whose output is fed only by other
// events, and waits until it watches.
func startUnnotified(t *testing.T, clock clockwork.Clock, term Terminal) (*Controller, <-chan Decision) {
	t.Helper()
	c := NewController(ControllerOptions{Pane: "p", Config: testConfig(), Agent: claudeReader, Terminal: term, Clock: clock})
	c.notify = nil
	decisions, cancel := c.Subscribe()
	t.Cleanup(cancel)
	c.Start(context.Background())
	t.Cleanup(c.Stop)
	waitDecision(t, decisions, "started")
	return c, decisions
}

func TestGuard_ControllerFeedsBeforeTimer(t *testing.T) {
	defer goleak.VerifyNone(t)
	clock := clockwork.NewFakeClock()
	term := newFakeTerminal(idleScreen())
	c, decisions := startUnnotified(t, clock, term)
	clock.Advance(30 * time.Second)
	waitDecision(t, decisions, "cycle 1 starts")
	term.show(workingScreen())
	outputWhileBusy(c, []byte(chunkWorking))
	clock.Advance(time.Second) // inter_step_delay
	waitDecision(t, decisions, "working output before update was typed; cycle 1 abandoned")
	c.Stop()
	if len(term.calls) != 0 {
		t.Fatalf("typed %v", term.calls)
	}
}

func TestGuard_ControllerFeedsBeforeHook(t *testing.T) {
	defer goleak.VerifyNone(t)
	clock := clockwork.NewFakeClock()
	c, decisions := startUnnotified(t, clock, newFakeTerminal(idleScreen()))
	stop := clock.Now()
	clock.Advance(time.Second)
	outputWhileBusy(c, []byte(chunkWorking))
	c.Hook(Hook{Kind: HookStop, At: stop})
	waitDecision(t, decisions, "hook stop is stale: Claude worked after it")
	c.Stop()
}

func TestGuard_ControllerFeedsBeforeResult(t *testing.T) {
	defer goleak.VerifyNone(t)
	clock := clockwork.NewFakeClock()
	term := &heldTerminal{fakeTerminal: newFakeTerminal(idleScreen()), entered: make(chan struct{}, 1)}
	c, decisions := startUnnotified(t, clock, term)
	clock.Advance(30 * time.Second)
	waitDecision(t, decisions, "cycle 1 starts")
	outputWhileBusy(c, []byte(chunkText))
	if _, err := c.Status(1); err != nil { // feeds the output: the screen is stale
		t.Fatal(err)
	}
	release := term.holdNext()
	clock.Advance(time.Second) // inter_step_delay: the screen is read again
	select {
	case <-term.entered:
	case <-time.After(5 * time.Second):
		t.Fatal("no snapshot was taken before the step")
	}
	// A question is drawn after the snapshot was taken, before it arrives.
	term.show(questionScreen())
	outputWhileBusy(c, []byte("\x1b[H"+strings.Join(questionScreen(), "\r\n")))
	close(release)
	waitDecision(t, decisions, "update not typed: a person must answer: question")
	c.Stop()
	if len(term.calls) != 0 {
		t.Fatalf("typed %v", term.calls)
	}
}

// quietTerminal never answers a snapshot until the controller stops, so
// that no worker result can feed pending output before a request does.
type quietTerminal struct{ *fakeTerminal }

func (q quietTerminal) Snapshot(ctx context.Context) (Screen, error) {
	<-ctx.Done()
	return Screen{}, ctx.Err()
}

func TestGuard_ControllerFeedsBeforeRequest(t *testing.T) {
	defer goleak.VerifyNone(t)
	clock := clockwork.NewFakeClock()
	c, _ := startUnnotified(t, clock, quietTerminal{newFakeTerminal(idleScreen())})
	outputWhileBusy(c, []byte(chunkCompletion))
	st, err := c.Status(1)
	if err != nil {
		t.Fatal(err)
	}
	if st.State != ConfirmingIdle.String() {
		t.Fatalf("state = %s after a completion line, want %s", st.State, ConfirmingIdle)
	}
	c.Stop()
}
