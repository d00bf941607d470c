package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/agents/copilot/copilothooks"
	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/hooks"
	"github.com/codeman-dev/codeman/internal/rig/copilottest"
	"github.com/codeman-dev/codeman/internal/rig/fakeopenai"
	"github.com/codeman-dev/codeman/internal/rig/wait"
	"github.com/codeman-dev/codeman/respawn"
)

// The GitHub Copilot CLI scenarios read the screen and the output stream,
// and in some codeman's hooks too, installed by the real `codeman hooks
// install --agent copilot`. Copilot's own record of its hooks
// (copilottest's recorder) is the judge of what it did.

// requireCopilotE2E skips the test unless the Copilot CLI is installed,
// naming what is missing. tmux is checked by the session.
func requireCopilotE2E(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("e2e: the real GitHub Copilot CLI is not run under -short")
	}
	if _, ok := copilottest.FindCopilot(); !ok {
		t.Skipf("e2e: GitHub Copilot CLI not found; run scripts/install-copilot.sh (installs %s under %s) or set CODEMAN_E2E_COPILOT",
			copilottest.Version, copilottest.InstallDir())
	}
}

// copilotConfig is config.toml of the Copilot scenarios' daemon: AI checks
// off, and the default update prompt, so that the one codeman types is the
// Copilot agent's own.
const copilotConfig = `# codeman config of the Copilot end-to-end tests.
[respawn.ai_idle_check]
enabled = false

[respawn.ai_plan_check]
enabled = false

[checks]
max_concurrent = 1
`

// copilotSets are the --set values of every Copilot attach: the agent, the
// short timings of the other scenarios and their kickstart prompt.
var copilotSets = []string{
	"agent=copilot",
	"completion_confirm=" + completionConfirm.String(),
	"no_output_timeout=" + codexNoOutputTimeout.String(),
	"inter_step_delay=" + interStepDelay.String(),
	"kickstart_prompt=" + kickstartPrompt,
}

// What Copilot's requests carry for codeman's steps: the Copilot agent's
// update prompt names .github/copilot-instructions.md, and /init's
// generated prompt starts with copilotInitPrompt (docs/copilot.md,
// "Commands of a cycle").
const (
	copilotUpdateMarker = "progress summary to .github/copilot-instructions.md"
	copilotInitPrompt   = "Analyze this codebase and create a .github/copilot-instructions.md file"
)

// newCopilotRig is a rig for the Copilot scenarios.
func newCopilotRig(t *testing.T) *rig {
	t.Helper()
	requireCopilotE2E(t)
	return newRigWithConfig(t, copilotConfig)
}

// copilotPane is one real Copilot CLI under test, with the timeline of its
// screen.
type copilotPane struct {
	*copilottest.Session
	t     *testing.T
	rig   *rig
	mon   *monitor
	start time.Time // times in failure dumps count from here
}

// newCopilot starts Copilot in a trusted project with its own hook calls
// recorded and args on its command line and, when withHooks, codeman's
// hooks installed into its COPILOT_HOME before it starts.
func (r *rig) newCopilot(t *testing.T, withHooks bool, args ...string) *copilotPane {
	t.Helper()
	opts := copilottest.Options{
		RecordHooks: true, Screen: r.screen, Args: args,
		// The handler writes its markers into the spool under the
		// daemon's runtime dir; Copilot passes its environment on to hook
		// commands.
		Env: []string{"XDG_RUNTIME_DIR=" + r.env["XDG_RUNTIME_DIR"]},
	}
	if withHooks {
		bin := buildCodeman(t)
		opts.Setup = func(home string) error { return r.installCopilotHooks(t, bin, home) }
	}
	start := time.Now()
	s := copilottest.NewSession(t, opts)
	c := &copilotPane{Session: s, t: t, rig: r, start: start}
	socket, pane := s.Socket(), s.PaneID()
	c.mon = watchWith(t, func(at time.Time) (sample, error) {
		screen, err := capturePane(socket, pane)
		if err != nil {
			return sample{}, err
		}
		return readCopilotSample(at, screen), nil
	})
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("e2e: %s at the end:\n%s", c.Address(), c.dump())
		}
	})
	return c
}

// installCopilotHooks runs `codeman hooks install --agent copilot` of the
// codeman binary bin with COPILOT_HOME set to home, as a person would
// before starting Copilot, and checks that the hooks run the codeman-hook
// beside bin with the event's name.
func (r *rig) installCopilotHooks(t *testing.T, bin, home string) error {
	cmd := exec.Command(bin, "hooks", "install", "--agent", "copilot")
	cmd.Env = append(r.environ(), "COPILOT_HOME="+home)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("codeman hooks install --agent copilot: %v\n%s", err, out)
	}
	t.Logf("codeman hooks install --agent copilot:\n%s", out)
	data, err := os.ReadFile(copilothooks.HooksPath(home))
	if err != nil {
		return err
	}
	handler := filepath.Join(filepath.Dir(bin), hooks.HandlerName)
	if want := handler + " agentStop"; !strings.Contains(string(data), want) {
		return fmt.Errorf("%s does not run %q:\n%s", copilothooks.HooksPath(home), want, data)
	}
	return nil
}

// attach enables codeman on the pane with copilotSets and extra --set
// values, as `codeman attach --set ...` does.
func (c *copilotPane) attach(extra ...string) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), apiCallTimeout)
	defer cancel()
	req := api.AttachRequest{Pane: c.Address(), Sets: append(slices.Clone(copilotSets), extra...)}
	if _, err := c.rig.client.Attach(ctx, req); err != nil {
		c.t.Fatalf("attach %s: %v", c.Address(), err)
	}
}

// status returns the pane's status, failing the test when the daemon does
// not answer.
func (c *copilotPane) status() api.PaneStatus {
	c.t.Helper()
	st, err := c.rig.pane(c.Address())
	if err != nil {
		c.t.Fatalf("status of %s: %v", c.Address(), err)
	}
	return st
}

// waitPane polls the pane's status until cond holds and returns it.
func (c *copilotPane) waitPane(what string, timeout time.Duration, cond func(api.PaneStatus) bool) api.PaneStatus {
	c.t.Helper()
	var st api.PaneStatus
	var statusErr error
	// The status has no event to wait on.
	if err := wait.Until(what, timeout, func() bool {
		st, statusErr = c.rig.pane(c.Address())
		return statusErr == nil && cond(st)
	}); err != nil {
		c.t.Fatalf("%v (last error: %v)", err, statusErr)
	}
	return st
}

// waitRequest returns the first request, past or future, that pred
// accepts.
func (c *copilotPane) waitRequest(pred func(fakeopenai.Request) bool, what string, timeout time.Duration) fakeopenai.Request {
	c.t.Helper()
	return awaitRequest(c.t, c.API().WaitForRequest, pred, what, timeout)
}

// copilotTurn reports a request that starts a turn: not a retry or a tool
// loop continuation.
func copilotTurn(r fakeopenai.Request) bool {
	return r.Path == "/v1/responses" && !r.Retry && !r.ToolOutput
}

// copilotTypedBy names codeman's step whose text starts the request, or "".
func copilotTypedBy(r fakeopenai.Request) string {
	if !copilotTurn(r) {
		return ""
	}
	return stepOfText(typedText(r.LastUserText), copilotUpdateMarker, copilotInitPrompt)
}

// typedText drops what Copilot puts before every user message it sends,
// `<current_datetime>…</current_datetime>` and a blank line.
func typedText(text string) string {
	if _, rest, ok := strings.Cut(text, "</current_datetime>"); ok {
		return strings.TrimSpace(rest)
	}
	return text
}

// copilotStepIs returns a WaitForRequest predicate: a request started by
// step.
func copilotStepIs(step string) func(fakeopenai.Request) bool { return stepIsOf(copilotTypedBy, step) }

// copilotSteps lists codeman's steps that reached the model, in order.
func copilotSteps(reqs []fakeopenai.Request) []string { return stepsOf(reqs, copilotTypedBy) }

// mustHook returns Copilot's first call of the named hook after since that
// match accepts (nil accepts any), failing the test when there is none.
func (c *copilotPane) mustHook(events []copilottest.Event, name string, since time.Time, what string, match func(copilottest.Event) bool) copilottest.Event {
	c.t.Helper()
	return mustFindHook(c.t, c.start, events, name, since, what, match)
}

// mainAgent accepts a hook call of the main agent, not a subagent's.
func mainAgent(e copilottest.Event) bool { return e.Field("agentId") == "" }

// answerCopilotCycle scripts plain-text answers to every step of a cycle,
// so no step asks for a permission codeman would have to leave alone.
func answerCopilotCycle(api *fakeopenai.Server) {
	api.Handle(copilotUpdateMarker, fakeopenai.Reply{Text: "Progress noted in .github/copilot-instructions.md."})
	api.Handle(copilotInitPrompt, fakeopenai.Reply{Text: "The instructions already describe this project; nothing to change."})
	api.Handle(kickstartPrompt, fakeopenai.Reply{Text: "Picking up the next task."})
}

// checkNothingTypedDuring fails the test when anything of codeman's shows
// up between from and to, a span in which Copilot worked on what: a send
// decision, a prompt submitted (Copilot's hook) other than those ownPrompt
// allows, or a request started by one of codeman's steps.
func (c *copilotPane) checkNothingTypedDuring(from, to time.Time, what string, ownPrompt func(string) bool) {
	c.t.Helper()
	t := c.t
	in := func(at time.Time) bool { return !at.Before(from) && !at.After(to) }
	for _, d := range sends(c.status().Status.Decisions) {
		if in(d.At) {
			t.Errorf("codeman sent at %s, while Copilot worked on %s (%s to %s): %s", rel(c.start, d.At), what, rel(c.start, from), rel(c.start, to), d)
		}
	}
	for _, e := range c.Events() {
		if e.Name == "userPromptSubmitted" && in(e.At) && !ownPrompt(e.Field("prompt")) {
			t.Errorf("prompt %q submitted at %s, while Copilot worked on %s", clip(e.Field("prompt"), 60), rel(c.start, e.At), what)
		}
	}
	for _, r := range c.API().Requests() {
		if step := copilotTypedBy(r); step != "" && in(r.At) {
			t.Errorf("codeman's %s reached the model at %s, while Copilot worked on %s", step, rel(c.start, r.At), what)
		}
	}
}

// checkHooks fails the test unless the pane's status is Copilot's with
// codeman's hooks seen when withHooks, and without when codeman read the
// screen alone.
func (c *copilotPane) checkHooks(st api.PaneStatus, withHooks bool) {
	c.t.Helper()
	if st.Agent != "copilot" || st.HooksActive != withHooks || (withHooks && st.LastHook == "") {
		c.t.Errorf("the pane's agent is %q with hooks active %t (last hook %q), want copilot with hooks active %t",
			st.Agent, st.HooksActive, st.LastHook, withHooks)
	}
}

// hookDecisions returns the decisions that record a hook marker of the
// kind (hooks/spool's name: stop, permission_prompt) reaching the pane's
// controller.
func hookDecisions(ds []respawn.Decision, kind string) []respawn.Decision {
	var out []respawn.Decision
	for _, d := range ds {
		if d.Kind == respawn.DecisionHook && (d.Reason == "hook "+kind || strings.HasPrefix(d.Reason, "hook "+kind+" (")) {
			out = append(out, d)
		}
	}
	return out
}

// staleStops returns the decisions that set a Stop hook aside as stale.
func staleStops(ds []respawn.Decision) []respawn.Decision {
	var out []respawn.Decision
	for _, d := range ds {
		if d.Kind == respawn.DecisionSkip && strings.HasPrefix(d.Reason, "hook stop is stale") {
			out = append(out, d)
		}
	}
	return out
}

// checkTimeline runs the checks every scenario ends with: nothing typed
// into the pane while Copilot worked, and every send of codeman's made on
// an idle screen.
func (c *copilotPane) checkTimeline() {
	c.t.Helper()
	c.mon.checkNoTypingWhileBusy(c.t, c.start)
	c.mon.checkSends(c.t, c.start, sends(c.status().Status.Decisions))
}

// readCopilotSample classifies one look at Copilot's pane (docs/copilot.md,
// "The screen"): its last row says whether a turn works.
func readCopilotSample(at time.Time, screen string) sample {
	s := sample{
		At:     at,
		Busy:   copilottest.Working(screen),
		Dialog: copilottest.DialogOpen(screen),
		Plan:   strings.Contains(screen, "Plan Ready for Review"),
	}
	if !s.Dialog {
		s.Input = copilotBox(screen)
	}
	// Enter while a turn works queues the text, echoed with this mark.
	s.Queued = strings.Contains(screen, "[pending · ↑ recall]")
	return s
}

// boxReach is how many rows from the bottom the prompt box's "❯" row may
// be: the footer, the rule under the box, a few rows of text.
const boxReach = 8

// copilotBox returns the text in Copilot's prompt box, "" when it is empty
// or not found: the box's rows start with "❯" in the first column, the
// transcript's echoes with a space.
func copilotBox(screen string) string {
	lines := strings.Split(strings.TrimRight(screen, "\n "), "\n")
	for i := len(lines) - 1; i >= max(0, len(lines)-boxReach); i-- {
		if rest, ok := strings.CutPrefix(lines[i], "❯"); ok {
			return strings.TrimSpace(rest)
		}
	}
	return ""
}

// dump describes the session for a failed test: the screen, codeman's
// view of the pane, the request log, Copilot's hook log, the screen
// timeline and the daemon log.
func (c *copilotPane) dump() string {
	screen, err := capturePane(c.Socket(), c.PaneID())
	if err != nil {
		screen = err.Error()
	}
	return c.rig.dumpSession(c.Address(), c.start, c.mon, sessionLogs{
		screenHeading: fmt.Sprintf("screen of %s", c.Address()),
		screen:        screen,
		requests:      describeCodexRequests(c.start, c.API().Requests()),
		agent:         "Copilot",
		hooks:         describeHooks(c.start, c.Events()),
	})
}
