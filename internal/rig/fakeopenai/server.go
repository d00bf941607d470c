package fakeopenai

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/fakeserver"
)

// Server is a fake Responses API listening on loopback. Its methods are
// safe for concurrent use. The embedded fakeserver.Server holds the script
// (Handle, HandleFunc, Enqueue, SetDefault), the request log (Requests,
// WaitForRequest), the Clock that times delays and pauses, URL (the
// server's root) and Close.
type Server struct {
	*fakeserver.Server[Request, Reply]

	b fakeserver.Backend[Request, Reply]
}

// format is how the shared parts read Responses API requests and replies.
var format = fakeserver.Format[Request, Reply]{
	Name:        "fakeopenai",
	Default:     Reply{Text: DefaultText},
	Title:       Reply{Text: TitleText},
	ToolResults: func(req Request) []string { return req.CallIDs },
	Sticks:      func(r Reply) bool { return r.failed() || r.Failed != nil },
	ToolCall:    func(r Reply) (bool, *Reply) { return r.Tool != nil, r.Next },
	CallPrefix:  "call_fake",
	RetryKey:    bodyKey,
}

// New starts a server on 127.0.0.1 for one test and closes it in the
// test's cleanup.
func New(t testing.TB) *Server {
	t.Helper()
	return fakeserver.ForTest(t, Start)
}

// Start listens on addr (such as "127.0.0.1:0") and serves until Close.
func Start(addr string) (*Server, error) {
	b, err := fakeserver.Listen(addr, format)
	if err != nil {
		return nil, err
	}
	s := &Server{Server: b.Server(), b: b}
	b.Serve(s.routes())
	return s, nil
}

// BaseURL returns the base_url of a Codex model provider that talks to
// the server: URL plus /v1, to which Codex appends /responses.
func (s *Server) BaseURL() string { return s.URL() + "/v1" }

// routes returns the API's handler.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/responses", s.serveResponses)
	mux.HandleFunc("/", s.serveNotFound)
	return mux
}

// serveNotFound answers anything else with an OpenAI-style 404, logged so
// that a test sees what Codex asked for.
func (s *Server) serveNotFound(w http.ResponseWriter, r *http.Request) {
	s.b.Record(s.newRequest(r, nil, http.StatusNotFound))
	s.writeError(w, &Reply{Status: http.StatusNotFound})
}

// newRequest starts the log entry of r.
func (s *Server) newRequest(r *http.Request, body []byte, status int) Request {
	return Request{Request: s.b.NewRequest(r, body, status)}
}

// wait blocks for d on the server's clock. It returns early with an error
// when ctx ends (the client left or the server closes).
func (s *Server) wait(ctx context.Context, d time.Duration) error {
	return s.b.Wait(ctx, d, 0, nil)
}
