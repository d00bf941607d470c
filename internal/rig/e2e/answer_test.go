package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/internal/rig/claudetest"
	"github.com/codeman-dev/codeman/internal/rig/clitest"
	"github.com/codeman-dev/codeman/internal/rig/fakeapi"
	"github.com/codeman-dev/codeman/internal/rig/fakentfy"
)

// A person answers the real Claude Code's question and permission prompt
// through the daemon, as codeman answer and the dash do: the question's
// tool result carries exactly the option chosen, the denied command does
// not run, and an answer to the same need again types nothing.
func TestAnswer_QuestionAndPermission(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.startDaemon(nil)
	for _, tc := range []struct {
		blocker blockerCase
		choice  string
		// result is in the tool result Claude sends once answered; ""
		// when the answer ends the turn (a denied command: Claude waits
		// for what to do instead).
		result string
	}{
		{blockerCases[0], "SQLite", `=\"SQLite\"`},
		{blockerCases[1], "deny", ""},
	} {
		bc := tc.blocker
		t.Run(bc.name, func(t *testing.T) {
			t.Parallel()
			c := r.newClaude(t, claudetest.Options{}, r.hookWrapper())
			answerCycle(c.API())
			c.API().Handle(bc.prompt, bc.reply)
			c.API().Handle("", fakeapi.Reply{Text: "Done with that."})
			r.attach(c, "")
			c.Type(bc.prompt)
			c.WaitFor(clitest.Contains(bc.marker), "the dialog", 30*time.Second)
			st := r.waitPane(c, "the need with its options", 30*time.Second, func(st api.PaneStatus) bool {
				n := st.Status.NeedsYou
				return n != nil && string(n.Kind) == bc.need && n.Ask != nil && n.ID != ""
			})
			need := st.Status.NeedsYou
			before := len(c.API().Requests())
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			got, err := r.client.Answer(ctx, api.AnswerRequest{Pane: c.Address(), Need: need.ID, Choice: tc.choice, From: "e2e"})
			if err != nil {
				t.Fatalf("Answer = %v\noptions %q\n%s", err, need.Ask.Options, c.Capture())
			}
			c.WaitFor(func(s string) bool { return !strings.Contains(s, bc.marker) }, "the dialog closed", 10*time.Second)
			var reqs []fakeapi.Request
			deadline := time.Now().Add(30 * time.Second)
			if tc.result == "" {
				deadline = time.Now().Add(3 * time.Second) // long enough for a request that should not come
			}
			for {
				reqs = c.API().Requests()[before:]
				if len(reqs) > 0 && reqs[0].ToolResult || time.Now().After(deadline) {
					break
				}
				time.Sleep(100 * time.Millisecond)
			}
			switch {
			case tc.result == "" && len(reqs) > 0:
				t.Fatalf("answered %+v; the model got a request after it:\n%s", got, describeRequests(c.start, reqs))
			case tc.result != "" && (len(reqs) == 0 || !reqs[0].ToolResult || !strings.Contains(string(reqs[0].Body), tc.result)):
				t.Fatalf("answered %+v; the next request to the model lacks %s:\n%s", got, tc.result, describeRequests(c.start, reqs))
			}
			if bc.name == "Permission" {
				if _, ok := findHook(c.Events(), "PostToolUse", c.start, fieldIs("tool_name", "Bash")); ok {
					t.Error("the denied command ran (PostToolUse for Bash)")
				}
			}
			_, err = r.client.Answer(ctx, api.AnswerRequest{Pane: c.Address(), Need: need.ID, Choice: "1", From: "e2e"})
			if err == nil || !strings.Contains(err.Error(), "answer refused") {
				t.Errorf("a second answer to need %s = %v, want refused", need.ID, err)
			}
		})
	}
}

// A question of the real Claude Code answered from the phone: the ntfy
// message of the need carries its options as buttons, and the one pressed
// is exactly what Claude gets.
func TestAnswer_FromPhone(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	srv := fakentfy.Start(t)
	r.appendConfig(fmt.Sprintf("\n[notify]\nurl = %q\nnotify_after = \"0s\"\n[notify.answer]\ntopic = %q\n", srv.URL()+"/alerts", srv.URL()+"/replies"))
	r.startDaemon(nil)
	bc := blockerCases[0]
	c := r.newClaude(t, claudetest.Options{}, r.hookWrapper())
	answerCycle(c.API())
	c.API().Handle(bc.prompt, bc.reply)
	c.API().Handle("", fakeapi.Reply{Text: "Done with that."})
	r.attach(c, "")
	c.Type(bc.prompt)
	c.WaitFor(clitest.Contains(bc.marker), "the dialog", 30*time.Second)
	var sqlite fakentfy.Action
	srv.Wait(t, "the need's buttons", 30*time.Second, func() bool {
		for _, m := range srv.Published("alerts") {
			as, _ := fakentfy.Actions(m)
			for _, a := range as {
				if a.Label == "2. SQLite" {
					sqlite = a
					return true
				}
			}
		}
		return false
	})
	srv.Wait(t, "the subscription", 10*time.Second, func() bool { return srv.Subscribers("replies") == 1 })
	before := len(c.API().Requests())
	srv.Press(t, sqlite)
	var reqs []fakeapi.Request
	srv.Wait(t, "the tool result", 30*time.Second, func() bool {
		reqs = c.API().Requests()[before:]
		return len(reqs) > 0 && reqs[0].ToolResult
	})
	if !strings.Contains(string(reqs[0].Body), `=\"SQLite\"`) {
		t.Fatalf("the tool result lacks SQLite:\n%s", describeRequests(c.start, reqs))
	}
}
