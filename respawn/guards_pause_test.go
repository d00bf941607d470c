package respawn

import (
	"testing"
	"time"
)

// While paused nothing is typed, and nothing the pane does moves the core
// toward typing: no confirmation starts and no cycle goes on.
func TestGuard_Pause(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(h *harness) // before the pause
		event func(h *harness) // while paused
		state State            // the state while paused
	}{
		{"before_step", func(h *harness) {
			h.finishTurn()
			h.untilState(SendingUpdate)
		}, func(*harness) {}, SendingUpdate},
		{"clear_finished", func(h *harness) {
			h.finishTurn()
			h.untilState(WaitingClear)
		}, func(h *harness) { h.hook(HookClearFinished) }, WaitingClear},
		{"work_before_step", func(h *harness) {
			h.finishTurn()
			h.untilState(SendingUpdate)
		}, func(h *harness) { h.work(time.Second) }, SendingUpdate},
		{"output", func(*harness) {}, func(h *harness) {
			h.screen = idleScreen()
			h.output(chunkText)
		}, Watching},
		{"stop_hook", func(*harness) {}, func(h *harness) {
			h.screen = idleScreen()
			h.hook(HookStop)
		}, Watching},
		{"completion_line", func(*harness) {}, func(h *harness) { h.finishTurn() }, Watching},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, testConfig())
			h.work(5 * time.Second)
			tc.setup(h)
			typed, cycles := len(h.sent), h.c.Cycles()
			h.c.Pause(h.vt.Now)
			h.perform()
			tc.event(h)
			if at, ok := h.c.Deadline(); ok {
				// Nothing but the duration (unset here) may wake a paused loop.
				t.Fatalf("deadline %s while paused\n%s", at.Sub(h.start), h.dump())
			}
			h.advance(time.Hour)
			if len(h.sent) != typed {
				t.Fatalf("typed %v while paused\n%s", h.sends()[typed:], h.dump())
			}
			if h.c.Cycles() != cycles {
				t.Fatalf("a cycle started while paused\n%s", h.dump())
			}
			h.wantState(tc.state)
		})
	}
}
