package fakeapi

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/fakeserver"
)

// DefaultPingInterval is how often a stream that waits sends a ping event.
// The real API pings about every 5 s, and Claude Code kept a 70 s wait
// alive with it (docs/claude-code.md).
const DefaultPingInterval = 5 * time.Second

// Server is a fake Messages API listening on loopback. Its methods are safe
// for concurrent use. The embedded fakeserver.Server holds the script
// (Handle, HandleFunc, Enqueue, SetDefault), the request log (Requests,
// WaitForRequest), the Clock that times delays, pauses and pings, URL (the
// base URL for ANTHROPIC_BASE_URL) and Close.
type Server struct {
	*fakeserver.Server[Request, Reply]
	// PingInterval is how often a waiting stream sends a ping event.
	// Default DefaultPingInterval. Set it before the first request.
	PingInterval time.Duration

	b fakeserver.Backend[Request, Reply]
}

// format is how the shared parts read Messages API requests and replies.
var format = fakeserver.Format[Request, Reply]{
	Name:        "fakeapi",
	Default:     Reply{Text: DefaultText},
	Title:       Reply{Text: TitleText},
	ToolResults: func(req Request) []string { return req.ToolUseIDs },
	Sticks:      func(r Reply) bool { return (r.failed() || r.MidStreamError) && !r.lapses },
	ToolCall:    func(r Reply) (bool, *Reply) { return r.Tool != nil, r.Next },
	CallPrefix:  "toolu_fake",
	// Claude Code retries by resending the very same body (its
	// x-stainless-retry-count stays 0): the default key fits.
}

// New starts a server on 127.0.0.1 for one test and closes it in the test's
// cleanup.
func New(t testing.TB) *Server {
	t.Helper()
	return fakeserver.ForTest(t, Start)
}

// Start listens on addr (such as "127.0.0.1:0" or "127.0.0.1:8765") and
// serves until Close.
func Start(addr string) (*Server, error) {
	b, err := fakeserver.Listen(addr, format)
	if err != nil {
		return nil, err
	}
	s := &Server{Server: b.Server(), PingInterval: DefaultPingInterval, b: b}
	b.Serve(s.routes())
	return s, nil
}

// routes returns the API's handler.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/messages", s.serveMessages)
	mux.HandleFunc("HEAD /api/hello", s.serveHello)
	mux.HandleFunc("GET /api/hello", s.serveHello)
	mux.HandleFunc("/", s.serveNotFound)
	return mux
}

// serveHello answers Claude Code's connectivity check.
func (s *Server) serveHello(w http.ResponseWriter, r *http.Request) {
	s.b.Record(s.newRequest(r, nil, http.StatusOK))
	w.WriteHeader(http.StatusOK)
}

// serveNotFound answers anything else with an Anthropic-style 404.
func (s *Server) serveNotFound(w http.ResponseWriter, r *http.Request) {
	s.b.Record(s.newRequest(r, nil, http.StatusNotFound))
	s.writeError(w, &Reply{Status: http.StatusNotFound})
}

// newRequest starts the log entry of r.
func (s *Server) newRequest(r *http.Request, body []byte, status int) Request {
	return Request{Request: s.b.NewRequest(r, body, status)}
}

// wait blocks for d on the server's clock, calling ping at every
// PingInterval meanwhile when ping is not nil; see fakeserver.Backend.Wait.
func (s *Server) wait(ctx context.Context, d time.Duration, ping func() error) error {
	return s.b.Wait(ctx, d, s.PingInterval, ping)
}
