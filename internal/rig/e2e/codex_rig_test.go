package e2e

import (
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/codeman-dev/codeman/agents/codex/codexhooks"
	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/internal/rig/codextest"
	"github.com/codeman-dev/codeman/internal/rig/fakeopenai"
	"github.com/codeman-dev/codeman/internal/rig/wait"
)

// requireCodexE2E skips the test unless everything a Codex end-to-end run
// needs is here, naming what is missing, and returns the CLI's path.
func requireCodexE2E(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("e2e: the real Codex CLI is not run under -short")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("e2e: tmux not found in PATH")
	}
	codex, ok := codextest.FindCodex()
	if !ok {
		t.Skipf("e2e: OpenAI Codex CLI not found; run scripts/install-codex.sh (installs %s under %s) or set CODEMAN_E2E_CODEX",
			codextest.Version, codextest.InstallDir())
	}
	return codex
}

// codexConfig returns config.toml of the Codex scenarios' daemon: AI
// checks off, and the default update prompt, so that the one codeman
// types is the Codex agent's own (naming AGENTS.md). The timings come
// with each attach, as `codeman attach --set` passes them (codexSets).
func codexConfig(codexPath string) string {
	return fmt.Sprintf(`# codeman config of the Codex end-to-end tests.
[respawn.ai_idle_check]
enabled = false

[respawn.ai_plan_check]
enabled = false

[checks]
codex_path = %q
max_concurrent = 1
`, codexPath)
}

// codexNoOutputTimeout is the Codex scenarios' no_output_timeout: shorter
// than the Claude ones', since Codex needs no time for startup hints to
// fade.
const codexNoOutputTimeout = 5 * time.Second

// codexSets are the --set values of every Codex attach: the short
// timings of the Claude scenarios and their kickstart prompt.
var codexSets = []string{
	"completion_confirm=" + completionConfirm.String(),
	"no_output_timeout=" + codexNoOutputTimeout.String(),
	"inter_step_delay=" + interStepDelay.String(),
	"kickstart_prompt=" + kickstartPrompt,
}

// What Codex's requests carry for codeman's steps: the update prompt of
// the Codex agent names AGENTS.md, and /init's generated prompt starts
// with codexInitPrompt (docs/codex.md).
const (
	codexUpdateMarker = "progress summary to AGENTS.md"
	codexInitPrompt   = "Generate a file named AGENTS.md that serves as a contributor guide"
)

// newCodexRig is a rig for the Codex scenarios.
func newCodexRig(t *testing.T) *rig {
	t.Helper()
	return newRigWithConfig(t, codexConfig(requireCodexE2E(t)))
}

// codexPane is one real Codex CLI under test, with the timeline of its
// screen and title.
type codexPane struct {
	*codextest.Session
	t     *testing.T
	rig   *rig
	mon   *monitor
	start time.Time // times in failure dumps count from here
}

// newCodex starts Codex with its own hook calls recorded (codextest's
// recorder) and, when withHooks, codeman's hooks installed by
// agents/codex/codexhooks, trusted, running the rig's handler.
func (r *rig) newCodex(t *testing.T, withHooks bool) *codexPane {
	t.Helper()
	start := time.Now()
	// The handler writes its markers into the spool under the daemon's
	// runtime dir; Codex passes its environment on to hook commands.
	s := codextest.NewSession(t, codextest.Options{
		RecordHooks: true,
		Env:         []string{"XDG_RUNTIME_DIR=" + r.env["XDG_RUNTIME_DIR"]},
		Screen:      r.screen,
	})
	if withHooks {
		// Codex reads hooks.json when a session starts, which is with
		// the first prompt (docs/codex.md, "Hooks"): an install before
		// it takes effect. Each scenario checks that the hooks ran.
		opts := codexhooks.Options{Home: s.CodexHome(), Binary: r.hookWrapper()}
		if _, err := codexhooks.Install(opts); err != nil {
			t.Fatalf("install codeman's hooks into %s: %v", s.CodexHome(), err)
		}
	}
	c := &codexPane{Session: s, t: t, rig: r, start: start}
	socket, pane := s.Socket(), s.PaneID()
	c.mon = watchWith(t, func(at time.Time) (sample, error) {
		screen, title, err := captureWithTitle(socket, pane)
		if err != nil {
			return sample{}, err
		}
		return readCodexSample(at, screen, title), nil
	})
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("e2e: %s at the end:\n%s", c.Address(), c.dump())
		}
	})
	return c
}

// attach enables codeman on the pane with codexSets and extra --set
// values, as `codeman attach --set ...` does.
func (c *codexPane) attach(extra ...string) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), apiCallTimeout)
	defer cancel()
	req := api.AttachRequest{Pane: c.Address(), Sets: append(slices.Clone(codexSets), extra...)}
	if _, err := c.rig.client.Attach(ctx, req); err != nil {
		c.t.Fatalf("attach %s: %v", c.Address(), err)
	}
}

// status returns the pane's status, failing the test when the daemon does
// not answer.
func (c *codexPane) status() api.PaneStatus {
	c.t.Helper()
	st, err := c.rig.pane(c.Address())
	if err != nil {
		c.t.Fatalf("status of %s: %v", c.Address(), err)
	}
	return st
}

// waitPane polls the pane's status until cond holds and returns it.
func (c *codexPane) waitPane(what string, timeout time.Duration, cond func(api.PaneStatus) bool) api.PaneStatus {
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
func (c *codexPane) waitRequest(pred func(fakeopenai.Request) bool, what string, timeout time.Duration) fakeopenai.Request {
	c.t.Helper()
	return awaitRequest(c.t, c.API().WaitForRequest, pred, what, timeout)
}

// codexTurn reports a request that starts a turn of the session: not the
// title side request, a retry or a tool loop continuation.
func codexTurn(r fakeopenai.Request) bool {
	return r.Path == "/v1/responses" && !r.Title && !r.Retry && !r.ToolOutput
}

// codexTypedBy names codeman's step whose text starts the request, or "".
func codexTypedBy(r fakeopenai.Request) string {
	if !codexTurn(r) {
		return ""
	}
	return stepOfText(r.LastUserText, codexUpdateMarker, codexInitPrompt)
}

// codexStepIs returns a WaitForRequest predicate: a request started by
// step.
func codexStepIs(step string) func(fakeopenai.Request) bool { return stepIsOf(codexTypedBy, step) }

// codexSteps lists codeman's steps that reached the model, in order.
func codexSteps(reqs []fakeopenai.Request) []string { return stepsOf(reqs, codexTypedBy) }

// mustRequest returns the first of reqs that pred accepts, failing the
// test when there is none.
func (c *codexPane) mustRequest(reqs []fakeopenai.Request, pred func(fakeopenai.Request) bool, what string) fakeopenai.Request {
	c.t.Helper()
	return mustFind(c.t, reqs, pred, what)
}

// mustHook returns Codex's first call of the named hook after since that
// match accepts (nil accepts any), failing the test when there is none.
func (c *codexPane) mustHook(events []codextest.Event, name string, since time.Time, what string, match func(codextest.Event) bool) codextest.Event {
	c.t.Helper()
	return mustFindHook(c.t, c.start, events, name, since, what, match)
}

// answerCodexCycle scripts plain-text answers to every step of a cycle,
// so no step asks for an approval codeman would have to leave alone.
func answerCodexCycle(api *fakeopenai.Server) {
	api.Handle(codexUpdateMarker, fakeopenai.Reply{Text: "Progress noted in AGENTS.md."})
	api.Handle(codexInitPrompt, fakeopenai.Reply{Text: "AGENTS.md already describes this project; nothing to change."})
	api.Handle(kickstartPrompt, fakeopenai.Reply{Text: "Picking up the next task."})
}

// checkNothingTypedDuring fails the test when anything of codeman's shows
// up between from and to, a span in which Codex worked on what: a send
// decision, a prompt submitted (Codex's hook) other than those ownPrompt
// allows, or a request started by one of codeman's steps.
func (c *codexPane) checkNothingTypedDuring(from, to time.Time, what string, ownPrompt func(string) bool) {
	c.t.Helper()
	t := c.t
	in := func(at time.Time) bool { return !at.Before(from) && !at.After(to) }
	for _, d := range sends(c.status().Status.Decisions) {
		if in(d.At) {
			t.Errorf("codeman sent at %s, while Codex worked on %s (%s to %s): %s", rel(c.start, d.At), what, rel(c.start, from), rel(c.start, to), d)
		}
	}
	for _, e := range c.Events() {
		if e.Name == "UserPromptSubmit" && in(e.At) && !ownPrompt(e.Field("prompt")) {
			t.Errorf("prompt %q submitted at %s, while Codex worked on %s", clip(e.Field("prompt"), 60), rel(c.start, e.At), what)
		}
	}
	for _, r := range c.API().Requests() {
		if step := codexTypedBy(r); step != "" && in(r.At) {
			t.Errorf("codeman's %s reached the model at %s, while Codex worked on %s", step, rel(c.start, r.At), what)
		}
	}
}

// checkTimeline runs the checks every scenario ends with: nothing typed
// into the pane while Codex worked, and every send of codeman's made on
// an idle screen.
func (c *codexPane) checkTimeline() {
	c.t.Helper()
	c.mon.checkNoTypingWhileBusy(c.t, c.start)
	c.mon.checkSends(c.t, c.start, sends(c.status().Status.Decisions))
}

// readCodexSample classifies one look at Codex's pane, from the screen
// and the pane title (docs/codex.md, "The screen").
func readCodexSample(at time.Time, screen, title string) sample {
	s := sample{
		At:      at,
		Busy:    codextest.Working(screen),
		Spinner: titleSpins(title),
		Dialog:  codextest.DialogOpen(screen),
	}
	if !s.Dialog {
		s.Input = codexComposer(screen)
	}
	return s
}

// titleSpins reports whether the title starts with the braille spinner
// Codex shows while a turn runs ("⠏ Fake task | proj").
func titleSpins(title string) bool {
	r, _ := utf8.DecodeRuneInString(title)
	return r >= 0x2801 && r <= 0x28ff
}

// composerReach is how many rows from the bottom the composer's "› " row
// may be: itself, a wrapped line of text, a blank row and the two footer
// rows, with a margin.
const composerReach = 8

// numberedOption is a menu's option row, which also starts with "› " when
// selected.
var numberedOption = regexp.MustCompile(`^\d+\. `)

// codexComposer returns the text in Codex's composer, "" when it is empty
// or not found.
func codexComposer(screen string) string {
	lines := strings.Split(strings.TrimRight(screen, "\n "), "\n")
	for i := len(lines) - 1; i >= max(0, len(lines)-composerReach); i-- {
		rest, ok := strings.CutPrefix(lines[i], "› ")
		if !ok || numberedOption.MatchString(rest) {
			continue
		}
		if rest = strings.TrimSpace(rest); rest == codextest.Placeholder {
			return ""
		}
		return rest
	}
	return ""
}

// captureWithTitle returns the pane's screen as plain text and its title,
// from one tmux client.
func captureWithTitle(socket, pane string) (screen, title string, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "tmux", "-S", socket, "capture-pane", "-p", "-t", pane,
		";", "display-message", "-p", "-t", pane, "#{pane_title}").Output()
	if err != nil {
		return "", "", fmt.Errorf("capture %s: %w", pane, err)
	}
	text := strings.TrimSuffix(string(out), "\n")
	i := strings.LastIndex(text, "\n")
	if i < 0 {
		return "", "", fmt.Errorf("capture %s: no title after the screen in %q", pane, clip(text, 80))
	}
	return text[:i], text[i+1:], nil
}

// dump describes the session for a failed test: the screen, codeman's
// view of the pane, the request log, Codex's hook log, the screen timeline
// and the daemon log.
func (c *codexPane) dump() string {
	screen, title, err := captureWithTitle(c.Socket(), c.PaneID())
	if err != nil {
		screen = err.Error()
	}
	return c.rig.dumpSession(c.Address(), c.start, c.mon, sessionLogs{
		screenHeading: fmt.Sprintf("screen of %s (title %q)", c.Address(), title),
		screen:        screen,
		requests:      describeCodexRequests(c.start, c.API().Requests()),
		agent:         "Codex",
		hooks:         describeHooks(c.start, c.Events()),
	})
}

func describeCodexRequests(start time.Time, reqs []fakeopenai.Request) string {
	var b strings.Builder
	for _, r := range reqs {
		kind := "turn"
		if r.ToolOutput {
			kind = "tool output"
		}
		b.WriteString(requestLine(start, r.Request, kind))
	}
	return b.String()
}
