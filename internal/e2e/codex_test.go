package e2e

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/fakeopenai"
	"github.com/codeman-dev/codeman/respawn"
)

// slowCodexReply streams its text in pieces seconds apart. While text
// streams Codex shows no status row, so the screen looks idle; only the
// pane title's spinner says a turn runs (docs/codex.md).
func slowCodexReply(what string, pauses ...time.Duration) []fakeopenai.Chunk {
	chunks := []fakeopenai.Chunk{{Text: "Let me look at " + what + " first.\n\n"}}
	for i, p := range pauses {
		chunks = append(chunks, fakeopenai.Chunk{Pause: p, Text: []string{
			"It needs a closer look", " before anything changes.\n\n", "Nearly there.\n\n",
		}[i%3]})
	}
	return chunks
}

// codexToolRuns is how long the work turn's command runs.
const codexToolRuns = 4 * time.Second

// codexToolRun runs for codexToolRuns without an approval: full access
// with on-request approvals runs a command that asks for no escalation.
var codexToolRun = fakeopenai.Shell("sleep 4 && echo done")

// A turn that streams slowly and runs a command ends; codeman, told the
// agent by --set agent=codex (`codeman attach --agent codex`) and with its
// hooks installed in Codex, then types the update prompt naming AGENTS.md,
// /new, /init and the kickstart prompt, in that order, and nothing while
// the turn ran.
func TestCodexCycle_AfterSlowTurn(t *testing.T) {
	t.Parallel()
	r := newCodexRig(t)
	r.startDaemon(nil)
	c := r.newCodex(t, true)
	const work = "build the release"
	answerCodexCycle(c.API())
	c.API().Handle(work, fakeopenai.Reply{
		Chunks: slowCodexReply("the release", 3*time.Second), Tool: codexToolRun,
		Next: &fakeopenai.Reply{Text: "The build is done."},
	})

	c.attach("agent=codex")
	c.Type(work)
	kickstart := c.waitRequest(codexStepIs(stepKickstart), "the kickstart prompt", cycleTimeout)
	reqs := c.API().Requests()
	events := c.Events()
	st := c.status()

	if got := codexSteps(reqs); !slices.Equal(got, []string{stepUpdate, stepInit, stepKickstart}) {
		t.Errorf("codeman's steps reached the model as %q, want update, init, kickstart", got)
	}
	workStart := c.mustHook(events, "UserPromptSubmit", c.start, "the work prompt", promptHas(work))
	toolStart := c.mustHook(events, "PreToolUse", workStart.At, "the command", fieldIs("tool_name", "Bash"))
	toolEnd := c.mustHook(events, "PostToolUse", toolStart.At, "the command", fieldIs("tool_name", "Bash"))
	workStop := c.mustHook(events, "Stop", toolEnd.At, "the work turn", nil)
	if ran := toolEnd.At.Sub(toolStart.At); ran < codexToolRuns-500*time.Millisecond {
		t.Errorf("the command ran %s, want about %s: the test did not cover a running command", ran, codexToolRuns)
	}
	c.checkNothingTypedDuring(workStart.At, workStop.At, "the streamed reply and the command",
		func(p string) bool { return strings.Contains(p, work) })
	if turn := c.mon.between(workStart.At, workStop.At); !slices.ContainsFunc(turn, sample.working) {
		t.Errorf("the screen never showed Codex working during the turn: the timeline is blind")
	}

	update := c.mustRequest(reqs, codexStepIs(stepUpdate), "the update prompt")
	initReq := c.mustRequest(reqs, codexStepIs(stepInit), "/init")
	if quiet := update.At.Sub(workStop.At); quiet < completionConfirm {
		t.Errorf("the update prompt reached the model %s after Stop, want at least completion_confirm (%s)", quiet, completionConfirm)
	}
	// /new runs no hook; the next prompt (/init's) starts a new session.
	updateStop := c.mustHook(events, "Stop", update.At, "the update turn", nil)
	fresh := c.mustHook(events, "SessionStart", updateStop.At, "the session after /new", nil)
	checkOrder(t, c.start, moment{"the work turn's Stop", workStop.At}, moment{"the update prompt", update.At},
		moment{"the update turn's Stop", updateStop.At}, moment{"the session after /new", fresh.At},
		moment{"/init", initReq.At}, moment{"the kickstart prompt", kickstart.At})
	if prior := slices.IndexFunc(reqs, func(r fakeopenai.Request) bool {
		return codexTurn(r) && r.At.After(updateStop.At) && r.At.Before(initReq.At)
	}); prior >= 0 {
		t.Errorf("a turn reached the model between the update turn and /init: %q", clip(reqs[prior].LastUserText, 60))
	}

	want := []respawn.Step{respawn.StepUpdate, respawn.StepClear, respawn.StepInit, respawn.StepKickstart}
	ds := sends(st.Status.Decisions)
	if got := sendSteps(ds); !slices.Equal(got, want) {
		t.Errorf("codeman sent %q, want %q", got, want)
	} else if ds[1].Text != "/new" || ds[2].Text != "/init" || !strings.Contains(ds[0].Text, "AGENTS.md") {
		t.Errorf("codeman typed %q, %q, %q: want the update prompt naming AGENTS.md, /new and /init", ds[0].Text, ds[1].Text, ds[2].Text)
	}
	if st.Agent != "codex" || !st.HooksActive {
		t.Errorf("the pane's agent is %q with hooks active %t, want codex with codeman's hooks running", st.Agent, st.HooksActive)
	}
	c.checkTimeline()
}
