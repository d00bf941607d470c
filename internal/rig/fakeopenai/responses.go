package fakeopenai

import (
	"fmt"
	"net/http"

	"github.com/codeman-dev/codeman/internal/rig/fakeserver"
)

// serveResponses answers POST /v1/responses: log, pick a reply, answer it.
func (s *Server) serveResponses(w http.ResponseWriter, r *http.Request) {
	body, err := fakeserver.ReadBody(w, r)
	req := s.newRequest(r, body, http.StatusOK)
	if enc := r.Header.Get("Content-Encoding"); err == nil && enc != "" {
		// Codex compresses bodies only for the ChatGPT backend.
		err = fmt.Errorf("read request body: Content-Encoding %q is not supported", enc)
	}
	if err == nil {
		err = parseResponses(&req, body)
	}
	if err != nil {
		req.Status = http.StatusBadRequest
		s.b.Record(req)
		s.writeError(w, &Reply{Status: http.StatusBadRequest, ErrorMessage: "fakeopenai: " + err.Error()})
		return
	}
	a := s.b.Choose(req)
	req.Retry = a.Retry
	if t := a.Reply.Tool; t != nil && !t.Custom && !a.Reply.failed() {
		if _, err := t.arguments(); err != nil {
			// A script bug: say so in Codex's error line rather than break
			// a stream off halfway.
			a.Reply = Reply{Status: http.StatusBadRequest, ErrorMessage: "fakeopenai: " + err.Error()}
		}
	}
	if a.Reply.failed() {
		req.Status = a.Reply.Status
	}
	s.b.Record(req)
	ctx := r.Context()
	if a.Reply.failed() {
		if s.wait(ctx, a.Reply.Delay) == nil {
			s.writeError(w, &a.Reply)
		}
		return
	}
	s.stream(ctx, w, req, a)
}
