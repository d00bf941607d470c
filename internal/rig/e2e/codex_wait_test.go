package e2e

import (
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/internal/rig/clitest"
	"github.com/codeman-dev/codeman/internal/rig/codextest"
	"github.com/codeman-dev/codeman/internal/rig/fakeopenai"
	"github.com/codeman-dev/codeman/respawn"
)

// The Codex scenarios of a turn lost to the API: an error waited out for
// api_error_backoff, and a usage limit waited out until its reset. Codex
// retries neither by itself and runs no Stop for either, only a
// PostModelRequest with status "failed" (docs/codex.md).

// Their timings, set with each attach: the least api_error_backoff respawn
// accepts, and a short usage_limit_margin.
const (
	codexBackoff     = 10 * time.Second
	codexLimitMargin = 2 * time.Second
)

// codexWaitSets are the --set values of the wait scenarios: the test's
// resume prompt, which codexTypedBy tells from anything Codex sends, and
// the short timings.
var codexWaitSets = []string{
	"agent=codex",
	"resume_prompt=" + resumePrompt,
	"api_error_backoff=" + codexBackoff.String(),
	"usage_limit_margin=" + codexLimitMargin.String(),
}

// codexFailed accepts Codex's hook call for a model request that failed.
func codexFailed(e codextest.Event) bool {
	return e.Name == "PostModelRequest" && e.Field("status") == "failed"
}

// codexResumes returns the requests started by codeman's resume prompt.
func codexResumes(reqs []fakeopenai.Request) []fakeopenai.Request {
	var out []fakeopenai.Request
	for _, r := range reqs {
		if codexTypedBy(r) == stepResume {
			out = append(out, r)
		}
	}
	return out
}

// isWaitOn returns a predicate on decisions: a wait whose reason starts
// with prefix.
func isWaitOn(prefix string) func(respawn.Decision) bool {
	return func(d respawn.Decision) bool {
		return d.Kind == respawn.DecisionWait && strings.HasPrefix(d.Reason, prefix)
	}
}

// checkNoTurnBetween fails the test when a turn other than a retry reached
// the model between from and to, a span in which nothing was to.
func (c *codexPane) checkNoTurnBetween(reqs []fakeopenai.Request, from, to time.Time, what string) {
	c.t.Helper()
	for _, r := range reqs {
		if codexTurn(r) && r.At.After(from) && r.At.Before(to) {
			c.t.Errorf("a turn reached the model at %s, during %s (%s to %s): %q",
				rel(c.start, r.At), what, rel(c.start, from), rel(c.start, to), clip(r.LastUserText, 60))
		}
	}
}

// Every request of the work turn is answered 500 until the test lets them
// through: Codex prints its "■" line and runs no Stop. codeman types
// nothing for api_error_backoff, then the resume prompt once; that turn
// ends normally and the cycle follows (update prompt, /new, /init,
// kickstart).
func TestCodex_APIErrorWaitedOut(t *testing.T) {
	t.Parallel()
	r := newCodexRig(t)
	r.startDaemon(nil)
	c := r.newCodex(t, true)
	const work = "migrate the schema"
	var through atomic.Bool
	c.API().HandleFunc(func(fakeopenai.Request) (fakeopenai.Reply, bool) {
		return fakeopenai.Reply{Status: http.StatusInternalServerError}, !through.Load()
	})
	answerCodexCycle(c.API())
	c.API().Handle(resumePrompt, fakeopenai.Reply{Text: "Picked the migration up again; it is done."})

	c.attach(codexWaitSets...)
	c.Type(work)
	c.WaitFor(clitest.Contains("■ We’re currently experiencing high demand"), "the API error", 30*time.Second)
	c.WaitForEvent(codexFailed, "the failed PostModelRequest", 10*time.Second)
	through.Store(true)
	resume := c.waitRequest(func(r fakeopenai.Request) bool { return codexTypedBy(r) != "" },
		"codeman's first step", codexNoOutputTimeout+codexBackoff+30*time.Second)
	if step := codexTypedBy(resume); step != stepResume {
		t.Fatalf("codeman's %s step reached the model first, want the resume prompt", step)
	}
	kickstart := c.waitRequest(codexStepIs(stepKickstart), "the kickstart prompt after the resumed turn", cycleTimeout)
	reqs := c.API().Requests()
	events := c.Events()
	st := c.status()

	workStart := c.mustHook(events, "UserPromptSubmit", c.start, "the work prompt", promptHas(work))
	failure := c.mustHook(events, "PostModelRequest", workStart.At, "the failed model request", fieldIs("status", "failed"))
	if _, ok := findHook(events, "Stop", workStart.At, func(e codextest.Event) bool { return e.At.Before(resume.At) }); ok {
		t.Error("a Stop hook came before the resume: the failed turn ended normally")
	}
	if waited := resume.At.Sub(failure.At); waited < codexBackoff {
		t.Errorf("the resume prompt reached the model %s after the failure, want at least api_error_backoff (%s)", waited, codexBackoff)
	}
	lastFailed := -1
	for i, r := range reqs {
		if r.Status == http.StatusInternalServerError {
			lastFailed = i
		}
	}
	if lastFailed < 0 {
		t.Fatal("no request was answered 500: the test did not cover an API error")
	}
	c.checkNoTurnBetween(reqs, reqs[lastFailed].At, resume.At, "the backoff")
	if got := codexSteps(reqs); !slices.Equal(got, []string{stepResume, stepUpdate, stepInit, stepKickstart}) {
		t.Errorf("codeman's steps reached the model as %q, want one resume, then update, init, kickstart", got)
	}
	resumeStop := c.mustHook(events, "Stop", resume.At, "the resumed turn", nil)
	update := c.mustRequest(reqs, codexStepIs(stepUpdate), "the update prompt")
	if quiet := update.At.Sub(resumeStop.At); quiet < completionConfirm {
		t.Errorf("the update prompt reached the model %s after the resumed turn's Stop, want at least completion_confirm (%s)", quiet, completionConfirm)
	}
	checkOrder(t, c.start, moment{"the failed model request", failure.At}, moment{"the resume prompt", resume.At},
		moment{"the resumed turn's Stop", resumeStop.At}, moment{"the update prompt", update.At}, moment{"the kickstart prompt", kickstart.At})

	ds := st.Status.Decisions
	sent := sends(ds)
	want := []respawn.Step{respawn.StepResume, respawn.StepUpdate, respawn.StepClear, respawn.StepInit, respawn.StepKickstart}
	if got := sendSteps(ds); !slices.Equal(got, want) {
		t.Fatalf("codeman sent %q, want %q", got, want)
	}
	c.checkNothingTypedDuring(workStart.At, sent[0].At.Add(-time.Millisecond), "the failed turn and the backoff",
		func(p string) bool { return strings.Contains(p, work) })
	if i := slices.IndexFunc(ds, isWaitOn("waiting out API error")); i < 0 {
		t.Error("no decision says codeman waits out the API error")
	} else if waited := sent[0].At.Sub(ds[i].At); waited < codexBackoff {
		t.Errorf("codeman typed the resume prompt %s after it began to wait, want at least api_error_backoff (%s)", waited, codexBackoff)
	}
	if !st.HooksActive {
		t.Error("codeman's hooks never ran: the test did not cover the failed PostModelRequest")
	}
	c.checkTimeline()
}

// codexLimitLead is the least time between typing the work and the
// limit's reset: enough for the limit and its menu to show, codeman to
// weigh the menu, the test to close it and codeman to start its wait.
const codexLimitLead = 25 * time.Second

// codexResetSoon is a reset on a minute boundary at least codexLimitLead
// ahead. Codex prints the reset to the minute ("try again at 9:12 PM.")
// in the pane's zone, and codeman reads that line: on a boundary, the
// printed time is the reset.
func codexResetSoon() time.Time {
	return time.Now().Add(codexLimitLead).Truncate(time.Minute).Add(time.Minute)
}

// The work turn hits a usage limit resetting within about a minute: Codex
// prints the limit and opens its model-switch menu, whose Enter would
// switch the model. codeman leaves the menu to a person (needs you:
// menu), who closes it with Esc; codeman then waits until the reset plus
// usage_limit_margin and types the resume prompt once. Nothing reaches
// the model before the reset.
func TestCodex_UsageLimitWaitedOut(t *testing.T) {
	t.Parallel()
	r := newCodexRig(t)
	r.startDaemon(nil)
	c := r.newCodex(t, true)
	const work = "index the archive"
	reset := codexResetSoon()
	// Every turn before the reset hits the limit, as the real API would
	// answer an early prompt.
	c.API().HandleFunc(func(fakeopenai.Request) (fakeopenai.Reply, bool) {
		limited := fakeopenai.Reply{Status: http.StatusTooManyRequests, UsageLimit: &fakeopenai.UsageLimit{ResetAt: reset}}
		return limited, time.Now().Before(reset)
	})
	answerCodexCycle(c.API())
	c.API().Handle(resumePrompt, fakeopenai.Reply{Text: "Picked the indexing up again; it is done."})

	c.attach(codexWaitSets...)
	c.Type(work)
	c.WaitFor(clitest.Contains("You’ve hit your usage limit"), "the usage limit", 30*time.Second)
	const menu = "Approaching rate limits"
	c.WaitFor(clitest.Contains(menu), "the model-switch menu", 10*time.Second)
	opened := time.Now()
	// Closed only once codeman has raised the need and its timers have
	// weighed the menu and declined.
	c.waitPane("codeman to leave the menu to a person", codexNoOutputTimeout+completionConfirm+15*time.Second, func(st api.PaneStatus) bool {
		n := st.Status.NeedsYou
		return n != nil && n.Kind == respawn.NeedMenu && slices.ContainsFunc(st.Status.Decisions, func(d respawn.Decision) bool {
			return d.Kind == respawn.DecisionVeto && d.At.After(opened) && strings.Contains(d.Reason, "rate_limit_menu")
		})
	})
	if screen := c.Capture(); !strings.Contains(screen, menu) {
		t.Fatalf("the menu closed before the person closed it:\n%s", screen)
	}
	if time.Now().After(reset.Add(-5 * time.Second)) {
		t.Fatalf("the menu was weighed only at %s, too close to the reset at %s for the wait to be tested", rel(c.start, time.Now()), rel(c.start, reset))
	}
	closed := time.Now()
	c.SendKeys("Escape")
	c.WaitFor(func(s string) bool { return !strings.Contains(s, menu) && codextest.PromptReady(s) }, "the menu closed", 10*time.Second)
	resume := c.waitRequest(codexStepIs(stepResume), "codeman's resume prompt", time.Until(reset)+codexLimitMargin+30*time.Second)
	update := c.waitRequest(codexStepIs(stepUpdate), "the update prompt after the resumed turn", cycleTimeout)
	reqs := c.API().Requests()
	events := c.Events()
	st := c.status()

	workStart := c.mustHook(events, "UserPromptSubmit", c.start, "the work prompt", promptHas(work))
	failure := c.mustHook(events, "PostModelRequest", workStart.At, "the limited model request", fieldIs("status", "failed"))
	if !strings.Contains(failure.Field("error"), "usage limit") {
		t.Errorf("the failed PostModelRequest says %q, want the usage limit", failure.Field("error"))
	}
	limited := c.mustRequest(reqs, func(r fakeopenai.Request) bool { return r.Status == http.StatusTooManyRequests }, "the limited request")
	if early := reset.Add(codexLimitMargin); resume.At.Before(early) {
		t.Errorf("the resume prompt reached the model at %s, before the reset plus usage_limit_margin (%s)", rel(c.start, resume.At), rel(c.start, early))
	}
	c.checkNoTurnBetween(reqs, limited.At, resume.At, "the usage limit")
	if got := codexResumes(reqs); len(got) != 1 {
		t.Errorf("%d resume prompts reached the model, want exactly one", len(got))
	}
	if resume.Model != limited.Model {
		t.Errorf("the resumed turn asked model %q, the limited one %q: the menu switched the model", resume.Model, limited.Model)
	}
	resumeStop := c.mustHook(events, "Stop", resume.At, "the resumed turn", nil)
	checkOrder(t, c.start, moment{"the limited request", limited.At}, moment{"the menu closed", closed},
		moment{"the reset", reset}, moment{"the resume prompt", resume.At},
		moment{"the resumed turn's Stop", resumeStop.At}, moment{"the update prompt", update.At})
	if got := codexSteps(reqs); len(got) < 2 || !slices.Equal(got[:2], []string{stepResume, stepUpdate}) || slices.Index(got[1:], stepResume) >= 0 {
		t.Errorf("codeman's steps reached the model as %q, want one resume, then the cycle", got)
	}

	ds := st.Status.Decisions
	sent := sends(ds)
	if len(sent) == 0 || sent[0].Step != respawn.StepResume {
		t.Fatalf("codeman's sends %v, want the resume prompt first", sent)
	}
	c.checkNothingTypedDuring(workStart.At, sent[0].At.Add(-time.Millisecond), "the usage limit",
		func(p string) bool { return strings.Contains(p, work) })
	// The wait began before the reset, and until the printed reset plus
	// the margin: codeman read the reset off the screen.
	if i := slices.IndexFunc(ds, isWaitOn("waiting out usage limit")); i < 0 {
		t.Error("no decision says codeman waits out the usage limit")
	} else if until := reset.Add(codexLimitMargin).Format("15:04:05"); !ds[i].At.Before(reset) || !strings.Contains(ds[i].Reason, "until "+until) {
		t.Errorf("codeman began to wait at %s with %q, want before the reset (%s) and until %s", rel(c.start, ds[i].At), ds[i].Reason, rel(c.start, reset), until)
	}
	if !hasDecision(ds, respawn.DecisionWait, "needs a person: menu: usage limit menu") {
		t.Error("no decision says the usage limit menu needs a person")
	}
	// The menu stayed open until the person closed it: no key of codeman's
	// answered it.
	for _, s := range c.mon.between(opened, closed) {
		if !s.Dialog {
			t.Errorf("screen at %s: no menu, before the person closed it at %s", rel(c.start, s.At), rel(c.start, closed))
			break
		}
	}
	c.checkTimeline()
}
