package e2e

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/claudetest"
	"github.com/codeman-dev/codeman/internal/rig/fakeapi"
	"github.com/codeman-dev/codeman/respawn"
)

// cycleTimeout bounds a whole cycle after the turn that starts it: four
// steps, each a turn of about a second plus the confirmations between.
const cycleTimeout = 90 * time.Second

// slowReply streams its text in pieces 5 s apart. While text streams
// Claude draws no spinner and prints a line only once it is complete
// (docs/claude-code.md), so the pane stays silent for 10 s,
// longer than no_output_timeout: only the footer's "esc to interrupt" says
// Claude works.
func slowReply(what string) []fakeapi.Chunk {
	return []fakeapi.Chunk{
		{Text: "Let me look at " + what + " first.\n\n"},
		{Pause: 5 * time.Second, Text: "It needs a closer look"},
		{Pause: 5 * time.Second, Text: " before anything changes.\n\n"},
		{Pause: time.Second, Text: "Now I'll run the build."},
	}
}

// toolRun is a Bash call that runs for 4 s without a permission prompt:
// read-only commands need none, even in manual mode (docs/claude-code.md).
var toolRun = &fakeapi.ToolCall{Name: "Bash", Input: map[string]any{
	"command": "sleep 4 && echo done", "description": "Wait for the build to finish",
}}

// A turn that streams slowly and runs a Bash tool ends; codeman then types
// the update prompt, /clear, /init and the kickstart prompt, in that order,
// and nothing while the reply streamed or the tool ran.
func TestCycle_AfterSlowTurn(t *testing.T) {
	t.Parallel()
	cycleAfterSlowTurn(t, false)
}

// cycleAfterSlowTurn is TestCycle_AfterSlowTurn's scenario, with Claude in
// a tmux pane or, inScreen, in a GNU screen window.
func cycleAfterSlowTurn(t *testing.T, inScreen bool) {
	r := newRig(t)
	r.screen = inScreen
	r.startDaemon(nil)
	c := r.newClaude(t, claudetest.Options{}, r.hookWrapper())
	const work = "build the release"
	answerCycle(c.API())
	c.API().Handle(work, fakeapi.Reply{Chunks: slowReply("the release"), Tool: toolRun, Next: &fakeapi.Reply{Text: "The build is done."}})

	// Attached only now: codeman would cycle the idle session meanwhile.
	c.waitStartupHints()
	r.attach(c, "")
	c.Type(work)
	kickstart := c.waitRequest(stepIs(stepKickstart), "the kickstart prompt", cycleTimeout)
	reqs := c.API().Requests()
	events := c.Events()

	c.checkSteps(stepUpdate, stepInit, stepKickstart)
	workStart := c.mustHook(events, "UserPromptSubmit", c.start, "the work prompt", promptHas(work))
	toolStart := c.mustHook(events, "PreToolUse", workStart.At, "the Bash tool", fieldIs("tool_name", "Bash"))
	toolEnd := c.mustHook(events, "PostToolUse", toolStart.At, "the Bash tool", fieldIs("tool_name", "Bash"))
	workStop := c.mustHook(events, "Stop", toolEnd.At, "the work turn", nil)
	if ran := toolEnd.At.Sub(toolStart.At); ran < 3500*time.Millisecond {
		t.Errorf("the Bash tool ran %s, want about 4s: the test did not cover a running tool", ran)
	}
	// The stream and the tool run lie between the prompt and Stop.
	c.checkNothingTypedDuring(workStart.At, workStop.At, "the streamed reply and the Bash tool",
		func(p string) bool { return strings.Contains(p, work) })
	if streaming := c.mon.between(workStart.At, toolStart.At); !slices.ContainsFunc(streaming, func(s sample) bool { return s.Busy }) {
		t.Errorf("the screen never showed Claude busy while the reply streamed: the timeline is blind")
	}
	// The stream's silence outlasted no_output_timeout, so codeman did
	// weigh idle during it, and the screen's evidence said no.
	if !slices.ContainsFunc(r.decisions(c), func(d respawn.Decision) bool {
		return d.Kind == respawn.DecisionVeto && d.At.After(workStart.At) && d.At.Before(toolStart.At)
	}) {
		t.Errorf("codeman vetoed nothing while the reply streamed: it no longer weighs the screen, or the stream no longer outlasts no_output_timeout")
	}

	update := c.mustRequest(reqs, stepIs(stepUpdate), "the update prompt")
	initReq := c.mustRequest(reqs, stepIs(stepInit), "/init")
	if quiet := update.At.Sub(workStop.At); quiet < completionConfirm {
		t.Errorf("the update prompt reached the model %s after Stop, want at least completion_confirm (%s)", quiet, completionConfirm)
	}
	checkOrder(t, c.start, moment{"the work turn's Stop", workStop.At}, moment{"the update prompt", update.At},
		moment{"/init", initReq.At}, moment{"the kickstart prompt", kickstart.At})
	// /clear came between the update's turn and /init.
	updateStop := c.mustHook(events, "Stop", update.At, "the update turn", nil)
	clear := c.mustHook(events, "SessionStart", updateStop.At, "/clear", fieldIs("source", "clear"))
	if !clear.At.Before(initReq.At) {
		t.Errorf("/clear finished at %s, after /init reached the model at %s", rel(c.start, clear.At), rel(c.start, initReq.At))
	}
	want := []respawn.Step{respawn.StepUpdate, respawn.StepClear, respawn.StepInit, respawn.StepKickstart}
	if got := sendSteps(r.decisions(c)); !slices.Equal(got, want) {
		t.Errorf("codeman sent %q, want %q", got, want)
	}
	c.checkTimeline()
}
