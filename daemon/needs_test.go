package daemon

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/simclaude"
	"github.com/codeman-dev/codeman/respawn"
	"github.com/codeman-dev/codeman/tmux"
)

// A question in a real pane raises "needs you" everywhere a person looks:
// the pane's status, its status line, its window's option and the event
// stream; answering it clears them all, and nothing was typed into it.
func TestDaemon_NeedsYouRaisedAndCleared(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	addr, log := r.session("ask", "ask me a question about the database")
	pane := strings.TrimPrefix(addr, "tmux:"+r.tmux.Socket()+":")

	var mu sync.Mutex
	var events []Event
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opened := make(chan struct{})
	go r.client.Follow(ctx, addr, func() { close(opened) }, func(e Event) error {
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
	st, _ := r.client.Pane(context.Background(), addr, 0)
	if !strings.Contains(st.Status.NeedsYou.Reason, "database") {
		t.Errorf("need reason %q does not say what is asked", st.Status.NeedsYou.Reason)
	}

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
			raised = raised || (e.Kind == EventNeedsYou && strings.HasPrefix(e.Reason, "question: "))
			resolved = resolved || (e.Kind == EventResolved && strings.HasPrefix(e.Reason, "question: "))
		}
		return raised && resolved
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
