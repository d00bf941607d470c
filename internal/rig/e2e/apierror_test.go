package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/claudetest"
	"github.com/codeman-dev/codeman/internal/rig/clitest"
	"github.com/codeman-dev/codeman/internal/rig/fakeapi"
	"github.com/codeman-dev/codeman/respawn"
)

// apiErrorCases are the errors a turn ends on. claudetest runs Claude with
// CLAUDE_CODE_MAX_RETRIES=1, so the error shows after one retry
// (docs/claude-code.md).
var apiErrorCases = []struct {
	status  int
	line    string // the error on screen
	failure string // StopFailure's error
}{
	{529, "API Error: 529 Overloaded (fake)", "server_error"},
	{429, "API Error: Request rejected (429)", "rate_limit"},
}

// A turn that ends on an API error is not a finished turn: codeman types
// no update prompt, waits api_error_backoff, then types the resume prompt
// once. Its turn then ends normally and is cycled. Both panes share one
// daemon.
func TestAPIError_WaitedOutThenResumed(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.startDaemon(nil)
	for _, tc := range apiErrorCases {
		t.Run(fmt.Sprint(tc.status), func(t *testing.T) {
			t.Parallel()
			c := r.newClaude(t, claudetest.Options{}, r.hookWrapper())
			const work = "deploy the service"
			answerCycle(c.API())
			c.API().Handle(work, fakeapi.Reply{Status: tc.status})

			r.attach(c, "")
			c.Type(work)
			c.WaitFor(clitest.Contains(tc.line), "the API error", 30*time.Second)
			resume := c.waitRequest(func(req fakeapi.Request) bool { return typedBy(req) != "" },
				"codeman's first step", noOutputTimeout+apiErrorBackoff+30*time.Second)
			if step := typedBy(resume); step != stepResume {
				t.Fatalf("codeman's %s step reached the model first, want the resume prompt", step)
			}
			update := c.waitRequest(stepIs(stepUpdate), "the update prompt after the resumed turn", cycleTimeout)
			events := c.Events()
			reqs := c.API().Requests()

			failure := c.mustHook(events, "StopFailure", c.start, "the failed turn", nil)
			if got := failure.Field("error"); got != tc.failure {
				t.Errorf("StopFailure error %q, want %q", got, tc.failure)
			}
			if _, ok := findHook(events, "Stop", c.start, func(e claudetest.HookEvent) bool { return e.At.Before(resume.At) }); ok {
				t.Error("a Stop hook came before the resume: the failed turn was not the only turn end")
			}
			if waited := resume.At.Sub(failure.At); waited < apiErrorBackoff {
				t.Errorf("the resume prompt reached the model %s after the failure, want at least api_error_backoff (%s)", waited, apiErrorBackoff)
			}
			// Exactly one resume, and the update prompt only after the
			// resumed turn.
			if got := stepsTyped(reqs); len(got) < 2 || !slices.Equal(got[:2], []string{stepResume, stepUpdate}) || slices.Index(got[1:], stepResume) >= 0 {
				t.Errorf("codeman's steps reached the model as %q, want one resume, then the cycle", got)
			}
			resumeStop := c.mustHook(events, "Stop", resume.At, "the resumed turn", nil)
			if !update.At.After(resumeStop.At) {
				t.Errorf("the update prompt reached the model at %s, before the resumed turn ended at %s", rel(c.start, update.At), rel(c.start, resumeStop.At))
			}
			ds := r.decisions(c)
			sent := sends(ds)
			if len(sent) == 0 || sent[0].Step != respawn.StepResume {
				t.Fatalf("codeman's sends %v, want the resume prompt first", sent)
			}
			first := sent[0]
			workStart := c.mustHook(events, "UserPromptSubmit", c.start, "the work prompt", promptHas(work))
			c.checkNothingTypedDuring(workStart.At, first.At.Add(-time.Millisecond), "the failed turn and the backoff",
				func(p string) bool { return strings.Contains(p, work) })
			if !slices.ContainsFunc(ds, func(d respawn.Decision) bool {
				return d.Kind == respawn.DecisionWait && strings.Contains(d.Reason, "API error")
			}) {
				t.Error("no decision says codeman waits out the API error")
			}
			c.checkTimeline()
		})
	}
}
