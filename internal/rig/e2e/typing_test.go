package e2e

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/internal/rig/claudetest"
	"github.com/codeman-dev/codeman/internal/rig/fakeapi"
	"github.com/codeman-dev/codeman/respawn"
)

// Claude started from bash and quit with /exit leaves bash in the pane.
// Then a screen that looks just like Claude's (a cat of a saved capture)
// appears in the shell: codeman types nothing into bash, not one step.
func TestShell_NothingTypedAfterExit(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.startDaemon(nil)
	c := r.newClaude(t, claudetest.Options{FromShell: true}, r.hookWrapper())
	c.waitStartupHints()
	r.attach(c, "")
	c.Type("/exit")
	c.WaitFor(func(s string) bool { return strings.HasSuffix(strings.TrimSpace(s), "$") }, "bash's prompt after /exit", 30*time.Second)
	r.waitPane(c, "codeman to see bash in the pane", 30*time.Second, func(st api.PaneStatus) bool { return st.Command == "bash" })
	capture, err := filepath.Abs(filepath.Join("..", "..", "..", "agents", "claude", "testdata", "screens", "06-reply-done.txt"))
	if err != nil {
		t.Fatal(err)
	}
	c.Type("clear; cat " + capture)
	c.WaitFor(func(s string) bool { return strings.Contains(s, "Hello from the fake Anthropic API") }, "the capture in the shell", 10*time.Second)
	shown := time.Now()
	// The capture's completion line and the silence after it: codeman
	// weighs idle, and holds.
	r.waitPane(c, "idle weighed and held", cycleTimeout, func(st api.PaneStatus) bool {
		return slices.ContainsFunc(st.Status.Decisions, func(d respawn.Decision) bool {
			return d.Kind == respawn.DecisionVeto && d.At.After(shown) &&
				(strings.Contains(d.Reason, "nothing is typed into a shell") || strings.Contains(d.Reason, "nothing is typed until it runs again"))
		})
	})
	screen := c.Capture()
	for _, typed := range []string{"/clear", "/init", "write a brief", "command not found", "No such file"} {
		if strings.Contains(screen, typed) {
			t.Fatalf("%q reached the shell:\n%s", typed, screen)
		}
	}

	// Claude started again from the same shell is a new session, which
	// codeman follows with a fresh controller: its turn ends and the cycle
	// is typed into it.
	answerCycle(c.API())
	const work = "carry on with the docs"
	c.API().Handle(work, fakeapi.Reply{Text: "The docs are done."})
	c.Type("clear; " + shellQuote(c.Claude()))
	c.WaitFor(claudetest.PromptReady, "Claude started again", 60*time.Second)
	r.waitPane(c, "a controller for the new session", 30*time.Second, func(st api.PaneStatus) bool {
		return st.Command == "claude" && !slices.ContainsFunc(st.Status.Decisions, func(d respawn.Decision) bool { return strings.Contains(d.Reason, "exited") })
	})
	c.waitStartupHints()
	c.Type(work)
	c.waitRequest(stepIs(stepUpdate), "the update prompt in the new session", cycleTimeout)
}

// A statusLine command that prints the time every second (refreshInterval
// 1) redraws the footer without a pause: the whole cycle still runs, each
// step after the one before ended, none while Claude works.
func TestCycle_TickingStatusLine(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.startDaemon(nil)
	c := r.newClaude(t, claudetest.Options{Settings: map[string]any{
		"statusLine": map[string]any{"type": "command", "command": "date +%H:%M:%S", "refreshInterval": 1},
	}}, r.hookWrapper())
	answerCycle(c.API())
	const work = "tidy the build"
	c.API().Handle(work, fakeapi.Reply{Text: "The build is tidy."})
	c.WaitFor(func(s string) bool { return strings.Contains(s, ":") && strings.Contains(s, "❯") }, "the status line's clock", 30*time.Second)
	r.attach(c, "")
	c.Type(work)
	c.waitRequest(stepIs(stepKickstart), "the kickstart prompt", cycleTimeout)
	c.checkSteps(stepUpdate, stepInit, stepKickstart)
}

// A finished turn whose reply quotes usage-limit lines is no usage limit:
// codeman cycles after it instead of waiting until the quoted reset.
func TestCycle_QuotedLimit(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.startDaemon(nil)
	c := r.newClaude(t, claudetest.Options{}, r.hookWrapper())
	answerCycle(c.API())
	const work = "what did the other session print"
	c.API().Handle(work, fakeapi.Reply{Text: "It printed:\n\nYou've hit your session limit · resets 7:30pm\n\n" +
		"5-hour limit reached ∙ resets 3pm\n\nUsage limit reached · limit resets 3pm"})
	c.waitStartupHints()
	r.attach(c, "")
	c.Type(work)
	c.waitRequest(stepIs(stepUpdate), "the update prompt", cycleTimeout)
	for _, d := range r.decisions(c) {
		if d.Kind == respawn.DecisionWait {
			t.Fatalf("a quoted limit was waited out: %s", d)
		}
	}
}
