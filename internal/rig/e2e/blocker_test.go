package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/internal/rig/claudetest"
	"github.com/codeman-dev/codeman/internal/rig/clitest"
	"github.com/codeman-dev/codeman/internal/rig/fakeapi"
	"github.com/codeman-dev/codeman/respawn"
)

// leftAlone is how long a dialog is left open: longer than two rounds of
// no_output_timeout (8s each), the hook window (3s) and completion_confirm
// (2s) after it, and than the ~6.3s after which Claude sends its
// permission_prompt Notification (docs/claude-code.md).
const leftAlone = 2*noOutputTimeout + hookWindow + completionConfirm + time.Second

// blockerCase is a dialog only a person may answer.
type blockerCase struct {
	name   string
	prompt string
	reply  fakeapi.Reply
	marker string // shows on screen while the dialog is open
	tool   string // the tool whose PermissionRequest opens it
	// silent: the pane prints nothing while the dialog is open, so
	// codeman's fallback timers fire and its blocker check must stop them.
	silent bool
	need   string // the kind of the pane's need for a person
	asks   string // what the need's reason names
}

var blockerCases = []blockerCase{
	{
		name:   "Question",
		prompt: "set up storage",
		reply: fakeapi.Reply{Text: "I need one decision first.", Tool: &fakeapi.ToolCall{Name: "AskUserQuestion", Input: map[string]any{
			"questions": []any{map[string]any{
				"question": "Which database should the project use?", "header": "Database", "multiSelect": false,
				"options": []any{
					map[string]any{"label": "PostgreSQL", "description": "Relational, strong consistency"},
					map[string]any{"label": "SQLite", "description": "Embedded, zero setup"},
				},
			}},
		}}},
		marker: "Enter to select",
		tool:   "AskUserQuestion",
		silent: true,
		need:   "question",
		asks:   "Which database should the project use?",
	},
	{
		name:   "Permission",
		prompt: "clean the build",
		reply: fakeapi.Reply{Text: "I'll remove the build output.", Tool: &fakeapi.ToolCall{Name: "Bash", Input: map[string]any{
			"command":     "rm -rf ./build-output && curl -s http://127.0.0.1:9/ || true",
			"description": "Delete build output and probe a local port",
		}}},
		marker: "Do you want to proceed?",
		tool:   "Bash",
		// The pending tool call's bullet blinks every 0.6 s above the
		// prompt, so output never stops and no silence timer fires.
		silent: false,
		need:   "permission",
		asks:   "Bash: rm -rf ./build-output",
	},
}

// A question picker and a Bash permission prompt are left alone, however
// long they stay open: nothing is typed, nothing reaches the model, and
// explain names the blocker. Both panes share one daemon.
//
// Each raises its need for a person with what it asks, a webhook on
// loopback gets exactly one notification for it, and answering it, as a
// person would, clears the need.
func TestBlockers_LeftAlone(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	hook := newWebhook(t)
	r.appendConfig(fmt.Sprintf("\n[notify]\nurl = %q\nformat = \"json\"\nnotify_after = \"2s\"\n", hook.URL()))
	r.startDaemon(nil)
	for _, bc := range blockerCases {
		t.Run(bc.name, func(t *testing.T) {
			t.Parallel()
			c := r.newClaude(t, claudetest.Options{}, r.hookWrapper())
			answerCycle(c.API())
			c.API().Handle(bc.prompt, bc.reply)
			r.attach(c, "")
			c.Type(bc.prompt)
			c.WaitFor(clitest.Contains(bc.marker), "the dialog", 30*time.Second)
			opened := time.Now()
			before := len(c.API().Requests())

			// The point of the test: nothing happens for this long, so
			// sleep through it once.
			time.Sleep(leftAlone)

			if reqs := c.API().Requests(); len(reqs) != before {
				t.Errorf("%d request(s) reached the model after the dialog opened:\n%s", len(reqs)-before, describeRequests(c.start, reqs[before:]))
			}
			if screen := c.Capture(); !strings.Contains(screen, bc.marker) {
				t.Errorf("the dialog is gone from the screen:\n%s", screen)
			}
			for _, s := range c.mon.between(opened, time.Now()) {
				if !s.Dialog || s.Busy {
					t.Errorf("screen at %s: dialog=%t busy=%t, want the dialog open all along", rel(c.start, s.At), s.Dialog, s.Busy)
					break
				}
			}
			events := c.Events()
			c.mustHook(events, "PermissionRequest", c.start, "the dialog", fieldIs("tool_name", bc.tool))
			// Claude's reminder came and went unanswered too: the window
			// covered it.
			c.mustHook(events, "Notification", opened, "the reminder", fieldIs("notification_type", "permission_prompt"))
			st, err := r.pane(c.Address())
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(st.Status.Evidence.Blocker, "a person must answer") {
				t.Errorf("explain shows blocker %q, want a person to answer", st.Status.Evidence.Blocker)
			}
			// A fallback timer fired while the dialog was open, and the
			// blocker stopped it.
			vetoed := slices.ContainsFunc(st.Status.Decisions, func(d respawn.Decision) bool {
				return d.Kind == respawn.DecisionVeto && d.At.After(opened)
			})
			if bc.silent && !vetoed {
				t.Errorf("codeman vetoed nothing in the %s the dialog was open: its fallback timers never fired", leftAlone)
			}
			if ds := sends(st.Status.Decisions); len(ds) != 0 {
				t.Errorf("codeman sent %v", ds)
			}
			if st.Status.Cycles != 0 {
				t.Errorf("%d cycle(s) started", st.Status.Cycles)
			}
			n := st.Status.NeedsYou
			if n == nil || string(n.Kind) != bc.need || !strings.Contains(n.Reason, bc.asks) {
				t.Errorf("needs you = %+v, want %s naming %q", n, bc.need, bc.asks)
			}
			if got := hook.raised(c.Address()); len(got) != 1 || got[0].Kind != bc.need || !strings.Contains(got[0].Reason, bc.asks) {
				t.Errorf("webhook got %+v for the pane, want one %s notification naming %q", got, bc.need, bc.asks)
			}
			c.checkTimeline()

			// A person answers with the first option: the need ends.
			c.SendKeys("Enter")
			r.waitPane(c, "the need cleared after the answer", 30*time.Second, func(st api.PaneStatus) bool {
				return st.Status.NeedsYou == nil
			})
		})
	}
}
