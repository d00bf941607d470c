package respawn

import (
	"testing"
	"time"

	"pgregory.net/rapid"
)

// For any interleaving of working output, other output, finished turns and
// silence, nothing is typed while working output arrived within the last
// completion_confirm.
func TestCore_NoSendWhileWorking(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		cfg := testConfig()
		cfg.AIIdleCheck.Enabled = rapid.Bool().Draw(rt, "ai")
		h := newHarness(rt, cfg)
		type work struct {
			at    time.Time
			sends int // sends before this output, to order events at one instant
		}
		var working []work
		steps := rapid.IntRange(1, 40).Draw(rt, "steps")
		for i := 0; i < steps; i++ {
			switch rapid.IntRange(0, 3).Draw(rt, "event") {
			case 0: // a burst of spinner frames
				h.screen = workingScreen()
				for n := rapid.IntRange(1, 50).Draw(rt, "frames"); n > 0; n-- {
					h.output(chunkWorking)
					working = append(working, work{h.vt.Now, len(h.sent)})
					h.advance(200 * time.Millisecond)
				}
			case 1: // reply text streams: only the footer says busy
				h.screen = workingScreen()
				h.output(chunkText)
			case 2:
				h.finishTurn()
			case 3:
				h.advance(time.Duration(rapid.IntRange(1, 90).Draw(rt, "silence")) * time.Second)
			}
			// Checks answer IDLE at once, as the worst case for this property.
			for len(h.checks) > 0 {
				h.answer(CheckResult{Verdict: VerdictIdle}, nil)
			}
		}
		for i, s := range h.sent {
			at := h.start.Add(s.at)
			for _, w := range working {
				if w.sends <= i && at.Sub(w.at) < cfg.CompletionConfirm {
					rt.Fatalf("%q typed at %s, %s after working output\n%s", s.what, s.at, at.Sub(w.at), h.dump())
				}
			}
		}
	})
}
