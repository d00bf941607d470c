package respawn

import (
	"fmt"
	"testing"
	"time"
)

// tickUntil redraws the footer's status line every second, as a
// statusLine command with refreshInterval 1 that prints the time does,
// until done or an hour has passed.
func (h *harness) tickUntil(done func() bool) {
	h.t.Helper()
	for end := h.vt.Now.Add(time.Hour); !done(); {
		if h.vt.Now.After(end) {
			h.t.Fatalf("not done after an hour of a ticking status line\n%s", h.dump())
		}
		h.redraw("  " + h.vt.Now.Format("15:04:05"))
		h.advance(time.Second)
	}
}

// A status line that redraws every second does not stop the pane from
// being silent: with the Stop hook, and with the screen alone, the whole
// cycle runs while the clock ticks.
func TestCore_TickingStatusLine(t *testing.T) {
	for _, tc := range []struct {
		name   string
		hooked bool
		by     time.Duration // the update prompt is typed this long after the turn
	}{
		// Nothing is typed within completion_confirm of work, hook or not.
		{"stop_hook", true, DefaultCompletionConfirm + DefaultInterStepDelay + time.Second},
		{"screen_only", false, DefaultCompletionConfirm + DefaultInterStepDelay + time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, testConfig())
			h.work(5 * time.Second)
			h.finishTurn()
			if tc.hooked {
				h.hook(HookStop)
			}
			ended := h.vt.Now
			h.tickUntil(func() bool { return len(h.sent) > 0 })
			if at := h.start.Add(h.sent[0].at); at.Sub(ended) > tc.by {
				t.Errorf("update prompt typed %s after the turn, want within %s\n%s", at.Sub(ended), tc.by, h.dump())
			}
			h.tickUntil(func() bool { return h.c.Cycles() == 1 && h.c.State() == Watching })
			h.wantSends(fullCycle...)
			h.wantDecision("but for rows that redraw by themselves")
		})
	}
}

// Output that changes what the screen shows outside the footer is no
// status line: it holds the step's end as before, though it carries no
// working pattern.
func TestGuard_RedrawIsNoSilence(t *testing.T) {
	h := cycleUntil(t, testConfig(), WaitingUpdate)
	for i := range 30 {
		h.redraw(fmt.Sprintf("  tick %d", i))
		h.output(chunkText)
		h.advance(time.Second)
	}
	h.wantState(WaitingUpdate)
}

// A pre-filter deadline that comes while output no screen has been
// compared for yet waits for a screen, and then for completion_confirm
// from that output (here the text at 9 s).
func TestGuard_PreFilterRecheckedAfterScreen(t *testing.T) {
	cfg := testConfig()
	cfg.AutoAcceptPrompts = false // its screens would move the silence too
	cfg.AIIdleCheck.Enabled = true
	h := newHarness(t, cfg)
	h.output(chunkText)
	h.advance(9 * time.Second)
	h.output(chunkText)
	h.advance(9900 * time.Millisecond)
	if len(h.checks) != 0 {
		t.Fatalf("AI check asked %s after the last output\n%s", 9900*time.Millisecond, h.dump())
	}
	h.advance(200 * time.Millisecond)
	h.wantState(AIChecking)
}
