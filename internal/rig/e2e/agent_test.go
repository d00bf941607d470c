package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/claudetest"
	"github.com/codeman-dev/codeman/internal/rig/clitest"
	"github.com/codeman-dev/codeman/internal/rig/fakeapi"
	"github.com/codeman-dev/codeman/respawn"
)

// agentRuns is how long the background agent works: longer than
// no_output_timeout and the hook window together, so a Stop taken at its
// word would be cycled before the agent reports.
const agentRuns = 14 * time.Second

// A background agent keeps the session busy after its first Stop
// ("✻ Waiting for 1 background agent to finish"): codeman types nothing
// until the follow-up turn Claude starts for the agent's report has ended,
// and then cycles.
func TestBackgroundAgent_NotInterrupted(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.startDaemon(nil)
	c := r.newClaude(t, claudetest.Options{}, r.hookWrapper())
	const work, task = "delegate the greeting", "Say hi from the subagent."
	api := c.API()
	answerCycle(api)
	api.Handle(work, fakeapi.Reply{
		Text: "I'll hand this to a subagent.",
		Tool: &fakeapi.ToolCall{Name: "Agent", Input: map[string]any{
			"description": "Say hi subtask", "prompt": task, "subagent_type": "general-purpose",
		}},
		Next: &fakeapi.Reply{Text: "The subagent is on it."},
	})
	api.Handle(task, fakeapi.Reply{Delay: agentRuns, Text: "hi from the subagent"})
	api.Handle("<task-notification>", fakeapi.Reply{Text: "The subagent said hi. All done."})

	r.attach(c, "")
	c.Type(work)
	c.WaitFor(clitest.Matches(claudetest.WaitingForAgents), "the wait for the background agent", 30*time.Second)
	update := c.waitRequest(stepIs(stepUpdate), "the update prompt", agentRuns+cycleTimeout)
	events := c.Events()

	workStart := c.mustHook(events, "UserPromptSubmit", c.start, "the work prompt", promptHas(work))
	firstStop := c.mustHook(events, "Stop", workStart.At, "the main turn", nil)
	if n := backgroundTasks(firstStop); n != 1 {
		t.Errorf("the main turn's Stop lists %d running background task(s), want 1: the test did not cover a Stop with the agent still running", n)
	}
	report := c.mustHook(events, "UserPromptSubmit", firstStop.At, "the agent's report", promptHas("<task-notification>"))
	reportStop := c.mustHook(events, "Stop", report.At, "the follow-up turn", nil)
	if waited := report.At.Sub(firstStop.At); waited < agentRuns-2*time.Second {
		t.Errorf("the agent reported %s after the first Stop, want about %s", waited, agentRuns)
	}
	c.checkNothingTypedDuring(workStart.At, reportStop.At, "the main turn, the background agent and its report",
		func(p string) bool { return strings.Contains(p, work) || strings.Contains(p, "<task-notification>") })
	if !update.At.After(reportStop.At) {
		t.Errorf("the update prompt reached the model at %s, before the follow-up turn ended at %s", rel(c.start, update.At), rel(c.start, reportStop.At))
	}
	if ds := sends(r.decisions(c)); len(ds) == 0 || ds[0].Step != respawn.StepUpdate {
		t.Errorf("codeman's sends %v, want the update prompt first", ds)
	}
	c.checkTimeline()
}
