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
	"github.com/codeman-dev/codeman/internal/rig/copilottest"
	"github.com/codeman-dev/codeman/internal/rig/fakeopenai"
	"github.com/codeman-dev/codeman/respawn"
)

// copilotToolRuns is how long the work turn's command runs.
const copilotToolRuns = 4 * time.Second

// copilotToolRun runs for copilotToolRuns. Copilot asks before any
// command; the session allows this one on its command line
// (--allow-tool), since codeman answers no permission prompt.
var copilotToolRun = &fakeopenai.ToolCall{Name: "bash", Arguments: map[string]any{"command": "sleep 4", "description": "Wait for the build"}}

// copilotAllowSleep is the session's argument that lets copilotToolRun
// through without a prompt.
const copilotAllowSleep = "--allow-tool=shell(sleep)"

// A turn that streams slowly and runs a command ends; codeman, reading
// only the screen and the output stream, then types the update prompt
// naming .github/copilot-instructions.md, /clear, /init and the kickstart
// prompt, each once the turn before it ended, and nothing while the turn
// ran.
func TestCopilotCycle_AfterSlowTurn(t *testing.T) {
	t.Parallel()
	copilotCycleAfterSlowTurn(t, false, false)
}

// TestCopilotCycle_AfterSlowTurn with codeman's hooks, installed by
// `codeman hooks install --agent copilot` into the session's COPILOT_HOME:
// the daemon reads agentStop as the turn's end, and still types nothing
// while the turn streams or its command runs.
func TestCopilotCycle_WithHooks(t *testing.T) {
	t.Parallel()
	copilotCycleAfterSlowTurn(t, false, true)
}

// copilotCycleAfterSlowTurn is the cycle scenario, with Copilot in a tmux
// pane or, inScreen, in a GNU screen window, and codeman reading the
// screen alone or, withHooks, its hooks too.
func copilotCycleAfterSlowTurn(t *testing.T, inScreen, withHooks bool) {
	r := newCopilotRig(t)
	r.screen = inScreen
	r.startDaemon(nil)
	c := r.newCopilot(t, withHooks, copilotAllowSleep)
	const work = "build the release"
	answerCopilotCycle(c.API())
	c.API().Handle(work, fakeopenai.Reply{
		Chunks: slowCodexReply("the release", 3*time.Second), Tool: copilotToolRun,
		Next: &fakeopenai.Reply{Chunks: slowCodexReply("the build output", 3*time.Second)},
	})

	c.attach()
	c.Type(work)
	kickstart := c.waitRequest(copilotStepIs(stepKickstart), "the kickstart prompt", cycleTimeout)
	c.WaitFor(copilottest.Replied("Picking up the next task."), "the kickstart turn to end", 30*time.Second)
	reqs := c.API().Requests()
	events := c.Events()
	st := c.status()

	if got := copilotSteps(reqs); !slices.Equal(got, []string{stepUpdate, stepInit, stepKickstart}) {
		t.Errorf("codeman's steps reached the model as %q, want update, init, kickstart", got)
	}
	workStart := c.mustHook(events, "userPromptSubmitted", c.start, "the work prompt", promptHas(work))
	toolStart := c.mustHook(events, "preToolUse", workStart.At, "the command", fieldIs("toolName", "bash"))
	toolEnd := c.mustHook(events, "postToolUse", toolStart.At, "the command", fieldIs("toolName", "bash"))
	workStop := c.mustHook(events, "agentStop", toolEnd.At, "the work turn", mainAgent)
	if ran := toolEnd.At.Sub(toolStart.At); ran < copilotToolRuns-500*time.Millisecond {
		t.Errorf("the command ran %s, want about %s: the test did not cover a running command", ran, copilotToolRuns)
	}
	// Copilot runs permissionRequest for the allowed command too, but
	// shows no prompt, and no person is needed.
	if i := slices.IndexFunc(c.mon.between(workStart.At, workStop.At), func(s sample) bool { return s.Dialog }); i >= 0 {
		t.Errorf("a dialog showed during the work turn: the command was to run without asking")
	}
	c.mustHook(events, "permissionRequest", toolStart.At, "the allowed command", fieldIs("toolName", "bash"))
	if i := slices.IndexFunc(st.Status.Decisions, func(d respawn.Decision) bool {
		return d.Kind == respawn.DecisionWait && strings.HasPrefix(d.Reason, "needs a person")
	}); i >= 0 {
		t.Errorf("codeman raised a need at %s with nothing to answer: %s", rel(c.start, st.Status.Decisions[i].At), st.Status.Decisions[i])
	}
	c.checkNothingTypedDuring(workStart.At, workStop.At, "the streamed reply and the command",
		func(p string) bool { return strings.Contains(p, work) })
	if turn := c.mon.between(workStart.At, workStop.At); !slices.ContainsFunc(turn, sample.working) {
		t.Errorf("the screen never showed Copilot working during the turn: the timeline is blind")
	}

	update := mustFind(t, reqs, copilotStepIs(stepUpdate), "the update prompt")
	initReq := mustFind(t, reqs, copilotStepIs(stepInit), "/init")
	if quiet := update.At.Sub(workStop.At); quiet < completionConfirm {
		t.Errorf("the update prompt reached the model %s after agentStop, want at least completion_confirm (%s)", quiet, completionConfirm)
	}
	// /clear ends the session (sessionEnd); /init's prompt starts a new one.
	updateStop := c.mustHook(events, "agentStop", update.At, "the update turn", mainAgent)
	ended := c.mustHook(events, "sessionEnd", updateStop.At, "/clear", nil)
	fresh := c.mustHook(events, "sessionStart", ended.At, "the session after /clear", fieldIs("source", "new"))
	initStop := c.mustHook(events, "agentStop", initReq.At, "the /init turn", mainAgent)
	checkOrder(t, c.start, moment{"the work turn's agentStop", workStop.At}, moment{"the update prompt", update.At},
		moment{"the update turn's agentStop", updateStop.At}, moment{"/clear's sessionEnd", ended.At},
		moment{"the session after /clear", fresh.At}, moment{"/init", initReq.At},
		moment{"the /init turn's agentStop", initStop.At}, moment{"the kickstart prompt", kickstart.At})
	if quiet := kickstart.At.Sub(initStop.At); quiet < completionConfirm {
		t.Errorf("the kickstart prompt reached the model %s after /init's agentStop, want at least completion_confirm (%s)", quiet, completionConfirm)
	}

	want := []respawn.Step{respawn.StepUpdate, respawn.StepClear, respawn.StepInit, respawn.StepKickstart}
	ds := sends(st.Status.Decisions)
	if got := sendSteps(ds); !slices.Equal(got, want) {
		t.Errorf("codeman sent %q, want %q", got, want)
	} else if ds[1].Text != "/clear" || ds[2].Text != "/init" || !strings.Contains(ds[0].Text, ".github/copilot-instructions.md") {
		t.Errorf("codeman typed %q, %q, %q: want the update prompt naming .github/copilot-instructions.md, /clear and /init", ds[0].Text, ds[1].Text, ds[2].Text)
	}
	c.checkHooks(st, withHooks)
	if inScreen && !strings.HasPrefix(st.Mode, "hardcopy") {
		t.Errorf("the daemon reads the screen window's output by %q, want its hardcopy poller", st.Mode)
	}
	if withHooks {
		// Each turn's agentStop reached the daemon before what followed it
		// was typed: the work turn's before the update prompt, the update
		// turn's before /clear and /init, /init's before the kickstart. A
		// Stop the core set aside as stale (the turn's last spinner frame
		// was read a few ms after the hook's time) reached it all the
		// same: the screen and the silence carried the step on.
		stops := append(hookDecisions(st.Status.Decisions, "stop"), staleStops(st.Status.Decisions)...)
		for i, d := range ds {
			n := 0
			for _, h := range stops {
				if h.At.Before(d.At) {
					n++
				}
			}
			if want := []int{1, 2, 2, 3}[min(i, 3)]; n < want {
				t.Errorf("codeman typed %s at %s after %d stop hook(s), want %d: a turn's agentStop did not reach it first", d.Step, rel(c.start, d.At), n, want)
			}
		}
	}
	c.checkTimeline()
}

// copilotLeftAlone is how long the permission prompt is left open: longer
// than two rounds of no_output_timeout, the hook window and
// completion_confirm after it.
const copilotLeftAlone = 2*codexNoOutputTimeout + hookWindow + completionConfirm + time.Second

// Copilot asks to run a command; codeman leaves the permission prompt
// alone however long it stays open (its Enter and its digits approve), and
// the pane's status says a person must give permission. The person's Esc
// refuses it, and the need goes with the prompt.
func TestCopilot_PermissionLeftAlone(t *testing.T) {
	t.Parallel()
	copilotPermissionLeftAlone(t, false, false)
}

// TestCopilot_PermissionLeftAlone with codeman's hooks: the
// permissionRequest hook raises the need, and the prompt is left alone
// all the same. The person approves: postToolUse ends the need, and the
// cycle follows the turn's agentStop.
func TestCopilot_PermissionLeftAloneWithHooks(t *testing.T) {
	t.Parallel()
	copilotPermissionLeftAlone(t, false, true)
}

// copilotPermissionLeftAlone is the permission scenario, with Copilot in
// a tmux pane or, inScreen, in a GNU screen window, and codeman reading
// the screen alone or, withHooks, its hooks too.
func copilotPermissionLeftAlone(t *testing.T, inScreen, withHooks bool) {
	r := newCopilotRig(t)
	r.screen = inScreen
	r.startDaemon(nil)
	c := r.newCopilot(t, withHooks)
	const work = "clean the build"
	answerCopilotCycle(c.API())
	c.API().Handle(work, fakeopenai.Reply{
		Text: "I'll remove the build output.",
		Tool: &fakeopenai.ToolCall{Name: "bash", Arguments: map[string]any{"command": "touch cleaned.txt", "description": "Mark the build clean"}},
		Next: &fakeopenai.Reply{Text: "The build is clean."},
	})
	c.attach()
	c.Type(work)
	c.WaitFor(copilottest.ShellPermissionOpen, "the permission prompt", 30*time.Second)
	opened := time.Now()
	before := len(c.API().Requests())

	// The point of the test: nothing happens for this long, so sleep
	// through it once.
	time.Sleep(copilotLeftAlone)

	if reqs := c.API().Requests(); len(reqs) != before {
		t.Errorf("%d request(s) reached the model after the prompt opened:\n%s", len(reqs)-before, describeCodexRequests(c.start, reqs[before:]))
	}
	if screen := c.Capture(); !copilottest.ShellPermissionOpen(screen) {
		t.Errorf("the permission prompt is gone from the screen:\n%s", screen)
	}
	for _, s := range c.mon.between(opened, time.Now()) {
		if !s.Dialog || s.Busy {
			t.Errorf("screen at %s: dialog=%t busy=%t, want the prompt open all along", rel(c.start, s.At), s.Dialog, s.Busy)
			break
		}
	}
	events := c.Events()
	asked := c.mustHook(events, "permissionRequest", c.start, "the permission prompt", fieldIs("toolName", "bash"))
	for _, name := range []string{"postToolUse", "agentStop"} {
		if e, ok := findHook(events, name, asked.At, nil); ok {
			t.Errorf("Copilot ran its %s hook at %s while the prompt was open: it was answered", name, rel(c.start, e.At))
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
	c.checkHooks(st, withHooks)
	if !withHooks {
		c.SendKeys("Escape")
		c.WaitFor(copilottest.PromptReady, "the idle box after the refused prompt", 30*time.Second)
		c.waitPane("the need to clear once the prompt was refused", 30*time.Second, func(st api.PaneStatus) bool {
			return st.Status.NeedsYou == nil
		})
		c.checkTimeline()
		return
	}
	if len(hookDecisions(st.Status.Decisions, "permission_prompt")) == 0 {
		t.Errorf("no permission_prompt hook reached codeman: the need was not raised by the hooks")
	}
	// Esc runs no hook of Copilot's, and codeman holds a dialog a hook
	// announced until the screen has shown the prompt box for
	// hookDialogExpiry (10 min): the refusal is the screen-only scenario's.
	c.SendKeys("Enter")
	done := c.WaitForEvent(copilottest.Hook("postToolUse", asked.At), "the approved command's postToolUse hook", 30*time.Second)
	c.waitPane("the need to clear once the prompt was approved", 30*time.Second, func(st api.PaneStatus) bool {
		return st.Status.NeedsYou == nil
	})
	update := c.waitRequest(copilotStepIs(stepUpdate), "the update prompt after the approved turn", cycleTimeout)
	stop := c.mustHook(c.Events(), "agentStop", done.At, "the approved turn", mainAgent)
	if quiet := update.At.Sub(stop.At); quiet < completionConfirm {
		t.Errorf("the update prompt reached the model %s after the approved turn's agentStop, want at least completion_confirm (%s)", quiet, completionConfirm)
	}
	c.checkNothingTypedDuring(c.start, stop.At, "the prompt and the approved turn",
		func(p string) bool { return strings.Contains(p, work) })
	c.checkTimeline()
}

// copilotBackoff is the Copilot API error scenario's api_error_backoff:
// the least respawn accepts.
const copilotBackoff = 10 * time.Second

// Every request of the work turn is answered 500 until the test lets them
// through: Copilot retries five times, prints its "✗ Failed to get
// response" row and runs no agentStop. codeman types nothing for
// api_error_backoff, then the resume prompt once; that turn ends normally
// and the cycle goes on with the update prompt.
func TestCopilot_APIErrorWaitedOut(t *testing.T) {
	t.Parallel()
	r := newCopilotRig(t)
	r.startDaemon(nil)
	c := r.newCopilot(t, false)
	const work = "migrate the schema"
	var through atomic.Bool
	c.API().HandleFunc(func(fakeopenai.Request) (fakeopenai.Reply, bool) {
		return fakeopenai.Reply{Status: http.StatusInternalServerError}, !through.Load()
	})
	answerCopilotCycle(c.API())
	c.API().Handle(resumePrompt, fakeopenai.Reply{Text: "Picked the migration up again; it is done."})

	c.attach("resume_prompt="+resumePrompt, "api_error_backoff="+copilotBackoff.String())
	c.Type(work)
	c.WaitFor(clitest.Matches(copilottest.APIErrorLine), "the API error", 60*time.Second)
	failedAt := time.Now()
	through.Store(true)
	resume := c.waitRequest(func(r fakeopenai.Request) bool { return copilotTypedBy(r) != "" },
		"codeman's first step", codexNoOutputTimeout+copilotBackoff+30*time.Second)
	if step := copilotTypedBy(resume); step != stepResume {
		t.Fatalf("codeman's %s step reached the model first, want the resume prompt", step)
	}
	update := c.waitRequest(copilotStepIs(stepUpdate), "the update prompt after the resumed turn", cycleTimeout)
	reqs := c.API().Requests()
	events := c.Events()
	st := c.status()

	workStart := c.mustHook(events, "userPromptSubmitted", c.start, "the work prompt", promptHas(work))
	c.mustHook(events, "errorOccurred", workStart.At, "the failed model call", nil)
	if e, ok := findHook(events, "agentStop", workStart.At, func(e copilottest.Event) bool { return e.At.Before(resume.At) }); ok {
		t.Errorf("an agentStop came at %s, before the resume: the failed turn ended normally", rel(c.start, e.At))
	}
	if waited := resume.At.Sub(failedAt); waited < copilotBackoff-time.Second {
		t.Errorf("the resume prompt reached the model %s after the error showed, want about api_error_backoff (%s)", waited, copilotBackoff)
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
	for _, r := range reqs {
		if copilotTurn(r) && r.At.After(reqs[lastFailed].At) && r.At.Before(resume.At) {
			t.Errorf("a turn reached the model at %s, during the backoff: %q", rel(c.start, r.At), clip(r.LastUserText, 60))
		}
	}
	if got := copilotSteps(reqs); len(got) < 2 || !slices.Equal(got[:2], []string{stepResume, stepUpdate}) || slices.Index(got[1:], stepResume) >= 0 {
		t.Errorf("codeman's steps reached the model as %q, want one resume, then the update prompt", got)
	}
	resumeStop := c.mustHook(events, "agentStop", resume.At, "the resumed turn", mainAgent)
	if quiet := update.At.Sub(resumeStop.At); quiet < completionConfirm {
		t.Errorf("the update prompt reached the model %s after the resumed turn's agentStop, want at least completion_confirm (%s)", quiet, completionConfirm)
	}
	ds := st.Status.Decisions
	sent := sends(ds)
	if got := sendSteps(ds); len(got) < 2 || got[0] != respawn.StepResume || got[1] != respawn.StepUpdate {
		t.Fatalf("codeman sent %q, want the resume prompt, then the update prompt", got)
	}
	c.checkNothingTypedDuring(workStart.At, sent[0].At.Add(-time.Millisecond), "the failed turn and the backoff",
		func(p string) bool { return strings.Contains(p, work) })
	if i := slices.IndexFunc(ds, isWaitOn("waiting out API error")); i < 0 {
		t.Error("no decision says codeman waits out the API error")
	} else if waited := sent[0].At.Sub(ds[i].At); waited < copilotBackoff {
		t.Errorf("codeman typed the resume prompt %s after it began to wait, want at least api_error_backoff (%s)", waited, copilotBackoff)
	}
	c.checkTimeline()
}
