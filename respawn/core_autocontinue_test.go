package respawn

import (
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/claudescreen"
)

// limitReset is the reset time of claudescreen's limit screens.
var limitReset = time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC)

// limitedHarnessShowing returns a core that waits out the limit of screen,
// hit at 18:00:05.
func limitedHarnessShowing(t *testing.T, screen []string) *harness {
	t.Helper()
	h := newHarness(t, testConfig())
	h.work(5 * time.Second)
	h.draw(screen)
	h.hook(HookTurnFailed, func(k *Hook) { k.Error = "rate_limit" })
	h.advance(time.Minute)
	h.wantDecision("waiting out usage limit until 20:01:00")
	return h
}

// advanceTo moves the harness's clock to at.
func advanceTo(h *harness, at time.Time) { h.advance(at.Sub(h.vt.Now)) }

// resumesTyped counts the resume prompts typed so far.
func resumesTyped(h *harness) int {
	n := 0
	for _, s := range h.sends() {
		if s == "submit: "+h.c.cfg.ResumePrompt {
			n++
		}
	}
	return n
}

// claudeContinues plays Claude Code's own continue at at: its
// quota_auto_resume_fired notification and UserPromptSubmit (both read as
// a prompt submitted), a second of work, the finished turn and its Stop.
func claudeContinues(h *harness, at time.Time, hooks bool) {
	advanceTo(h, at)
	if hooks {
		h.hook(HookPromptSubmitted, func(k *Hook) { k.Event = "Notification" })
		h.hook(HookPromptSubmitted, func(k *Hook) { k.Event = "UserPromptSubmit" })
	}
	h.draw(claudescreen.AutoContinueWorking())
	h.advance(time.Second)
	h.draw(claudescreen.AutoContinuedTurn())
	if hooks {
		h.hook(HookStop)
	}
}

// Claude Code's own continue fires 30 to 90 s after the reset, after
// codeman's wait (reset + usage_limit_margin) ended: the screen says it is
// armed, so codeman types nothing and leaves the resume to it; once that
// turn is done the pane is cycled as usual.
func TestCore_AutoContinueArmedLeftToClaude(t *testing.T) {
	for _, tc := range []struct {
		name  string
		hooks bool
	}{{"hooks", true}, {"screen_only", false}} {
		t.Run(tc.name, func(t *testing.T) {
			h := limitedHarnessShowing(t, claudescreen.Armed(claudescreen.ArmedAt))
			advanceTo(h, limitReset)
			h.draw(claudescreen.Armed(claudescreen.ArmedShortly))
			advanceTo(h, limitReset.Add(61*time.Second))
			h.wantDecision("Claude Code's own continue is armed")
			h.wantSends()
			claudeContinues(h, limitReset.Add(73*time.Second), tc.hooks)
			h.advance(30 * time.Second) // without hooks the screen tells, read again after the turn's silence
			h.wantDecision("usage limit over: Claude continued by itself")
			advanceTo(h, limitReset.Add(10*time.Minute))
			if n := resumesTyped(h); n != 0 {
				t.Fatalf("%d resume prompts typed after Claude continued by itself\n%s", n, h.dump())
			}
			if got := h.sends(); len(got) == 0 || got[0] != "submit: "+DefaultUpdatePrompt {
				t.Fatalf("sends %q, want the cycle after Claude's own turn\n%s", got, h.dump())
			}
		})
	}
}

// Claude continued (or a person did) before codeman's wait ended, and the
// turn is over: the turn it ran is evidence enough, and no resume prompt
// follows.
func TestCore_ContinuedBeforeWaitEnds(t *testing.T) {
	typed := claudescreen.Of("❯ keep going", claudescreen.LimitHit, "", "❯ do the docs instead", "● Done.", "✻ Baked for 2s · done 8:00 PM",
		"", claudescreen.Rule, claudescreen.Prompt, claudescreen.Rule, claudescreen.FooterIdle)
	for _, tc := range []struct {
		name string
		play func(h *harness)
		want string // the decision that ends the wait
	}{
		{"prompt_hook", func(h *harness) { h.hook(HookPromptSubmitted); h.finishTurn() }, "Claude continued by itself (prompt submitted"},
		{"tool_hook", func(h *harness) { h.hook(HookToolStarted, func(k *Hook) { k.Tool = "Bash" }) }, "Claude continued by itself (tool Bash started"},
		{"stop_hook", func(h *harness) { h.hook(HookStop) }, "Claude continued by itself (Stop hook)"},
		{"working_screen", func(h *harness) { h.draw(claudescreen.AutoContinueWorking()); h.c.Tick(h.vt.Now); h.perform() }, "Claude continued by itself"},
		{"fired_notice_on_screen", func(h *harness) { h.draw(claudescreen.AutoContinuedTurn()) }, "Claude continued by itself (screen shows Claude Code's own continue)"},
		// No hooks: a prompt echoed after the limit's lines says the
		// session went on; found when the wait ends.
		{"prompt_echo_no_hooks", func(h *harness) { h.draw(typed) }, "the limit is no longer in the latest turn"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := limitedHarnessShowing(t, claudescreen.Armed(claudescreen.ArmedAt))
			advanceTo(h, limitReset.Add(2*time.Second))
			tc.play(h)
			advanceTo(h, limitReset.Add(2*time.Minute))
			h.wantDecision(tc.want)
			advanceTo(h, limitReset.Add(10*time.Minute))
			if n := resumesTyped(h); n != 0 {
				t.Fatalf("%d resume prompts typed after Claude continued\n%s", n, h.dump())
			}
		})
	}
}

// A hook made before the wait began is no evidence that Claude continued:
// it is the failed turn's own.
func TestCore_OldHookDoesNotEndWait(t *testing.T) {
	h := limitedHarnessShowing(t, claudescreen.Armed(claudescreen.ArmedAt))
	early := h.vt.Now.Add(-30 * time.Second)
	h.hook(HookPromptSubmitted, func(k *Hook) { k.At = early })
	if !h.c.wait.active() {
		t.Fatalf("a prompt hook from before the wait ended it\n%s", h.dump())
	}
}

// The continue stayed armed past autoContinueGrace (it is reported not to
// fire in some sessions): the resume prompt is typed once, which disarms
// Claude Code's.
func TestCore_AutoContinueLost(t *testing.T) {
	h := limitedHarnessShowing(t, claudescreen.Armed(claudescreen.ArmedAt))
	advanceTo(h, limitReset)
	h.draw(claudescreen.Armed(claudescreen.ArmedShortly))
	grace := limitReset.Add(autoContinueGrace) // the wait began before the reset
	advanceTo(h, grace.Add(-time.Second))
	h.wantSends()
	advanceTo(h, grace.Add(time.Second))
	h.wantDecision("taken as lost")
	h.wantSends("submit: continue")
	h.work(3 * time.Second)
	h.finishTurn()
	advanceTo(h, grace.Add(10*time.Minute))
	if n := resumesTyped(h); n != 1 {
		t.Fatalf("%d resume prompts, want 1\n%s", n, h.dump())
	}
}

// When the screen says Claude Code will not continue by itself, the
// resume prompt is typed at reset + usage_limit_margin, as for a CLI
// without the feature.
func TestCore_AutoContinueNotComing(t *testing.T) {
	for _, tc := range []struct {
		name   string
		screen []string
	}{
		{"cancelled", claudescreen.Of("❯ keep going", claudescreen.LimitHit, "     /upgrade to increase your usage limit.", claudescreen.LimitBanner,
			"● Automatic continue cancelled · /rate-limit-options to wait again", "", claudescreen.Rule, claudescreen.Prompt, claudescreen.Rule, claudescreen.FooterIdle)},
		{"cancelled_2_1_328", claudescreen.Of("❯ keep going", claudescreen.LimitHit, "     /upgrade to increase your usage limit.",
			"● Usage limit reached · continuing automatically at 8pm · esc to cancel",
			"● Automatic continue cancelled · /rate-limit-options to re-arm", "", claudescreen.Rule, claudescreen.Prompt, claudescreen.Rule, claudescreen.FooterIdle)},
		{"stale", claudescreen.Of("❯ keep going", claudescreen.LimitHit, claudescreen.LimitBanner, "● Usage limit has reset · Press enter to continue",
			"", claudescreen.Rule, claudescreen.Prompt, claudescreen.Rule, "  ⚠ Your usage limit has reset", "    Press enter to continue", claudescreen.FooterIdle)},
		{"older_cli", limitScreen()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := limitedHarnessShowing(t, tc.screen)
			advanceTo(h, limitReset.Add(59*time.Second))
			h.wantSends()
			advanceTo(h, limitReset.Add(61*time.Second))
			h.wantSends("submit: continue")
		})
	}
}

// With its own continue off, Claude Code 2.1.332 asks what to do at a
// 5-hour limit (as every version does at a weekly one): a menu a person
// answers, before and after the reset.
func TestCore_LimitMenuLeftAlone(t *testing.T) {
	menu := claudescreen.Of("❯ keep going", claudescreen.LimitHit, strings.Repeat("▔", 80), "  What do you want to do?", "",
		"  ❯ 1. Stop and wait for limit to reset", "    2. Wait here, then continue automatically at 8pm",
		"    3. Upgrade your plan", "", "  Enter to confirm · Esc to cancel")
	h := newHarness(t, testConfig())
	h.work(5 * time.Second)
	h.draw(menu)
	h.hook(HookTurnFailed, func(k *Hook) { k.Error = "rate_limit" })
	advanceTo(h, limitReset.Add(2*time.Hour))
	h.wantSends()
	h.wantDecision("a person must answer: dialog (limit_menu)")
}

// Claude Code continued by itself and hit the same limit again: the line
// reads as the one waited out, but the failed turn makes it a new wait,
// not a cycle.
func TestCore_SameLimitAgainAfterAutoContinue(t *testing.T) {
	h := limitedHarnessShowing(t, claudescreen.Armed(claudescreen.ArmedAt))
	advanceTo(h, limitReset.Add(40*time.Second))
	h.hook(HookPromptSubmitted, func(k *Hook) { k.Event = "Notification" })
	h.work(time.Second)
	again := claudescreen.Of("❯ keep going", claudescreen.LimitHit, claudescreen.LimitBanner, claudescreen.AutoContinued,
		"● Usage limit reached again · set to continue automatically at 8pm", "", claudescreen.Rule, claudescreen.Prompt, claudescreen.Rule,
		claudescreen.LimitNotice, claudescreen.ArmedShortly, claudescreen.FooterIdle)
	h.draw(again)
	h.hook(HookTurnFailed, func(k *Hook) { k.Error = "rate_limit" })
	advanceTo(h, limitReset.Add(6*time.Minute))
	h.wantSends()
	if !h.c.wait.active() {
		t.Fatalf("no wait after the limit was hit again\n%s", h.dump())
	}
}
