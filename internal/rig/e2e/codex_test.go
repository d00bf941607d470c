package e2e

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/internal/rig/codextest"
	"github.com/codeman-dev/codeman/internal/rig/fakeopenai"
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
	codexCycleAfterSlowTurn(t, false)
}

// codexCycleAfterSlowTurn is TestCodexCycle_AfterSlowTurn's scenario, with
// Codex in a tmux pane or, inScreen, in a GNU screen window.
func codexCycleAfterSlowTurn(t *testing.T, inScreen bool) {
	r := newCodexRig(t)
	r.screen = inScreen
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

// codexStreamPauses are the pauses of the slowly streamed reply: together
// longer than no_output_timeout and completion_confirm.
var codexStreamPauses = []time.Duration{6 * time.Second, 4 * time.Second}

// Codex works on a reply that streams for 10 s with no status row on
// screen, and codeman, reading only the screen and the output stream (no
// hooks of its own), types nothing until the turn has ended, and then
// the update prompt.
func TestCodex_NothingTypedWhileStreaming(t *testing.T) {
	t.Parallel()
	r := newCodexRig(t)
	r.startDaemon(nil)
	c := r.newCodex(t, false)
	const work = "read the logs"
	answerCodexCycle(c.API())
	c.API().Handle(work, fakeopenai.Reply{Chunks: slowCodexReply("the logs", codexStreamPauses...)})

	c.attach("agent=codex")
	c.Type(work)
	update := c.waitRequest(codexStepIs(stepUpdate), "the update prompt", cycleTimeout)
	events := c.Events()
	st := c.status()

	workStart := c.mustHook(events, "UserPromptSubmit", c.start, "the work prompt", promptHas(work))
	workStop := c.mustHook(events, "Stop", workStart.At, "the work turn", nil)
	c.checkNothingTypedDuring(workStart.At, workStop.At, "the streamed reply",
		func(p string) bool { return strings.Contains(p, work) })
	// The stream showed no status row, only the title's spinner, for most
	// of its length: the stretch the test is about.
	if quiet := longestRun(c.mon.between(workStart.At, workStop.At), func(s sample) bool { return s.Spinner && !s.Busy }); quiet < 8*time.Second {
		t.Errorf("the screen showed the title spinner without a status row for %s at most, want most of the %s stream: the test did not cover a silent stream",
			quiet, codexStreamPauses[0]+codexStreamPauses[1])
	}
	if quiet := update.At.Sub(workStop.At); quiet < completionConfirm {
		t.Errorf("the update prompt reached the model %s after Stop, want at least completion_confirm (%s)", quiet, completionConfirm)
	}
	if got := codexSteps(c.API().Requests()); len(got) == 0 || got[0] != stepUpdate {
		t.Errorf("codeman's steps reached the model as %q, want the update prompt first", got)
	}
	if st.HooksActive {
		t.Errorf("codeman's hooks ran, want none: the test is of the screen and the stream alone")
	}
	c.checkTimeline()
}

// longestRun returns the longest span of consecutive samples that cond
// accepts.
func longestRun(samples []sample, cond func(sample) bool) time.Duration {
	var longest time.Duration
	var from time.Time
	for i, s := range samples {
		if !cond(s) {
			from = time.Time{}
			continue
		}
		if from.IsZero() {
			from = s.At
		}
		if i+1 == len(samples) || !cond(samples[i+1]) {
			longest = max(longest, s.At.Sub(from))
		}
	}
	return longest
}

// codexLeftAlone is how long the approval prompt is left open: longer
// than two rounds of no_output_timeout, the hook window and
// completion_confirm after it.
const codexLeftAlone = 2*codexNoOutputTimeout + hookWindow + completionConfirm + time.Second

// approvalCommand is the command Codex asks to run outside its sandbox.
const approvalCommand = "rm -rf ./build-output"

// openCodexApproval starts Codex with codeman's hooks on a pane of a
// daemon of its own and has it ask to run approvalCommand outside its
// sandbox, returning once the approval prompt shows.
func openCodexApproval(t *testing.T) (*rig, *codexPane) {
	t.Helper()
	r := newCodexRig(t)
	r.startDaemon(nil)
	c := r.newCodex(t, true)
	const work = "clean the build"
	answerCodexCycle(c.API())
	c.API().Handle(work, fakeopenai.Reply{
		Text: "I'll remove the build output.",
		Tool: fakeopenai.EscalatedShell(approvalCommand, "Delete the build output outside the sandbox"),
	})
	c.attach("agent=codex")
	c.Type(work)
	c.WaitFor(codextest.ApprovalOpen, "the approval prompt", 30*time.Second)
	return r, c
}

// Codex asks to run a command outside its sandbox; codeman, with its hooks
// installed, leaves the approval prompt alone however long it stays open
// (no Enter, no y: either would approve), and the pane's status says a
// person must give permission.
func TestCodex_ApprovalLeftAlone(t *testing.T) {
	t.Parallel()
	_, c := openCodexApproval(t)
	opened := time.Now()
	before := len(c.API().Requests())

	// The point of the test: nothing happens for this long, so sleep
	// through it once.
	time.Sleep(codexLeftAlone)

	if reqs := c.API().Requests(); len(reqs) != before {
		t.Errorf("%d request(s) reached the model after the prompt opened:\n%s", len(reqs)-before, describeCodexRequests(c.start, reqs[before:]))
	}
	if screen := c.Capture(); !codextest.ApprovalOpen(screen) {
		t.Errorf("the approval prompt is gone from the screen:\n%s", screen)
	}
	for _, s := range c.mon.between(opened, time.Now()) {
		if !s.Dialog || s.Busy {
			t.Errorf("screen at %s: dialog=%t busy=%t, want the prompt open all along", rel(c.start, s.At), s.Dialog, s.Busy)
			break
		}
	}
	events := c.Events()
	asked := c.mustHook(events, "PermissionRequest", c.start, "the approval prompt", fieldIs("tool_name", "Bash"))
	for _, name := range []string{"PostToolUse", "Stop", "Interrupt"} {
		if e, ok := findHook(events, name, asked.At, nil); ok {
			t.Errorf("Codex ran its %s hook at %s while the prompt was open: it was answered", name, rel(c.start, e.At))
		}
	}
	st := c.status()
	if ds := sends(st.Status.Decisions); len(ds) != 0 {
		t.Errorf("codeman sent %v", ds)
	}
	if st.Status.Cycles != 0 {
		t.Errorf("%d cycle(s) started", st.Status.Cycles)
	}
	if n := st.Status.NeedsYou; n == nil || n.Kind != respawn.NeedPermission {
		t.Errorf("needs you = %+v, want %s", n, respawn.NeedPermission)
	}
	if !st.HooksActive {
		t.Errorf("codeman's hooks never ran: the test did not cover the PermissionRequest hook")
	}

	// The person declines with Esc: Codex reports the interrupt and no
	// PostToolUse, and the need goes with the prompt, not minutes later.
	c.SendKeys("Escape")
	c.WaitForEvent(codextest.Hook("Interrupt", asked.At), "the declined prompt's Interrupt hook", 10*time.Second)
	c.waitPane("the need to clear once the prompt was declined", 10*time.Second, func(st api.PaneStatus) bool {
		return st.Status.NeedsYou == nil
	})
	c.checkTimeline()
}

// Attached without an agent (agent = auto), a pane running codex is read
// as Codex: the status names it and sees Codex's composer.
func TestCodex_Recognized(t *testing.T) {
	t.Parallel()
	r := newCodexRig(t)
	r.startDaemon(nil)
	c := r.newCodex(t, false)

	c.attach()
	if st := c.status(); st.Agent != "codex" {
		t.Fatalf("the pane's agent is %q, want codex (it runs %q)", st.Agent, st.Command)
	}
	c.waitPane("codeman to see Codex's composer", 10*time.Second, func(st api.PaneStatus) bool {
		return st.Status.Evidence.PromptBox
	})
}

// A person answers Codex's approval prompt through the daemon: approved,
// the command runs and its result reaches the model; the same need
// answered again types nothing.
func TestCodex_ApprovalAnswered(t *testing.T) {
	t.Parallel()
	r, c := openCodexApproval(t)
	st := c.waitPane("the approval with its options", 30*time.Second, func(st api.PaneStatus) bool {
		n := st.Status.NeedsYou
		return n != nil && n.Kind == respawn.NeedPermission && n.Ask != nil
	})
	need := st.Status.NeedsYou
	if !strings.Contains(need.Ask.Text, approvalCommand) {
		t.Errorf("the need asks %q, want the command %q", need.Ask.Text, approvalCommand)
	}
	asked := c.mustHook(c.Events(), "PermissionRequest", c.start, "the approval prompt", fieldIs("tool_name", "Bash"))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	got, err := r.client.Answer(ctx, api.AnswerRequest{Pane: c.Address(), Need: need.ID, Choice: "allow", From: "e2e"})
	if err != nil || got.Option != 1 {
		t.Fatalf("Answer = %+v, %v\noptions %q\n%s", got, err, need.Ask.Options, c.Capture())
	}
	c.WaitForEvent(codextest.Hook("PostToolUse", asked.At), "the approved command's PostToolUse hook", 30*time.Second)
	if _, err := r.client.Answer(ctx, api.AnswerRequest{Pane: c.Address(), Need: need.ID, Choice: "1", From: "e2e"}); err == nil || !strings.Contains(err.Error(), "answer refused") {
		t.Errorf("a second answer to need %s = %v, want refused", need.ID, err)
	}
}
