package fakeapi

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

// DefaultPingInterval is how often a stream that waits sends a ping event.
// The real API pings about every 5 s, and Claude Code kept a 70 s wait
// alive with it (docs/claude-code.md).
const DefaultPingInterval = 5 * time.Second

// Server is a fake Messages API listening on loopback. Its methods are safe
// for concurrent use.
type Server struct {
	// PingInterval is how often a waiting stream sends a ping event.
	// Default DefaultPingInterval. Set it before the first request.
	PingInterval time.Duration
	// Clock times delays, pauses and pings. Default the real clock. Set it
	// before the first request.
	Clock clockwork.Clock

	ln        net.Listener
	srv       *http.Server
	ctx       context.Context // cancelled by Close: ends every wait
	cancel    context.CancelFunc
	serveErr  chan error
	handlers  sync.WaitGroup
	closeOnce sync.Once

	mu     sync.Mutex
	closed bool
	seq    int // numbers messages, requests and errors
	script script
	log    []Request
	logged chan struct{} // closed and replaced whenever log grows
}

// New starts a server on 127.0.0.1 for one test and closes it in the test's
// cleanup.
func New(t testing.TB) *Server {
	t.Helper()
	s, err := Start("127.0.0.1:0")
	if err != nil {
		t.Fatalf("fakeapi: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

// Start listens on addr (such as "127.0.0.1:0" or "127.0.0.1:8765") and
// serves until Close.
func Start(addr string) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	s := &Server{
		PingInterval: DefaultPingInterval,
		Clock:        clockwork.NewRealClock(),
		ln:           ln,
		serveErr:     make(chan error, 1),
		logged:       make(chan struct{}),
		script:       newScript(),
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.srv = &http.Server{
		Handler:           s.routes(),
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return s.ctx },
	}
	go func() { s.serveErr <- s.srv.Serve(ln) }()
	return s, nil
}

// URL returns the base URL for ANTHROPIC_BASE_URL, e.g. http://127.0.0.1:41234.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() }

// Close stops the server. It cuts every stream still waiting and returns
// once every handler has returned and the serve loop has ended.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		s.mu.Unlock()
		s.cancel()
		s.srv.Close() // the listener and every connection; never fails in a way that matters here
		s.handlers.Wait()
		if err := <-s.serveErr; err != nil && !errors.Is(err, http.ErrServerClosed) {
			panic(fmt.Sprintf("fakeapi: serve: %v", err)) // a closed server is the only way out
		}
	})
}

// routes returns the API's handler.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/messages", s.serveMessages)
	mux.HandleFunc("HEAD /api/hello", s.serveHello)
	mux.HandleFunc("GET /api/hello", s.serveHello)
	mux.HandleFunc("/", s.serveNotFound)
	return s.track(mux)
}

// track counts running handlers so that Close can wait for them, and turns
// requests away once Close has begun.
func (s *Server) track(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			http.Error(w, "fakeapi: closed", http.StatusServiceUnavailable)
			return
		}
		s.handlers.Add(1)
		s.mu.Unlock()
		defer s.handlers.Done()
		next.ServeHTTP(w, r)
	})
}

// serveHello answers Claude Code's connectivity check.
func (s *Server) serveHello(w http.ResponseWriter, r *http.Request) {
	s.record(s.newRequest(r, nil, http.StatusOK))
	w.WriteHeader(http.StatusOK)
}

// serveNotFound answers anything else with an Anthropic-style 404.
func (s *Server) serveNotFound(w http.ResponseWriter, r *http.Request) {
	s.record(s.newRequest(r, nil, http.StatusNotFound))
	s.writeError(w, &Reply{Status: http.StatusNotFound})
}

// newRequest starts the log entry of r.
func (s *Server) newRequest(r *http.Request, body []byte, status int) Request {
	return Request{
		At:     s.Clock.Now(),
		Method: r.Method,
		Path:   r.URL.Path,
		Status: status,
		Header: r.Header.Clone(),
		Body:   body,
	}
}

// nextSeq returns a fresh number for an id.
func (s *Server) nextSeq() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	return s.seq
}
