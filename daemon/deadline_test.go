package daemon

import (
	"context"
	"errors"
	"net"
	"net/http"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
)

// frozenAPI serves a daemon's API on a socket of its own whose connections
// wait in the kernel's queue, as a daemon stopped with kill -STOP leaves
// them, until thaw. handled gets each connection's end, once the daemon
// has answered what it read on it.
type frozenAPI struct {
	socket  string
	thaw    func()
	handled chan http.ConnState
}

func serveFrozen(t *testing.T, d *Daemon) *frozenAPI {
	t.Helper()
	socket := filepath.Join(t.TempDir(), "frozen.sock")
	ln, err := net.Listen("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	thawed := make(chan struct{})
	f := &frozenAPI{socket: socket, thaw: sync.OnceFunc(func() { close(thawed) }), handled: make(chan http.ConnState, 16)}
	srv := &http.Server{Handler: d.routes(), ConnState: func(_ net.Conn, s http.ConnState) {
		if s == http.StateIdle || s == http.StateClosed {
			f.handled <- s
		}
	}}
	go srv.Serve(gatedListener{ln, thawed})
	t.Cleanup(func() { f.thaw(); srv.Close() })
	return f
}

// gatedListener accepts nothing until open is closed.
type gatedListener struct {
	net.Listener
	open <-chan struct{}
}

func (l gatedListener) Accept() (net.Conn, error) {
	<-l.open
	return l.Listener.Accept()
}

// A pause the client gave up on, and said so, does not happen when the
// daemon gets to it later: its deadline has passed by then.
func TestDaemon_PauseGivenUpNeverHappens(t *testing.T) {
	r := newRig(t)
	addr, _ := r.session("work", "hello there")
	r.attach(addr)
	frozen := serveFrozen(t, r.d)

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := api.NewClient(frozen.socket).Pause(ctx, addr, true)
	var na *api.NotAnsweringError
	if !errors.As(err, &na) {
		t.Fatalf("pause on a daemon that does not answer: %v, want a *NotAnsweringError", err)
	}

	frozen.thaw()
	select {
	case <-frozen.handled:
	case <-time.After(10 * time.Second):
		t.Fatal("the thawed daemon did not get to the queued pause within 10s")
	}
	st, err := r.client.Pane(context.Background(), addr, 5)
	if err != nil {
		t.Fatal(err)
	}
	if st.Status.Paused {
		t.Fatalf("the pause its client gave up on happened later: %+v", st.Status.Decisions)
	}
}
