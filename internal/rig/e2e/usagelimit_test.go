package e2e

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/claudetest"
	"github.com/codeman-dev/codeman/internal/rig/clitest"
	"github.com/codeman-dev/codeman/internal/rig/fakeapi"
	"github.com/codeman-dev/codeman/respawn"
)

// Subscription-style usage limits: Claude runs with an OAuth token, under
// which the fake API's 429 with unified rate limit headers is a usage
// limit (docs/claude-code.md).

// autoContinueWithin bounds the wait for Claude Code's own continue after
// a reset: it fires 30 to 90 s after it, and a loaded machine adds more.
const autoContinueWithin = 3 * time.Minute

// resetSoon is a reset on a minute boundary (Claude Code prints minutes,
// and codeman reads them) at least 30 s ahead, so that the limit is on
// screen long enough for codeman to weigh it.
func resetSoon() time.Time {
	return time.Now().Add(30 * time.Second).Truncate(time.Minute).Add(time.Minute)
}

// resumes returns the requests that resumed the work after a limit:
// codeman's resume prompt and Claude Code's own continue.
func resumes(reqs []fakeapi.Request) []fakeapi.Request {
	var out []fakeapi.Request
	for _, r := range reqs {
		if freshTurn(r) && (typedBy(r) == stepResume || strings.HasPrefix(strings.TrimSpace(r.LastUserText), fakeapi.AutoContinueText)) {
			out = append(out, r)
		}
	}
	return out
}

// hasDecision reports a decision of the kind whose reason holds substr.
func hasDecision(ds []respawn.Decision, kind respawn.DecisionKind, substr string) bool {
	return slices.ContainsFunc(ds, func(d respawn.Decision) bool { return d.Kind == kind && strings.Contains(d.Reason, substr) })
}

// checkLimitStood fails the test when codeman typed anything, or Claude ran
// /clear, between the work's start and until: a span in which the limit
// stood and no one but Claude Code itself was to continue.
func (c *claude) checkLimitStood(events []claudetest.HookEvent, workStart, until time.Time, ownPrompt func(string) bool) {
	c.t.Helper()
	c.checkNothingTypedDuring(workStart, until, "the usage limit", ownPrompt)
	if clear, ok := findHook(events, "SessionStart", workStart, fieldIs("source", "clear")); ok && clear.At.Before(until) {
		c.t.Errorf("/clear ran at %s, while the usage limit stood", rel(c.start, clear.At))
	}
}

// A 5-hour limit under subscription auth is waited out without typing or
// cycling. When it resets, exactly one turn resumes the work: Claude Code's
// own continue (on by default) when it is armed, else codeman's resume
// prompt. A weekly limit two days out opens a menu that codeman leaves
// alone. The panes share one daemon.
func TestUsageLimit(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.startDaemon(nil)

	// Claude Code continues by itself 30 to 90 s after the reset; codeman's
	// wait ends 5 s after it, while the screen still says the continue is
	// armed, so codeman leaves it to Claude and types nothing.
	t.Run("ClaudeContinuesByItself", func(t *testing.T) {
		t.Parallel()
		c := r.newClaude(t, claudetest.Options{OAuth: true}, r.hookWrapper())
		const work = "finish the migration"
		reset := resetSoon()
		c.API().LimitUntil(fakeapi.UsageLimit{Claim: "five_hour", ResetAt: reset})
		answerCycle(c.API())
		c.API().Handle(fakeapi.AutoContinueText, fakeapi.Reply{Text: "Picked the migration up where it stopped; it is done."})

		c.waitStartupHints()
		r.attach(c, "")
		c.Type(work)
		c.WaitFor(clitest.Contains("Continuing automatically at"), "the usage limit, Claude Code's own continue armed", 30*time.Second)
		own := c.waitRequest(fakeapi.UserText(fakeapi.AutoContinueText), "Claude Code's own continue", time.Until(reset)+autoContinueWithin)
		update := c.waitRequest(stepIs(stepUpdate), "the update prompt after Claude's own turn", cycleTimeout)
		events := c.Events()
		reqs := c.API().Requests()

		workStart := c.mustHook(events, "UserPromptSubmit", c.start, "the work prompt", promptHas(work))
		failure := c.mustHook(events, "StopFailure", workStart.At, "the limited turn", fieldIs("error", "rate_limit"))
		fired := c.mustHook(events, "Notification", failure.At, "Claude Code's own continue", fieldIs("notification_type", "quota_auto_resume_fired"))
		ownStop := c.mustHook(events, "Stop", own.At, "Claude's own turn", nil)
		if own.At.Before(reset) {
			t.Fatalf("Claude Code continued at %s, before the reset at %s: the fake's limit did not hold", rel(c.start, own.At), rel(c.start, reset))
		}
		c.checkLimitStood(events, workStart.At, ownStop.At, func(p string) bool {
			return strings.Contains(p, work) || strings.HasPrefix(p, fakeapi.AutoContinueText)
		})
		if got := resumes(reqs); len(got) != 1 {
			t.Errorf("%d turns resumed the work, want exactly one (Claude Code's own):\n%s", len(got), describeRequests(c.start, got))
		}
		checkOrder(t, c.start, moment{"the limited turn's StopFailure", failure.At}, moment{"the reset", reset},
			moment{"Claude Code's quota_auto_resume_fired", fired.At}, moment{"its turn's Stop", ownStop.At}, moment{"the update prompt", update.At})
		ds := r.decisions(c)
		if !hasDecision(ds, respawn.DecisionWait, "Claude Code's own continue is armed") {
			t.Error("no decision says codeman left the resume to Claude Code's own continue")
		}
		if !hasDecision(ds, respawn.DecisionWait, "Claude continued by itself") {
			t.Error("no decision says Claude continued by itself")
		}
		if steps := sendSteps(ds); len(steps) == 0 || steps[0] != respawn.StepUpdate || slices.Contains(steps, respawn.StepResume) {
			t.Errorf("codeman sent %q, want the cycle after Claude's own turn and no resume prompt", steps)
		}
		c.checkTimeline()
	})

	// A person pressed Esc: Claude Code will not continue by itself, so
	// codeman types its resume prompt once, at the reset plus
	// usage_limit_margin, and cycles after that turn.
	t.Run("ResumedOnceWhenClaudeWillNot", func(t *testing.T) {
		t.Parallel()
		c := r.newClaude(t, claudetest.Options{OAuth: true}, r.hookWrapper())
		const work = "port the tests"
		reset := resetSoon()
		c.API().LimitUntil(fakeapi.UsageLimit{Claim: "five_hour", ResetAt: reset})
		answerCycle(c.API())

		c.waitStartupHints()
		r.attach(c, "")
		c.Type(work)
		c.WaitFor(clitest.Contains("Continuing automatically at"), "the usage limit, Claude Code's own continue armed", 30*time.Second)
		c.SendKeys("Escape")
		c.WaitFor(clitest.Contains("Automatic continue cancelled"), "the continue cancelled", 10*time.Second)
		resume := c.waitRequest(stepIs(stepResume), "codeman's resume prompt", time.Until(reset)+usageLimitMargin+time.Minute)
		update := c.waitRequest(stepIs(stepUpdate), "the update prompt after the resumed turn", cycleTimeout)
		events := c.Events()
		reqs := c.API().Requests()

		workStart := c.mustHook(events, "UserPromptSubmit", c.start, "the work prompt", promptHas(work))
		c.mustHook(events, "StopFailure", workStart.At, "the limited turn", fieldIs("error", "rate_limit"))
		if early := reset.Add(usageLimitMargin); resume.At.Before(early) {
			t.Errorf("the resume prompt reached the model at %s, before the reset plus usage_limit_margin (%s)", rel(c.start, resume.At), rel(c.start, early))
		}
		sent := sends(r.decisions(c))
		if len(sent) == 0 || sent[0].Step != respawn.StepResume {
			t.Fatalf("codeman's sends %v, want the resume prompt first", sent)
		}
		c.checkLimitStood(events, workStart.At, sent[0].At.Add(-time.Millisecond), func(p string) bool { return strings.Contains(p, work) })
		if got := resumes(reqs); len(got) != 1 || typedBy(got[0]) != stepResume {
			t.Errorf("the work was resumed by %d turns, want exactly one, codeman's:\n%s", len(got), describeRequests(c.start, got))
		}
		resumeStop := c.mustHook(events, "Stop", resume.At, "the resumed turn", nil)
		checkOrder(t, c.start, moment{"the reset", reset}, moment{"the resume prompt", resume.At},
			moment{"the resumed turn's Stop", resumeStop.At}, moment{"the update prompt", update.At})
		if got := stepsTyped(reqs); len(got) < 2 || !slices.Equal(got[:2], []string{stepResume, stepUpdate}) || slices.Index(got[1:], stepResume) >= 0 {
			t.Errorf("codeman's steps reached the model as %q, want one resume, then the cycle", got)
		}
		c.checkTimeline()
	})

	// A weekly limit two days out: Claude Code asks what to do, and the
	// menu is left to a person, however long it stays open.
	t.Run("WeeklyMenuLeftAlone", func(t *testing.T) {
		t.Parallel()
		c := r.newClaude(t, claudetest.Options{OAuth: true}, r.hookWrapper())
		const work = "ship the release"
		c.API().LimitUntil(fakeapi.UsageLimit{Claim: "seven_day", ResetAt: time.Now().Add(50 * time.Hour).Truncate(time.Minute)})
		answerCycle(c.API())

		r.attach(c, "")
		c.Type(work)
		const menu = "What do you want to do?"
		c.WaitFor(clitest.Contains(menu), "the weekly limit menu", 30*time.Second)
		opened := time.Now()
		before := len(c.API().Requests())

		// The point of the test: nothing happens for this long, so sleep
		// through it once.
		time.Sleep(leftAlone)

		if reqs := c.API().Requests(); len(reqs) != before {
			t.Errorf("%d request(s) reached the model after the menu opened:\n%s", len(reqs)-before, describeRequests(c.start, reqs[before:]))
		}
		if screen := c.Capture(); !strings.Contains(screen, menu) {
			t.Errorf("the menu is gone from the screen:\n%s", screen)
		}
		c.mustHook(c.Events(), "StopFailure", c.start, "the limited turn", fieldIs("error", "rate_limit"))
		ds := r.decisions(c)
		if !slices.ContainsFunc(ds, func(d respawn.Decision) bool {
			return d.Kind == respawn.DecisionVeto && d.At.After(opened) && strings.Contains(d.Reason, "limit_menu")
		}) {
			t.Errorf("no veto names the limit menu after it opened: codeman's fallback timers never weighed it")
		}
		if got := sends(ds); len(got) != 0 {
			t.Errorf("codeman sent %v", got)
		}
		c.checkTimeline()
	})
}
