package fakeopenai

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

// Server is a fake Responses API listening on loopback. Its methods are
// safe for concurrent use.
type Server struct {
	// Clock times delays and pauses. Default the real clock. Set it before
	// the first request.
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
	seq    int // numbers responses, items, calls and requests
	script script
	log    []Request
	logged chan struct{} // closed and replaced whenever log grows
}

// New starts a server on 127.0.0.1 for one test and closes it in the
// test's cleanup.
func New(t testing.TB) *Server {
	t.Helper()
	s, err := Start("127.0.0.1:0")
	if err != nil {
		t.Fatalf("fakeopenai: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

// Start listens on addr (such as "127.0.0.1:0") and serves until Close.
func Start(addr string) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	s := &Server{
		Clock:    clockwork.NewRealClock(),
		ln:       ln,
		serveErr: make(chan error, 1),
		logged:   make(chan struct{}),
		script:   newScript(),
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

// URL returns the server's root, e.g. http://127.0.0.1:41234.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() }

// BaseURL returns the base_url of a Codex model provider that talks to
// the server: URL plus /v1, to which Codex appends /responses.
func (s *Server) BaseURL() string { return s.URL() + "/v1" }

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
			panic(fmt.Sprintf("fakeopenai: serve: %v", err)) // a closed server is the only way out
		}
	})
}

// routes returns the API's handler.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/responses", s.serveResponses)
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
			http.Error(w, "fakeopenai: closed", http.StatusServiceUnavailable)
			return
		}
		s.handlers.Add(1)
		s.mu.Unlock()
		defer s.handlers.Done()
		next.ServeHTTP(w, r)
	})
}

// serveNotFound answers anything else with an OpenAI-style 404, logged so
// that a test sees what Codex asked for.
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

// wait blocks for d on the server's clock. It returns early with an error
// when ctx ends (the client left or the server closes).
func (s *Server) wait(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	timer := s.Clock.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.Chan():
		return nil
	}
}
