package fakeserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

// Server is a fake model API listening on loopback, as its tests see it.
// Its methods are safe for concurrent use.
type Server[Req Entry, Rep any] struct {
	// Clock times delays, pauses and the waits for requests. Default the
	// real clock. Set it before the first request.
	Clock clockwork.Clock

	format    Format[Req, Rep]
	ln        net.Listener
	srv       *http.Server
	ctx       context.Context // cancelled by Close: ends every wait
	cancel    context.CancelFunc
	serveErr  chan error
	handlers  sync.WaitGroup
	closeOnce sync.Once

	mu      sync.Mutex
	serving bool
	closed  bool
	seq     int // numbers the ids of requests, messages, items
	script  script[Req, Rep]
	log     []Req
	logged  chan struct{} // closed and replaced whenever log grows
}

// Backend is what a format's handlers use of a Server. It is a type of its
// own so that the Server a format embeds offers tests only their methods.
type Backend[Req Entry, Rep any] struct{ s *Server[Req, Rep] }

// Listen listens on addr (such as "127.0.0.1:0" or "127.0.0.1:8765") for a
// server of format f. The server answers nothing until Serve.
func Listen[Req Entry, Rep any](addr string, f Format[Req, Rep]) (Backend[Req, Rep], error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return Backend[Req, Rep]{}, fmt.Errorf("listen on %s: %w", addr, err)
	}
	s := &Server[Req, Rep]{
		Clock:    clockwork.NewRealClock(),
		format:   f,
		ln:       ln,
		serveErr: make(chan error, 1),
		logged:   make(chan struct{}),
		script:   newScript[Req](f.Default),
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	return Backend[Req, Rep]{s}, nil
}

// ForTest starts a server on 127.0.0.1 with start (a format's Start) for one
// test and closes it in the test's cleanup.
func ForTest[S interface{ Close() }](t testing.TB, start func(addr string) (S, error)) S {
	t.Helper()
	s, err := start("127.0.0.1:0")
	if err != nil {
		t.Fatalf("start fake server: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

// Server returns the server, for the format's own Server to embed.
func (b Backend[Req, Rep]) Server() *Server[Req, Rep] { return b.s }

// Serve answers requests with h until Close.
func (b Backend[Req, Rep]) Serve(h http.Handler) {
	s := b.s
	s.srv = &http.Server{
		Handler:           s.track(h),
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return s.ctx },
	}
	s.mu.Lock()
	s.serving = true
	s.mu.Unlock()
	go func() { s.serveErr <- s.srv.Serve(s.ln) }()
}

// URL returns the server's root, e.g. http://127.0.0.1:41234.
func (s *Server[Req, Rep]) URL() string { return "http://" + s.ln.Addr().String() }

// Close stops the server. It cuts every stream still waiting and returns
// once every handler has returned and the serve loop has ended.
func (s *Server[Req, Rep]) Close() {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		serving := s.serving
		s.mu.Unlock()
		s.cancel()
		if !serving {
			s.ln.Close() // nothing was accepted on it; nothing to report
			return
		}
		s.srv.Close() // the listener and every connection; never fails in a way that matters here
		s.handlers.Wait()
		if err := <-s.serveErr; err != nil && !errors.Is(err, http.ErrServerClosed) {
			panic(fmt.Sprintf("%s: serve: %v", s.format.Name, err)) // a closed server is the only way out
		}
	})
}

// track counts running handlers so that Close can wait for them, and turns
// requests away once Close has begun.
func (s *Server[Req, Rep]) track(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			http.Error(w, s.format.Name+": closed", http.StatusServiceUnavailable)
			return
		}
		s.handlers.Add(1)
		s.mu.Unlock()
		defer s.handlers.Done()
		next.ServeHTTP(w, r)
	})
}

// NewID returns prefix and a number no other id of the server has, such as
// "req_fake_7" for "req_fake".
func (b Backend[Req, Rep]) NewID(prefix string) string {
	s := b.s
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	return fmt.Sprintf("%s_%d", prefix, s.seq)
}
