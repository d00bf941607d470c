package daemon

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/fakentfy"
	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
	"github.com/codeman-dev/codeman/remote"
	"github.com/codeman-dev/codeman/respawn"
)

// phoneRig is a rig whose needs notify a fake ntfy at once, with answer
// buttons that post to its reply topic.
func phoneRig(t *testing.T) (*rig, *fakentfy.Server) {
	t.Helper()
	r := setupRig(t, tmuxtest.NewServer(t), true)
	srv := fakentfy.Start(t)
	cfg, err := os.ReadFile(r.config)
	if err != nil {
		t.Fatal(err)
	}
	cfg = append(cfg, fmt.Sprintf("\n[notify]\nurl = %q\nnotify_after = \"0s\"\n[notify.answer]\ntopic = %q\n", srv.URL()+"/alerts", srv.URL()+"/replies")...)
	if err := os.WriteFile(r.config, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	r.start()
	return r, srv
}

// buttonsOf waits for the pane's need to be published with its buttons
// and returns them by label.
func buttonsOf(t *testing.T, srv *fakentfy.Server, label string) map[string]fakentfy.Action {
	t.Helper()
	buttons := map[string]fakentfy.Action{}
	defer func() {
		if t.Failed() {
			t.Logf("fakentfy saw %q", srv.Requests())
		}
	}()
	srv.Wait(t, "a notification with the answer buttons", 30*time.Second, func() bool {
		for _, m := range srv.Published("alerts") {
			as, err := fakentfy.Actions(m)
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range as {
				buttons[a.Label] = a
			}
		}
		_, ok := buttons[label]
		return ok
	})
	return buttons
}

// askPhone starts a simulated session on prompt in a pane of r, enables
// it, and waits until its need is published with a button labelled label
// and the daemon follows the reply topic; it returns the pane's address,
// its id and the buttons by label.
func askPhone(t *testing.T, r *rig, srv *fakentfy.Server, prompt, label string) (addr, pane string, buttons map[string]fakentfy.Action) {
	t.Helper()
	addr, _ = r.session("phone", prompt)
	pane = strings.TrimPrefix(addr, "tmux:"+r.tmux.Socket()+":")
	r.attach(addr)
	buttons = buttonsOf(t, srv, label)
	srv.Wait(t, "the subscription", 10*time.Second, func() bool { return srv.Subscribers("replies") == 1 })
	return addr, pane, buttons
}

// answerDecisions are the decisions of addr about answers.
func (r *rig) answerDecisions(addr string) string {
	st, err := r.client.Pane(context.Background(), addr, respawn.DecisionLogSize)
	if err != nil {
		return err.Error()
	}
	var lines []string
	for _, d := range st.Status.Decisions {
		if strings.Contains(d.Reason, "answer from") {
			lines = append(lines, d.Reason)
		}
	}
	return strings.Join(lines, "\n")
}

// A question answered from the phone: its notification carries the
// first options as buttons, pressing one types that option and nothing
// else; the same button again, another button of the answered question,
// a forged token and an expired one are refused, each named in the
// pane's decisions where it was signed, and nothing more is typed.
func TestDaemon_AnswerFromPhone(t *testing.T) {
	t.Parallel()
	r, srv := phoneRig(t)
	addr, pane, buttons := askPhone(t, r, srv, "ask me a question about the database", "2. SQLite")
	if _, ok := buttons["1. PostgreSQL"]; !ok || len(buttons) != 3 {
		t.Fatalf("buttons %v, want the first three options", buttons)
	}
	srv.Press(t, buttons["2. SQLite"])
	r.tmux.WaitFor(pane, func(s string) bool { return strings.Contains(s, "→ SQLite") }, "the session to get SQLite", 15*time.Second)
	r.waitFor("the answer in the decisions", 10*time.Second, func() bool {
		return strings.Contains(r.answerDecisions(addr), `answer from ntfy typed: option 2 "SQLite"`)
	})

	key, err := remote.LoadKey(filepath.Join(r.paths.State, remote.KeyFile))
	if err != nil {
		t.Fatal(err)
	}
	expired, _ := remote.Sign(key, remote.Claims{Pane: addr, Need: "0000000000000000", Choice: "1", Expires: time.Now().Add(-time.Minute).Unix()})
	forged, _ := remote.Sign(make([]byte, remote.KeySize), remote.Claims{Pane: addr, Need: "0000000000000000", Choice: "1", Expires: time.Now().Add(time.Hour).Unix()})
	srv.Press(t, buttons["2. SQLite"])
	srv.Press(t, buttons["1. PostgreSQL"])
	srv.Publish("replies", forged, nil)
	srv.Publish("replies", "\x1b]52;c;aGk=\x07 not a token", nil)
	srv.Publish("replies", expired, nil)
	r.waitFor("every message read", 15*time.Second, func() bool {
		h, err := r.client.Health(context.Background())
		return err == nil && h.Notify.Answer != nil && h.Notify.Answer.Messages == 6
	})
	got := r.answerDecisions(addr)
	for _, want := range []string{"used already", "has expired"} {
		if !strings.Contains(got, want) {
			t.Errorf("decisions lack %q:\n%s", want, got)
		}
	}
	// The other button of the answered question finds the need gone, or
	// still raised by the hook but no longer that dialog.
	if !strings.Contains(got, "needs no answer now") && !strings.Contains(got, "is answered or gone") {
		t.Errorf("decisions lack the refusal of the answered question's other button:\n%s", got)
	}
	if n := strings.Count(got, "not typed"); n != 3 {
		t.Errorf("%d refusals in the decisions, want 3 (the forged token and the junk name no trusted pane):\n%s", n, got)
	}
	if strings.Contains(r.tmux.Capture(pane), "→ PostgreSQL") {
		t.Error("a refused button reached the session")
	}
	if strings.Count(got, "typed: option") != 1 {
		t.Errorf("typed more than once:\n%s", got)
	}
}

// A button pressed while the daemon was down counts once it is back: the
// subscription resumes where it left off.
func TestDaemon_AnswerFromPhoneAcrossRestart(t *testing.T) {
	t.Parallel()
	r, srv := phoneRig(t)
	_, pane, buttons := askPhone(t, r, srv, "ask my permission to delete the build output", "Deny")
	if _, ok := buttons["Allow"]; !ok || len(buttons) != 2 {
		t.Fatalf("buttons %v, want Allow and Deny", buttons)
	}
	r.stopDaemon()
	srv.Press(t, buttons["Deny"])
	r.start()
	r.tmux.WaitFor(pane, func(s string) bool { return strings.Contains(s, "Did not run") }, "the command denied", 30*time.Second)
	h, err := r.client.Health(context.Background())
	if err != nil || h.Notify.Answer == nil || !h.Notify.Answer.Connected || strings.Contains(h.Notify.Answer.Topic, "replies") {
		t.Errorf("health %+v, %v: want the subscription connected, its topic redacted", h.Notify.Answer, err)
	}
	// A test button's answer (codeman notify test) comes back as such.
	key, err := remote.LoadKey(filepath.Join(r.paths.State, remote.KeyFile))
	if err != nil {
		t.Fatal(err)
	}
	test, err := (&remote.Answerer{Key: key, ReplyURL: srv.URL() + "/replies"}).TestButtons()
	if err != nil {
		t.Fatal(err)
	}
	srv.Press(t, fakentfy.Action{URL: test[0].URL, Body: test[0].Body, Label: test[0].Label})
	r.waitFor("the test answer", 10*time.Second, func() bool {
		h, err := r.client.Health(context.Background())
		return err == nil && h.Notify.Answer != nil && !h.Notify.Answer.LastTest.IsZero()
	})
}
