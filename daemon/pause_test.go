package daemon

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
)

// A paused pane says so in its status and on its status line, types
// nothing, and a resume gives it back its state.
func TestDaemon_PauseAndResume(t *testing.T) {
	r := newRig(t)
	addr, log := r.session("work", "hello there")
	r.attach(addr)
	ctx := context.Background()

	st, err := r.client.Pause(ctx, addr, true)
	if err != nil {
		t.Fatalf("pause %s: %v", addr, err)
	}
	if !st.Status.Paused || st.Status.Line != "paused" {
		t.Fatalf("status after pause: paused=%t line %q", st.Status.Paused, st.Status.Line)
	}
	pane := addr[strings.LastIndexByte(addr, ':')+1:]
	r.waitFor("the status line to say paused", 5*time.Second, func() bool {
		out, err := r.tmux.Run("show-options", "-p", "-t", pane, "-qv", "@codeman-state")
		return err == nil && strings.TrimSpace(out) == "paused"
	})
	panes, err := r.client.Panes(ctx)
	if err != nil || len(panes) != 1 || !panes[0].Status.Paused {
		t.Fatalf("panes after pause: %+v, %v", panes, err)
	}
	// The session's turn ends (1s of work) while paused: nothing is typed.
	r.waitFor("the session's turn to end", 10*time.Second, func() bool {
		return strings.Contains(r.tmux.Capture(pane), "❯")
	})
	// Nothing can be awaited for what must not happen: the wait is longer
	// than completion_confirm and the step delay of fastConfig together.
	time.Sleep(3 * time.Second)
	if got := submits(t, log); len(got) != 0 {
		t.Fatalf("a paused pane received %q", got)
	}

	st, err = r.client.Pause(ctx, addr, false)
	if err != nil || st.Status.Paused || st.Status.Line == "paused" {
		t.Fatalf("status after resume: %+v, %v", st.Status, err)
	}
	r.waitFor("the resumed pane to be cycled", 30*time.Second, func() bool { return len(submits(t, log)) > 0 })

	// A pane that is not controlled cannot be paused.
	if err := r.client.Detach(ctx, addr); err != nil {
		t.Fatal(err)
	}
	if _, err := r.client.Pause(ctx, addr, true); !errors.Is(err, api.ErrNotControlled) {
		t.Fatalf("pause of a detached pane: %v, want ErrNotControlled", err)
	}
}

// A pause outlives the daemon: a restarted daemon adopts the pane paused,
// and a resumed one resumed, for tmux panes and screen windows alike.
func TestDaemon_PauseOutlivesRestart(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"tmux", "screen"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			r := newRig(t)
			var addr string
			if backend == "tmux" {
				addr, _ = r.session("work", "hello there")
			} else {
				addr, _ = r.screenSession("hello there")
			}
			r.attach(addr)
			ctx := context.Background()
			for _, paused := range []bool{true, false} {
				if _, err := r.client.Pause(ctx, addr, paused); err != nil {
					t.Fatalf("pause %s (%t): %v", addr, paused, err)
				}
				r.stopDaemon()
				r.start()
				st, err := r.client.Pane(ctx, addr, 0)
				if err != nil {
					t.Fatalf("after the restart: %v\n%s", err, r.dump())
				}
				if st.Status.Paused != paused {
					t.Fatalf("adopted with paused=%t, want %t\n%s", st.Status.Paused, paused, r.dump())
				}
			}
		})
	}
}
