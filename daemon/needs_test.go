package daemon

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
	"github.com/codeman-dev/codeman/internal/simclaude"
	"github.com/codeman-dev/codeman/respawn"
	"github.com/codeman-dev/codeman/screen"
	"github.com/codeman-dev/codeman/tmux"
)

// A question in a real pane raises "needs you" everywhere a person looks:
// the pane's status, its status line, its window's option and the event
// stream; answering it clears them all, and nothing was typed into it.
func TestDaemon_NeedsYouRaisedAndCleared(t *testing.T) {
	t.Parallel()
	r, notified := notifyingRig(t)
	addr, log := r.session("ask", "ask me a question about the database")
	pane := strings.TrimPrefix(addr, "tmux:"+r.tmux.Socket()+":")
	client := r.tmux.AttachClient("ask")

	var mu sync.Mutex
	var events []api.Event
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opened := make(chan struct{})
	go r.client.Follow(ctx, addr, func() { close(opened) }, func(e api.Event) error {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
		return nil
	})
	<-opened
	r.attach(addr)

	option := func(name string) string {
		return strings.TrimSpace(r.tmux.Tmux("display-message", "-p", "-t", pane, "#{"+name+"}"))
	}
	r.waitFor("the question raised as a need", 30*time.Second, func() bool {
		st, err := r.client.Pane(context.Background(), addr, 0)
		return err == nil && st.Status.NeedsYou != nil && st.Status.NeedsYou.Kind == respawn.NeedQuestion
	})
	r.waitFor("the status line and the window option", 10*time.Second, func() bool {
		return option(tmux.OptionState) == "needs you: question" && option(tmux.OptionNeeds) == "question"
	})
	// The screen may raise it before the hook names the question.
	r.waitFor("the need to say what is asked", 10*time.Second, func() bool {
		st, err := r.client.Pane(context.Background(), addr, 0)
		return err == nil && st.Status.NeedsYou != nil && strings.Contains(st.Status.NeedsYou.Reason, "database")
	})

	cwd, _ := os.Getwd()
	// tmux 3.2 rings the bell only (tmux.ErrNoticeUnsupported).
	shown := !strings.HasPrefix(r.tmux.Version(), "3.2")
	r.waitFor("the notification command run and the notice on the person's terminal", 10*time.Second, func() bool {
		out, _ := os.ReadFile(notified)
		return strings.Contains(string(out), "raised question ask "+cwd+"|ask:0.0 (%0) needs you (question") &&
			(!shown || strings.Contains(client.Output(), "codeman: ask:0.0 (%0) needs you")) && strings.Contains(client.Output(), "\a")
	})

	// A person answers: Enter picks the first option.
	r.tmux.Tmux("send-keys", "-t", pane, "Enter")
	r.waitFor("the need cleared", 30*time.Second, func() bool {
		st, err := r.client.Pane(context.Background(), addr, 0)
		return err == nil && st.Status.NeedsYou == nil && option(tmux.OptionNeeds) == ""
	})
	r.waitFor("needs-you and resolved events", 10*time.Second, func() bool {
		mu.Lock()
		defer mu.Unlock()
		var raised, resolved bool
		for _, e := range events {
			raised = raised || (e.Kind == api.EventNeedsYou && strings.HasPrefix(e.Reason, "question: "))
			resolved = resolved || (e.Kind == api.EventResolved && strings.HasPrefix(e.Reason, "question: "))
		}
		return raised && resolved
	})
	r.waitFor("the resolution told", 10*time.Second, func() bool {
		out, _ := os.ReadFile(notified)
		return strings.Contains(string(out), "resolved question ask")
	})

	// The one key the question got is the person's.
	entries, err := simclaude.ReadLog(log)
	if err != nil {
		t.Fatal(err)
	}
	keys := 0
	for _, e := range entries {
		if e.Dialog == "question" && (e.Kind == "key" || e.Kind == "submit" || e.Kind == "paste") {
			keys++
		}
	}
	if keys != 1 {
		t.Fatalf("the question got %d inputs, want the person's one Enter: %+v", keys, entries)
	}
}

// notifyingRig is a rig whose [notify] command, run at once for every
// hold and resolution, appends "EVENT KIND SESSION CWD|MESSAGE" lines to
// the file notified.
func notifyingRig(t *testing.T) (r *rig, notified string) {
	t.Helper()
	r = setupRig(t, tmuxtest.NewServer(t), true)
	notified = filepath.Join(t.TempDir(), "notified")
	script := filepath.Join(t.TempDir(), "notify.sh")
	body := "#!/bin/sh\nprintf '%s %s %s %s|%s\\n' \"$CODEMAN_EVENT\" \"$CODEMAN_KIND\" \"$CODEMAN_SESSION\" \"$CODEMAN_CWD\" \"$1\" >> " + notified + "\n"
	if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
		t.Fatal(err)
	}
	cfg, err := os.ReadFile(r.config)
	if err != nil {
		t.Fatal(err)
	}
	cfg = append(cfg, fmt.Sprintf("\n[notify]\ncommand = [%q]\nnotify_after = \"0s\"\nnotify_resolved = true\n", script)...)
	if err := os.WriteFile(r.config, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	r.start()
	return r, notified
}

// A question in a GNU screen window raises its need too: the command is
// run with the session's name, and the window's message line is told.
func TestDaemon_ScreenNeedsYou(t *testing.T) {
	t.Parallel()
	r, notified := notifyingRig(t)
	addr, log := r.screenSession("ask me a question about the database")
	r.attach(addr)
	r.waitFor("the question raised as a need", 30*time.Second, func() bool {
		st, err := r.client.Pane(context.Background(), addr, 0)
		return err == nil && st.Status.NeedsYou != nil && st.Status.NeedsYou.Kind == respawn.NeedQuestion
	})
	w, _ := screen.ParseAddress(addr)
	_, session, _ := strings.Cut(w.Session, ".")
	r.waitFor("the notification command run and the message line told", 10*time.Second, func() bool {
		out, _ := os.ReadFile(notified)
		h, err := r.client.Health(context.Background())
		told := false
		for _, ch := range h.Notify.Channels {
			told = told || (ch.Name == "status line" && ch.Sent > 0 && ch.Failed == 0)
		}
		return err == nil && told && strings.Contains(string(out), "raised question "+session+" ")
	})
	assertNothingWhileBusy(t, log)
}
