package respawn

import (
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/claudescreen"
)

// hookLimitAgent is Claude Code's reader with hooks that carry a usage
// limit's whole message, as Codex's failed PostModelRequest does.
type hookLimitAgent struct{ Agent }

func (a hookLimitAgent) HookUsageLimit(msg string, now time.Time) (UsageLimitError, bool) {
	if !strings.HasPrefix(msg, "You've hit your") {
		return UsageLimitError{}, false
	}
	return a.FindUsageLimit(msg, now)
}

// A limit whose screen line names no time that can be read; the hook's
// message names 8:00pm UTC, two hours after the harness starts.
const (
	limitNoTime   = "You've hit your 5-hour limit · resets soon"
	limitHookText = "You've hit your 5-hour limit · resets 8:00pm (UTC)"
)

func noTimeLimitScreen() []string {
	return claudescreen.Of("❯ go on", "  ⎿  "+limitNoTime, "", claudescreen.Rule, claudescreen.Prompt, claudescreen.Rule, claudescreen.FooterIdle)
}

// limitNoTimeHarness: a turn that ends on a limit whose screen line names
// no reset time, read by an agent whose hooks carry the limit's message.
func limitNoTimeHarness(t *testing.T) *harness {
	t.Helper()
	start := time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	h := &harness{t: t, c: NewCore("tmux:/tmp/test:%1", testConfig(), hookLimitAgent{claudeReader}), start: start, screen: idleScreen()}
	h.vt = &Virtual{Core: h.c, Now: start, Do: h.do}
	h.c.Start(start)
	h.perform()
	h.work(5 * time.Second)
	h.draw(noTimeLimitScreen())
	return h
}

// The failed turn's hook carries the limit's whole message: its reset
// time is waited for when the screen's line names none.
func TestCore_LimitResetFromHook(t *testing.T) {
	h := limitNoTimeHarness(t)
	h.hook(HookTurnFailed, func(k *Hook) { k.Error = limitHookText })
	h.advance(time.Minute)
	h.wantDecision("waiting out usage limit until 20:01:00: " + limitNoTime)
	h.wantDecision("reset time is the failed turn's hook's")
	h.until(time.Date(2026, 11, 29, 20, 0, 30, 0, time.UTC))
	h.wantSends()
	h.until(time.Date(2026, 11, 29, 20, 1, 30, 0, time.UTC))
	h.wantSends("submit: continue")
	// The limit is over: the hook's old message starts no second wait.
	h.hook(HookPromptSubmitted)
	h.work(5 * time.Second)
	h.finishTurn()
	h.untilState(SendingUpdate)
}

// The failed turn's hook names a usage limit the screen does not show:
// its message is the limit's line, waited out until its reset rather than
// taken for an API error and its short backoff.
func TestCore_LimitFromHookAlone(t *testing.T) {
	h := limitNoTimeHarness(t)
	h.draw(idleScreen())
	h.hook(HookTurnFailed, func(k *Hook) { k.Error = limitHookText })
	h.advance(time.Minute)
	h.wantDecision("waiting out usage limit until 20:01:00: " + limitHookText)
	h.until(time.Date(2026, 11, 29, 20, 0, 30, 0, time.UTC))
	h.wantSends()
}

// The wait ends (its reset time was unknown when it began), but the limit
// is still the latest turn's and its reset, known by now, lies ahead: the
// core waits again until then instead of typing into a session still
// limited.
func TestCore_LimitStillAheadWaitsAgain(t *testing.T) {
	h := limitNoTimeHarness(t)
	h.advance(time.Minute)
	h.wantDecision("the usage limit names no reset time: waiting 1h0m0s")
	// The hook comes late, after the wait began.
	h.hook(HookTurnFailed, func(k *Hook) { k.Error = limitHookText })
	h.until(time.Date(2026, 11, 29, 19, 30, 0, 0, time.UTC))
	h.wantSends()
	h.wantDecision("usage limit still in the latest turn, its reset at 20:00:00 still ahead")
	h.until(time.Date(2026, 11, 29, 20, 0, 30, 0, time.UTC))
	h.wantSends()
	h.until(time.Date(2026, 11, 29, 20, 1, 30, 0, time.UTC))
	h.wantSends("submit: continue")
}

// A limit that names no reset time anywhere: the resume prompt tries after
// an hour, and each time its turn meets the same limit again the next try
// waits twice as long, up to usageLimitFallbackMax; the decisions say so.
func TestCore_LimitWithoutResetBacksOff(t *testing.T) {
	h := newHarness(t, testConfig())
	h.work(5 * time.Second)
	h.draw(noTimeLimitScreen())
	start := h.vt.Now
	var at []time.Duration
	for len(at) < 6 && h.vt.Now.Sub(start) < 40*time.Hour {
		h.advance(10 * time.Second)
		if n := len(h.sent); n > len(at) {
			at = append(at, h.vt.Now.Sub(start).Truncate(time.Minute))
			// The resume's turn meets the limit again.
			h.work(2 * time.Second)
			h.draw(noTimeLimitScreen())
		}
	}
	for _, s := range h.sent {
		if s.step != StepResume {
			t.Fatalf("%s typed into a session still limited\n%s", s.what, h.dump())
		}
	}
	// 1h, then 2h, 4h, 8h and 8h after each meeting of the limit (plus the
	// margin and the turn's confirmation each time).
	want := []time.Duration{time.Hour, 3 * time.Hour, 7 * time.Hour, 15 * time.Hour, 23 * time.Hour, 31 * time.Hour}
	if len(at) != len(want) {
		t.Fatalf("resume prompts at %v, want %d of them\n%s", at, len(want), h.dump())
	}
	for i := range want {
		if d := at[i] - want[i]; d < 0 || d > time.Duration(i+1)*2*time.Minute {
			t.Errorf("resume %d at %v, want just after %v", i+1, at[i], want[i])
		}
	}
	h.wantDecision("the usage limit names no reset time: waiting 2h0m0s, after 1 resume prompts that met it again")
	h.wantDecision("the usage limit names no reset time: waiting 8h0m0s, after 4 resume prompts")
	h.wantDecision("resume after usage limit that named no reset time, after 1h0m0s; should it still hold, the next wait is 2h0m0s")
}

// A turn without a limit forgets the resume prompts that met one: the next
// limit without a reset time is waited out for an hour again.
func TestCore_LimitBackoffForgotten(t *testing.T) {
	h := newHarness(t, testConfig())
	h.work(5 * time.Second)
	h.draw(noTimeLimitScreen())
	h.advance(time.Hour + 2*time.Minute)
	h.wantSends("submit: continue")
	h.work(2 * time.Second)
	h.draw(noTimeLimitScreen())
	h.advance(time.Minute)
	h.wantDecision("waiting 2h0m0s")
	for end := h.vt.Now.Add(3 * time.Hour); len(h.sent) < 2 && h.vt.Now.Before(end); {
		h.advance(10 * time.Second)
	}
	h.wantSends("submit: continue", "submit: continue")
	h.work(5 * time.Second) // the limit is over: the resume's turn ends well
	h.finishTurn()
	h.untilCycleEnds(1)
	h.work(5 * time.Second)
	h.draw(noTimeLimitScreen())
	since := h.vt.Now
	h.advance(time.Minute)
	for _, d := range h.log {
		if d.At.After(since) && strings.Contains(d.Reason, "names no reset time") && !strings.Contains(d.Reason, "waiting 1h0m0s, after 0 resume prompts") {
			t.Fatalf("backoff kept after a turn without a limit: %s\n%s", d, h.dump())
		}
	}
	h.wantDecision("waiting 1h0m0s, after 0 resume prompts")
}
