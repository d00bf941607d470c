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

// blockingTerminal's Submit types its text and then waits for its Enter
// until released or cancelled, as a Submit in its send pause does.
type blockingTerminal struct {
	*fakeTerminal
	typing  chan struct{} // a Submit is under way
	release chan struct{}

	mu      sync.Mutex
	entered []string // texts whose Enter was pressed
}

func (b *blockingTerminal) Submit(ctx context.Context, text string) error {
	b.typing <- struct{}{}
	select {
	case <-ctx.Done():
		return ctx.Err() // before its Enter: Submit takes its text back
	case <-b.release:
	}
	b.mu.Lock()
	b.entered = append(b.entered, text)
	b.mu.Unlock()
	return nil
}

// A pause that comes while a step is being typed cancels it: Pause
// returns only once the send has stopped, no Enter is pressed after it,
// the state does not move on, and on resume the step is typed once.
func TestGuard_PauseCancelsSend(t *testing.T) {
	defer goleak.VerifyNone(t)
	clock := clockwork.NewFakeClock()
	term := &blockingTerminal{fakeTerminal: newFakeTerminal(idleScreen()), typing: make(chan struct{}, 4), release: make(chan struct{})}
	c := NewController(ControllerOptions{Pane: "p", Config: testConfig(), Agent: claudeReader, Terminal: term, Clock: clock})
	decisions, cancel := c.Subscribe()
	defer cancel()
	c.Start(context.Background())
	defer c.Stop()
	waitDecision(t, decisions, "started")
	clock.Advance(30 * time.Second)
	waitDecision(t, decisions, "cycle 1 starts")
	clock.Advance(time.Second) // inter_step_delay
	waitDecision(t, decisions, "send update")
	<-term.typing
	if err := c.Pause(); err != nil {
		t.Fatal(err)
	}
	close(term.release) // a late Enter would land now
	st, err := c.Status(20)
	if err != nil {
		t.Fatal(err)
	}
	if st.State != SendingUpdate.String() || !st.Paused {
		t.Fatalf("state %s (paused %t) after the pause, want sending_update, paused", st.State, st.Paused)
	}
	clock.Advance(time.Hour)
	term.mu.Lock()
	entered := len(term.entered)
	term.mu.Unlock()
	if entered != 0 {
		t.Fatalf("Enter pressed after the pause returned: %q", term.entered)
	}
	if err := c.Resume(); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Second) // inter_step_delay
	waitDecision(t, decisions, "update typed")
	term.mu.Lock()
	defer term.mu.Unlock()
	if len(term.entered) != 1 {
		t.Fatalf("typed %q after the resume, want the update prompt once", term.entered)
	}
	st, _ = c.Status(50)
	for _, d := range st.Decisions {
		if strings.Contains(d.Reason, "failed") {
			t.Fatalf("the stopped send counted as a failure: %s", d)
		}
	}
}

// A send whose Enter went out before the pause took effect counts as
// typed: the step's turn is waited for on resume, and nothing is typed
// twice. Hooks and output while paused move nothing.
func TestGuard_PauseFreezesState(t *testing.T) {
	h := cycleUntil(t, testConfig(), SendingClear)
	h.holdSends = true
	h.untilState(SendingClear)
	h.untilInflight()
	h.c.Pause(h.vt.Now)
	h.perform()
	h.finishSend(nil) // its Enter had gone out
	h.wantState(WaitingClear)
	if at, ok := h.c.Deadline(); ok {
		t.Fatalf("deadline %s while paused\n%s", at.Sub(h.start), h.dump())
	}
	h.advance(100 * time.Millisecond)
	h.hook(HookClearFinished)
	h.output(chunkText)
	h.advance(time.Hour)
	h.wantState(WaitingClear)
	typed := len(h.sent)
	h.c.Resume(h.vt.Now)
	h.perform()
	h.holdSends = false
	h.untilState(WaitingInit)
	if got := h.sends()[typed:]; len(got) != 0 && got[0] != "submit: /init" {
		t.Fatalf("typed %q after the resume, want /init next", got)
	}
	h.wantDecision("/clear finished while paused (SessionStart hook)")
}

// A Stop hook that arrives while the step is still being typed (the Enter
// is confirmed late on a loaded machine) ends the step's turn after the
// short hook silence, not completion_confirm: its turn was seen to begin.
func TestCore_StopWhileTyping(t *testing.T) {
	h := cycleUntil(t, testConfig(), SendingUpdate)
	h.holdSends = true
	h.untilInflight()
	h.advance(100 * time.Millisecond)
	h.hook(HookPromptSubmitted)
	h.work(time.Second)
	h.finishTurn()
	h.hook(HookStop)
	stop := h.vt.Now
	h.finishSend(nil)
	h.holdSends = false
	h.untilState(SendingClear)
	if took := h.vt.Now.Sub(stop); took > hookConfirmDelay+100*time.Millisecond {
		t.Fatalf("the update step ended %s after its Stop hook, want %s\n%s", took, hookConfirmDelay, h.dump())
	}
}

// /clear's SessionStart hook that comes before its Enter was confirmed
// ends the step as soon as the send is done, not at the 10 s fallback.
func TestCore_ClearHookBeforeEnterConfirmed(t *testing.T) {
	h := cycleUntil(t, testConfig(), SendingClear)
	h.holdSends = true
	h.untilInflight()
	h.advance(100 * time.Millisecond)
	h.hook(HookClearFinished)
	h.advance(300 * time.Millisecond)
	h.finishSend(nil)
	h.wantState(SendingInit)
	h.wantDecision("/clear finished (SessionStart hook) before its Enter was confirmed")
}

// Frames the finished step draws after the hook that ended it (Claude's
// "running SessionEnd hooks…" spinner after /clear, late on a loaded
// machine) do not abandon the cycle: /init is typed once they are
// completion_confirm old. Work a hook reports does.
func TestCore_LateFramesAfterStep(t *testing.T) {
	t.Run("spinner_frame", func(t *testing.T) {
		h := cycleUntil(t, testConfig(), WaitingClear)
		h.advance(200 * time.Millisecond)
		h.hook(HookClearFinished)
		h.wantState(SendingInit)
		h.advance(300 * time.Millisecond)
		h.output(chunkWorking) // the late frame; the screen is idle again
		h.untilState(WaitingInit)
		if s := h.sends(); s[len(s)-1] != "submit: /init" {
			t.Fatalf("sent %q, want /init last\n%s", s, h.dump())
		}
		h.wantDecision("taken as its last frames")
	})
	t.Run("prompt_hook", func(t *testing.T) {
		h := cycleUntil(t, testConfig(), WaitingClear)
		h.advance(200 * time.Millisecond)
		h.hook(HookClearFinished)
		h.advance(300 * time.Millisecond)
		h.hook(HookPromptSubmitted) // a person typed: a new turn
		h.wantState(Watching)
	})
}

// A decision that waited for a screen when the pause came is not taken
// when that screen arrives: the step is typed only after the resume.
func TestGuard_PauseWhileScreenInFlight(t *testing.T) {
	h := cycleUntil(t, testConfig(), SendingUpdate)
	h.holdScreens = true
	h.output(chunkText) // the screen read before typing is then a new one
	for i := 0; h.snapshots == 0; i++ {
		if i > 100 {
			t.Fatalf("no screen asked for before the step\n%s", h.dump())
		}
		h.advance(100 * time.Millisecond)
	}
	h.c.Pause(h.vt.Now)
	h.perform()
	h.deliverScreens()
	h.advance(time.Minute)
	if len(h.sent) != 0 {
		t.Fatalf("typed %q while paused\n%s", h.sends(), h.dump())
	}
	h.holdScreens = false
	h.c.Resume(h.vt.Now)
	h.perform()
	h.untilState(WaitingUpdate)
}

// untilInflight advances until a send is in flight, for at most a minute.
func (h *harness) untilInflight() {
	h.t.Helper()
	for end := h.vt.Now.Add(time.Minute); len(h.inflight) == 0; h.advance(100 * time.Millisecond) {
		if h.vt.Now.After(end) {
			h.t.Fatalf("nothing was typed\n%s", h.dump())
		}
	}
}
