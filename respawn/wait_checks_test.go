package respawn

import (
	"testing"
	"time"
)

// Waiting out a usage limit asks no AI checks: the wait decides when the
// pane goes on, and each check is a paid model call. (Every check asked is
// answered IDLE at once.)
func TestCore_NoAIChecksWhileWaiting(t *testing.T) {
	h := newHarness(t, aiConfig())
	h.work(5 * time.Second)
	h.screen = limitScreen()
	h.output("You've hit your 5-hour limit · resets 8:00pm (UTC)")
	h.hook(HookTurnFailed, func(k *Hook) { k.Error = "rate_limit" })
	asked := 0
	for end := h.vt.Now.Add(90 * time.Minute); h.vt.Now.Before(end); {
		h.advance(5 * time.Second)
		for len(h.checks) > 0 {
			asked++
			h.answer(CheckResult{Verdict: VerdictIdle}, nil)
		}
	}
	h.wantDecision("waiting out usage limit")
	if asked > 1 {
		t.Fatalf("%d AI checks asked while a usage limit was waited out, want at most the one that found it\n%s", asked, h.dump())
	}
	h.wantSends()
}
