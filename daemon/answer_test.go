package daemon

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/respawn"
)

// waitAsk waits until the pane's need is a dialog of kind whose options
// codeman read, and returns the need.
func (r *rig) waitAsk(addr string, kind respawn.NeedKind) respawn.Need {
	r.t.Helper()
	var need respawn.Need
	r.waitFor("a "+string(kind)+" with its options", 30*time.Second, func() bool {
		st, err := r.client.Pane(context.Background(), addr, 0)
		if err != nil || st.Status.NeedsYou == nil || st.Status.NeedsYou.Ask == nil || st.Status.NeedsYou.Kind != kind {
			return false
		}
		need = *st.Status.NeedsYou
		return true
	})
	return need
}

// A question in a real pane is answered through the API with the option
// a person chose, and only that: the session gets that answer, the need
// clears, and a second answer to the same need types nothing.
func TestDaemon_AnswerQuestion(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	addr, _ := r.session("ask", "ask me a question about the database")
	pane := strings.TrimPrefix(addr, "tmux:"+r.tmux.Socket()+":")
	r.attach(addr)
	need := r.waitAsk(addr, respawn.NeedQuestion)
	if need.ID == "" || !strings.Contains(need.Ask.Text, "database") || len(need.Ask.Options) < 3 || need.Ask.Options[1] != "SQLite" {
		t.Fatalf("need %+v, ask %+v", need, need.Ask)
	}
	got, err := r.client.Answer(context.Background(), api.AnswerRequest{Pane: addr, Need: need.ID, Choice: "SQLite", From: "test"})
	if err != nil || got.Option != 2 || got.Label != "SQLite" {
		t.Fatalf("Answer = %+v, %v", got, err)
	}
	r.tmux.WaitFor(pane, func(s string) bool { return strings.Contains(s, "→ SQLite") }, "the session to get SQLite", 10*time.Second)
	r.waitFor("the need cleared", 30*time.Second, func() bool {
		st, err := r.client.Pane(context.Background(), addr, 0)
		return err == nil && (st.Status.NeedsYou == nil || st.Status.NeedsYou.ID != need.ID)
	})
	_, err = r.client.Answer(context.Background(), api.AnswerRequest{Pane: addr, Need: need.ID, Choice: "Redis", From: "test"})
	if err == nil || !strings.Contains(err.Error(), "answer refused") {
		t.Fatalf("second answer = %v, want refused", err)
	}
	if strings.Contains(r.tmux.Capture(pane), "→ Redis") {
		t.Fatal("the second answer reached the session")
	}
	st, err := r.client.Pane(context.Background(), addr, 50)
	if err != nil {
		t.Fatal(err)
	}
	var typed, refused bool
	for _, d := range st.Status.Decisions {
		typed = typed || strings.Contains(d.Reason, `answer from test typed: option 2 "SQLite"`)
		refused = refused || strings.Contains(d.Reason, "answer from test not typed")
	}
	if !typed || !refused {
		t.Errorf("decisions do not name the answer and the refusal: %+v", st.Status.Decisions)
	}
}

// A permission prompt is denied by name: the command does not run.
func TestDaemon_AnswerPermissionDenied(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	addr, _ := r.session("perm", "ask my permission to delete the build output")
	pane := strings.TrimPrefix(addr, "tmux:"+r.tmux.Socket()+":")
	r.attach(addr)
	need := r.waitAsk(addr, respawn.NeedPermission)
	got, err := r.client.Answer(context.Background(), api.AnswerRequest{Pane: addr, Need: need.ID, Choice: "deny", From: "test"})
	if err != nil || !strings.HasPrefix(got.Label, "No") {
		t.Fatalf("Answer = %+v, %v; want the No option", got, err)
	}
	r.tmux.WaitFor(pane, func(s string) bool { return strings.Contains(s, "Did not run") }, "the command not run", 10*time.Second)
	_, err = r.client.Answer(context.Background(), api.AnswerRequest{Pane: "tmux:" + r.tmux.Socket() + ":%99", Choice: "1", From: "test"})
	if !errors.Is(err, api.ErrNotControlled) {
		t.Fatalf("answer to a pane not controlled = %v", err)
	}
}
