package e2e

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/claudetest"
	"github.com/codeman-dev/codeman/internal/rig/fakeapi"
	"github.com/codeman-dev/codeman/respawn"
)

// The steps of codeman's whose text reaches the model. /clear sends no
// request; its trace is the SessionStart hook with source "clear".
const (
	stepUpdate    = "update"
	stepInit      = "init"
	stepKickstart = "kickstart"
	stepResume    = "resume"
)

// idleCheckMarker opens codeman's idle check prompt
// (agents/aicheck/prompts/idle.txt).
const idleCheckMarker = "You classify the state of a Claude Code session"

// isCheck reports a request of codeman's AI idle check: `claude -p`, whose
// user agent says sdk-cli (docs/claude-code.md), asking
// codeman's question.
func isCheck(r fakeapi.Request) bool {
	return strings.Contains(r.Header.Get("User-Agent"), "sdk-cli") && strings.Contains(r.LastUserText, idleCheckMarker)
}

// freshTurn reports a request that starts a turn of the session: not the
// title side request, a retry, a tool loop continuation or an AI check.
func freshTurn(r fakeapi.Request) bool {
	return r.Path == "/v1/messages" && !r.Title && !r.Retry && !r.ToolResult && !isCheck(r)
}

// typedBy names codeman's step whose text starts the request, or "".
func typedBy(r fakeapi.Request) string {
	if !freshTurn(r) {
		return ""
	}
	return stepOfText(r.LastUserText, updatePrompt, initPrompt)
}

// stepOfText names codeman's step whose text starts a turn whose last user
// text is text, or "". The agents differ in what shows their update prompt
// (updateMarker) and how /init's prompt starts (initStart).
func stepOfText(text, updateMarker, initStart string) string {
	switch {
	case strings.Contains(text, updateMarker):
		return stepUpdate
	case strings.HasPrefix(strings.TrimSpace(text), initStart):
		return stepInit
	case strings.Contains(text, kickstartPrompt):
		return stepKickstart
	case strings.Contains(text, resumePrompt):
		return stepResume
	}
	return ""
}

// stepIs returns a WaitForRequest predicate: a request started by step.
func stepIs(step string) func(fakeapi.Request) bool { return stepIsOf(typedBy, step) }

// stepsTyped lists codeman's steps that reached the model, in order.
func stepsTyped(reqs []fakeapi.Request) []string { return stepsOf(reqs, typedBy) }

// stepIsOf returns a predicate on an agent's requests: one that typedBy
// says step started.
func stepIsOf[R any](typedBy func(R) string, step string) func(R) bool {
	return func(r R) bool { return typedBy(r) == step }
}

// stepsOf lists the steps typedBy finds in reqs, in order.
func stepsOf[R any](reqs []R, typedBy func(R) string) []string {
	var steps []string
	for _, r := range reqs {
		if s := typedBy(r); s != "" {
			steps = append(steps, s)
		}
	}
	return steps
}

// stepRequests returns the requests started by codeman's steps.
func stepRequests(reqs []fakeapi.Request) []fakeapi.Request {
	var out []fakeapi.Request
	for _, r := range reqs {
		if typedBy(r) != "" {
			out = append(out, r)
		}
	}
	return out
}

// mustRequest returns the first of reqs that pred accepts, failing the
// test when there is none.
func (c *claude) mustRequest(reqs []fakeapi.Request, pred func(fakeapi.Request) bool, what string) fakeapi.Request {
	c.t.Helper()
	return mustFind(c.t, reqs, pred, what)
}

// mustFind returns the first of an agent's requests that pred accepts,
// failing t when there is none.
func mustFind[R any](t *testing.T, reqs []R, pred func(R) bool, what string) R {
	t.Helper()
	i := slices.IndexFunc(reqs, pred)
	if i < 0 {
		t.Fatalf("no request for %s", what)
	}
	return reqs[i]
}

// answerCycle scripts plain-text answers to every step of a cycle, so no
// step asks for a permission codeman would have to leave alone.
func answerCycle(api *fakeapi.Server) {
	api.Handle(updatePrompt, fakeapi.Reply{Text: "Progress noted: the e2e work is done."})
	api.Handle(initPrompt, fakeapi.Reply{Text: "CLAUDE.md already describes this project; nothing to change."})
	api.Handle(kickstartPrompt, fakeapi.Reply{Text: "Picking up the next task."})
	api.Handle(resumePrompt, fakeapi.Reply{Text: "Resumed; the deploy went through."})
}

// toolResults returns the text of the tool_result blocks of the request's
// last user message.
func toolResults(r fakeapi.Request) []string {
	var body struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal(r.Body, &body) != nil {
		return nil
	}
	for i := len(body.Messages) - 1; i >= 0; i-- {
		if body.Messages[i].Role != "user" {
			continue
		}
		var blocks []struct {
			Type    string          `json:"type"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(body.Messages[i].Content, &blocks) != nil {
			return nil
		}
		var out []string
		for _, bl := range blocks {
			if bl.Type == "tool_result" {
				out = append(out, blockText(bl.Content))
			}
		}
		return out
	}
	return nil
}

// blockText reads a tool_result's content: a string or text blocks.
func blockText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &blocks) // anything else has no text to compare
	var b strings.Builder
	for _, bl := range blocks {
		b.WriteString(bl.Text)
	}
	return b.String()
}

// sends returns codeman's send decisions: text typed and keys pressed.
func sends(ds []respawn.Decision) []respawn.Decision {
	var out []respawn.Decision
	for _, d := range ds {
		if d.Kind == respawn.DecisionSend {
			out = append(out, d)
		}
	}
	return out
}

// sendSteps lists the steps of the sends.
func sendSteps(ds []respawn.Decision) []respawn.Step {
	var steps []respawn.Step
	for _, d := range sends(ds) {
		steps = append(steps, d.Step)
	}
	return steps
}

// findHook returns the first hook call named name after since that match
// accepts (nil accepts any).
func findHook(events []claudetest.HookEvent, name string, since time.Time, match func(claudetest.HookEvent) bool) (claudetest.HookEvent, bool) {
	for _, e := range events {
		if e.Name == name && e.At.After(since) && (match == nil || match(e)) {
			return e, true
		}
	}
	return claudetest.HookEvent{}, false
}

// mustHook is findHook that fails the test when there is no such call.
func (c *claude) mustHook(events []claudetest.HookEvent, name string, since time.Time, what string, match func(claudetest.HookEvent) bool) claudetest.HookEvent {
	c.t.Helper()
	return mustFindHook(c.t, c.start, events, name, since, what, match)
}

// mustFindHook is findHook that fails t when there is no such call; the
// message counts times from start, when the session started.
func mustFindHook(t *testing.T, start time.Time, events []claudetest.HookEvent, name string, since time.Time, what string, match func(claudetest.HookEvent) bool) claudetest.HookEvent {
	t.Helper()
	e, ok := findHook(events, name, since, match)
	if !ok {
		t.Fatalf("no %s hook for %s after %s", name, what, rel(start, since))
	}
	return e
}

// promptHas returns a hook matcher: a UserPromptSubmit whose prompt
// contains substr.
func promptHas(substr string) func(claudetest.HookEvent) bool {
	return func(e claudetest.HookEvent) bool { return strings.Contains(e.Field("prompt"), substr) }
}

// fieldIs returns a hook matcher on a top-level string field.
func fieldIs(key, value string) func(claudetest.HookEvent) bool {
	return func(e claudetest.HookEvent) bool { return e.Field(key) == value }
}

// backgroundTasks returns how many background tasks a Stop payload lists
// as running.
func backgroundTasks(e claudetest.HookEvent) int {
	var p struct {
		Tasks []struct {
			Status string `json:"status"`
		} `json:"background_tasks"`
	}
	json.Unmarshal(e.Payload, &p) // a payload without the list has none
	n := 0
	for _, task := range p.Tasks {
		if task.Status == "running" {
			n++
		}
	}
	return n
}

// checkNothingTypedDuring fails the test when anything of codeman's shows
// up between from and to, a span in which Claude worked on what: a send
// decision, a prompt submitted (hook) other than those ownPrompts allows,
// or a request started by one of codeman's steps.
func (c *claude) checkNothingTypedDuring(from, to time.Time, what string, ownPrompt func(string) bool) {
	c.t.Helper()
	t := c.t
	in := func(at time.Time) bool { return !at.Before(from) && !at.After(to) }
	for _, d := range sends(c.rig.decisions(c)) {
		if in(d.At) {
			t.Errorf("codeman sent at %s, while Claude worked on %s (%s to %s): %s", rel(c.start, d.At), what, rel(c.start, from), rel(c.start, to), d)
		}
	}
	for _, e := range c.Events() {
		if e.Name == "UserPromptSubmit" && in(e.At) && !ownPrompt(e.Field("prompt")) {
			t.Errorf("prompt %q submitted at %s, while Claude worked on %s", clip(e.Field("prompt"), 60), rel(c.start, e.At), what)
		}
	}
	for _, r := range stepRequests(c.API().Requests()) {
		if in(r.At) {
			t.Errorf("codeman's %s reached the model at %s, while Claude worked on %s", typedBy(r), rel(c.start, r.At), what)
		}
	}
}

// checkSteps fails the test unless codeman's steps reached the model in
// exactly this order.
func (c *claude) checkSteps(want ...string) {
	c.t.Helper()
	if got := stepsTyped(c.API().Requests()); !slices.Equal(got, want) {
		c.t.Errorf("codeman's steps reached the model as %q, want %q", got, want)
	}
}

// moment is a named point of a scenario's timeline.
type moment struct {
	what string
	at   time.Time
}

// checkOrder fails the test unless each moment came after the one before
// it.
func checkOrder(t *testing.T, start time.Time, moments ...moment) {
	t.Helper()
	for i := 1; i < len(moments); i++ {
		if prev, m := moments[i-1], moments[i]; !m.at.After(prev.at) {
			t.Errorf("%s (%s) did not come after %s (%s)", m.what, rel(start, m.at), prev.what, rel(start, prev.at))
		}
	}
}
