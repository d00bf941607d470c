package respawn

import (
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/claudescreen"
)

// waitEnds is when the wait for limitScreen's limit ends: the reset at
// 20:00 UTC plus usage_limit_margin.
var waitEnds = time.Date(2026, 11, 29, 20, 1, 0, 0, time.UTC)

// limitedHarness returns a core waiting out the limit of limitScreen.
func limitedHarness(t *testing.T, cfg Config) *harness {
	t.Helper()
	h := newHarness(t, cfg)
	h.work(5 * time.Second)
	h.draw(limitScreen())
	h.advance(time.Minute)
	h.wantDecision("waiting out usage limit until 20:01:00")
	return h
}

func (h *harness) until(at time.Time) { h.advance(at.Sub(h.vt.Now)) }

// resumes returns the resume prompts typed from at on.
func (h *harness) resumes(at time.Time) int {
	n := 0
	for _, s := range h.sentSince(at) {
		if s.step == StepResume {
			n++
		}
	}
	return n
}

// A turn that ended on a usage limit or an API error starts no cycle: it is
// waited out, then the resume prompt is typed once.
func TestGuard_LimitWaitedOut(t *testing.T) {
	apiError := claudescreen.Of("❯ go on", "● API Error: 529 Overloaded (fake).", "", claudescreen.Rule, "❯\u00a0Resend your message to try again", claudescreen.Rule, claudescreen.FooterIdle)
	for _, tc := range []struct {
		name  string
		end   func(h *harness)
		until time.Time // the wait's end
	}{
		{"usage_limit_screen", func(h *harness) { h.draw(limitScreen()) }, waitEnds},
		{"api_error_screen", func(h *harness) { h.draw(apiError) }, time.Date(2026, 11, 29, 18, 5, 35, 0, time.UTC)},
		{"failed_turn_hook", func(h *harness) {
			h.finishTurn()
			h.hook(HookTurnFailed, func(k *Hook) { k.Error = "server_error" })
		}, time.Date(2026, 11, 29, 18, 5, 15, 0, time.UTC)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, testConfig())
			h.work(5 * time.Second)
			tc.end(h)
			h.until(tc.until.Add(-time.Second))
			h.wantSends()
			h.wantDecision("no cycle")
			h.until(tc.until.Add(time.Second))
			h.wantSends("submit: continue")
		})
	}
}

// The resume prompt is typed at the end of a wait only when the screen, read
// again then, shows Claude's prompt box, empty, with nothing working, no
// dialog and no new limit, and resume_prompt is set.
func TestGuard_Resume(t *testing.T) {
	// A second before the end, with auto-accept off, nothing but the
	// resume reads the changed screen.
	before := waitEnds.Add(-time.Second)
	for _, tc := range []struct {
		name   string
		cfg    func(*Config)
		change func(h *harness) // at waitEnds - 1s
		want   int              // resume prompts typed
	}{
		{"nothing_changed", nil, func(*harness) {}, 1},
		{"question_drawn", nil, func(h *harness) { h.draw(questionScreen()) }, 0},
		{"claude_working", nil, func(h *harness) { h.work(6 * time.Second) }, 0},
		{"question_hook", nil, func(h *harness) { h.hook(HookQuestionPending) }, 0},

		{"claude_exited", nil, func(h *harness) { h.draw(shellScreen()) }, 0},
		{"typed_text", nil, func(h *harness) {
			h.draw(claudescreen.Of("❯ go on", "  ⎿  You've hit your 5-hour limit · resets 8:00pm (UTC)", "", claudescreen.Rule, "❯\u00a0let me think about th", claudescreen.Rule, claudescreen.FooterIdle))
		}, 0},
		{"resume_prompt_off", func(c *Config) { c.ResumePrompt = "" }, func(*harness) {}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig()
			cfg.AutoAcceptPrompts = false
			if tc.cfg != nil {
				tc.cfg(&cfg)
			}
			h := limitedHarness(t, cfg)
			h.until(before)
			tc.change(h)
			h.until(waitEnds.Add(25 * time.Second))
			if got := h.resumes(before); got != tc.want {
				t.Fatalf("%d resume prompts typed, want %d\n%s", got, tc.want, h.dump())
			}
		})
	}
}

// A new usage limit on screen at the end of a wait is waited out in turn,
// until its own reset, and named.
func TestGuard_ResumeNewLimit(t *testing.T) {
	cfg := testConfig()
	cfg.AutoAcceptPrompts = false
	h := limitedHarness(t, cfg)
	h.until(waitEnds.Add(-time.Second))
	h.draw(claudescreen.Of("❯ go on", "  ⎿  You've hit your 5-hour limit · resets 8:00pm (UTC)", "", "❯ continue",
		"  ⎿  You've hit your weekly limit · resets 11:00pm (UTC)", "", claudescreen.Rule, claudescreen.Prompt, claudescreen.Rule, claudescreen.FooterIdle))
	h.until(waitEnds.Add(25 * time.Second))
	if got := h.resumes(waitEnds.Add(-time.Second)); got != 0 {
		t.Fatalf("%d resume prompts typed into a new limit\n%s", got, h.dump())
	}
	h.wantDecision("new usage limit: waiting out usage limit until 23:01:00: You've hit your weekly limit")
}

// Nothing is typed within completion_confirm of work at the end of a wait,
// even when the screen, read again, shows none: here a PostToolUse hook
// came two seconds before (its PreToolUse, which would have ended the wait,
// was lost).
func TestGuard_ResumeWaitsOutWork(t *testing.T) {
	h := limitedHarness(t, testConfig())
	h.until(waitEnds.Add(-2 * time.Second))
	h.hook(HookToolFinished, func(k *Hook) { k.Tool = "Bash" })
	worked := h.vt.Now
	h.until(waitEnds.Add(time.Minute))
	sent := h.sentSince(worked)
	if len(sent) == 0 || sent[0].step != StepResume {
		t.Fatalf("sent %v, want the resume prompt first\n%s", h.sends(), h.dump())
	}
	if at := h.start.Add(sent[0].at); at.Sub(worked) < h.c.cfg.CompletionConfirm {
		t.Fatalf("resume prompt typed %s after work\n%s", at.Sub(worked), h.dump())
	}
}

// A wait that ends while idle is being confirmed types no resume prompt:
// the confirmation decides, and a cycle may follow it. (No AI check runs
// during a wait to be in the way: they are not asked then.)
func TestGuard_ResumeNotDuringConfirmation(t *testing.T) {
	h := newHarness(t, testConfig())
	h.work(5 * time.Second)
	h.draw(limitScreen())
	h.until(waitEnds.Add(-2 * time.Second))
	h.wantDecision("waiting out usage limit")
	h.output(chunkCompletion) // a redraw brings a completion line back
	h.wantState(ConfirmingIdle)
	h.until(waitEnds.Add(time.Second))
	if !strings.Contains(h.dump(), "usage limit over") {
		t.Fatalf("the wait did not end\n%s", h.dump())
	}
	if n := h.resumes(h.start); n != 0 {
		t.Fatalf("resume prompt typed during a confirmation\n%s", h.dump())
	}
}

// A pause during a limit wait neither loses the wait nor types while
// paused: resumed before the wait's end, the resume prompt goes out at the
// end; resumed after it, at once. Neither leaves a deadline in the past
// that fires again and again (the controller used to spin there).
func TestCore_PauseDuringLimitWait(t *testing.T) {
	for _, tc := range []struct {
		name     string
		resumeAt time.Time
		typedBy  time.Time
	}{
		{"resumed_before_the_end", waitEnds.Add(-30 * time.Minute), waitEnds.Add(time.Minute)},
		{"resumed_after_the_end", waitEnds.Add(30 * time.Minute), waitEnds.Add(31 * time.Minute)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := limitedHarness(t, testConfig())
			paused := h.vt.Now
			h.c.Pause(h.vt.Now)
			h.perform()
			h.until(tc.resumeAt)
			if n := h.resumes(paused); n != 0 {
				t.Fatalf("%d resume prompts typed while paused\n%s", n, h.dump())
			}
			h.c.Resume(h.vt.Now)
			h.perform()
			h.until(tc.typedBy)
			if n := h.resumes(paused); n != 1 {
				t.Fatalf("%d resume prompts after the resume, want 1\n%s", n, h.dump())
			}
			h.advance(time.Hour)
		})
	}
}
