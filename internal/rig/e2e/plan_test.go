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

// planText is the plan the fake writes into the plan file.
const planText = "# Plan: add hello.txt\n\n## Steps\n1. Create `hello.txt` with a greeting\n2. Run the tests\n"

// approvedPlan is what the model gets back when the plan is accepted
// (docs/claude-code.md).
const approvedPlan = "User has approved your plan"

// A plan approval menu is the one dialog codeman answers: it presses Enter
// once, the model gets the approved plan's tool result, and the turn that
// follows is cycled.
func TestPlan_ApprovalAccepted(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.startDaemon(nil)
	c := r.newClaude(t, claudetest.Options{}, r.hookWrapper())
	const work = "plan the greeting feature"
	answerCycle(c.API())
	c.API().HandlePlan(work, planText, &fakeapi.Reply{Text: "Plan approved; starting on hello.txt."})
	// Plan mode: shift+tab twice from manual (docs/claude-code.md).
	c.SendKeys("BTab")
	c.WaitFor(clitest.Contains("accept edits on"), "accept edits mode", 10*time.Second)
	c.SendKeys("BTab")
	c.WaitFor(clitest.Contains("plan mode on"), "plan mode", 10*time.Second)

	r.attach(c, "")
	c.Type(work)
	approved := c.waitRequest(func(req fakeapi.Request) bool {
		return slices.ContainsFunc(toolResults(req), func(s string) bool { return strings.Contains(s, approvedPlan) })
	}, "the approved plan's tool result", 60*time.Second)
	update := c.waitRequest(stepIs(stepUpdate), "the update prompt after the plan's turn", cycleTimeout)
	events := c.Events()

	menu := c.mustHook(events, "PermissionRequest", c.start, "the plan approval", fieldIs("tool_name", "ExitPlanMode"))
	ds := sends(r.decisions(c))
	accepts := slices.DeleteFunc(slices.Clone(ds), func(d respawn.Decision) bool { return d.Step != respawn.StepAutoAccept })
	if len(accepts) != 1 || accepts[0].Key != respawn.KeyEnter {
		t.Fatalf("plan accepted by %v, want one Enter", accepts)
	}
	accept := accepts[0]
	if accept.At.Before(menu.At) || accept.At.After(approved.At) {
		t.Errorf("Enter at %s, want between the menu (%s) and the approval reaching the model (%s)",
			rel(c.start, accept.At), rel(c.start, menu.At), rel(c.start, approved.At))
	}
	if ds[0] != accept {
		t.Errorf("codeman's first send was %s, want the plan's Enter", ds[0])
	}
	// Nothing but the Enter between the prompt and the end of the plan's turn.
	workStart := c.mustHook(events, "UserPromptSubmit", c.start, "the plan prompt", promptHas(work))
	workStop := c.mustHook(events, "Stop", approved.At, "the approved plan's turn", nil)
	for _, d := range ds[1:] {
		if !d.At.After(workStop.At) {
			t.Errorf("codeman sent %s at %s, before the plan's turn ended at %s", d, rel(c.start, d.At), rel(c.start, workStop.At))
		}
	}
	ownPrompt := func(p string) bool { return strings.Contains(p, work) }
	c.checkNothingTypedDuring(workStart.At, menu.At, "the plan", ownPrompt)
	c.checkNothingTypedDuring(accept.At.Add(time.Millisecond), workStop.At, "the approved plan", ownPrompt)
	if update.At.Before(workStop.At) {
		t.Errorf("the update prompt reached the model at %s, before the plan's turn ended at %s", rel(c.start, update.At), rel(c.start, workStop.At))
	}
	c.checkTimeline()
}
