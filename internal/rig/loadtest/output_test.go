//go:build linux

package loadtest

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/tmux"
)

// outputWatch records when each pane's output reaches a control client of
// the harness's own, attached the way the daemon's are, so that the time
// of a turn's last byte is known as tmux delivers it.
type outputWatch struct {
	mu      sync.Mutex
	chunks  map[string][]time.Time // pane id -> arrival times
	clients map[string]*tmux.Client
}

func (r *rig) watchOutput(t *testing.T, ids []string) *outputWatch {
	t.Helper()
	w := &outputWatch{chunks: map[string][]time.Time{}, clients: map[string]*tmux.Client{}}
	t.Cleanup(w.close)
	srv := tmux.Server{Socket: r.tmux.Socket()}
	for _, id := range ids {
		session := strings.TrimSpace(r.tmux.Tmux("display-message", "-p", "-t", id, "#{session_name}"))
		c := w.clients[session]
		if c == nil {
			// Unpaced: the stamps must be when output came, not when a
			// paced reader got to it.
			c = tmux.NewClient(srv, session, tmux.ClientOptions{ReadPace: -1})
			if err := c.Start(context.Background()); err != nil {
				t.Fatalf("watch the output of session %s: %v", session, err)
			}
			w.clients[session] = c
		}
		c.Subscribe(id, func(_ []byte, at time.Time) {
			w.mu.Lock()
			w.chunks[id] = append(w.chunks[id], at)
			w.mu.Unlock()
		})
	}
	return w
}

// lastIn returns the arrival of the pane's last output chunk in
// [from, before) and how many chunks arrived then.
func (w *outputWatch) lastIn(paneID string, from, before time.Time) (time.Time, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	var last time.Time
	n := 0
	for _, at := range w.chunks[paneID] {
		if !at.Before(from) && at.Before(before) {
			last = at
			n++
		}
	}
	return last, n
}

// client returns the watch's control client of a session.
func (w *outputWatch) client(session string) *tmux.Client { return w.clients[session] }

func (w *outputWatch) close() {
	for _, c := range w.clients {
		c.Close()
	}
}
