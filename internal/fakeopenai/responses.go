package fakeopenai

import (
	"fmt"
	"io"
	"net/http"
)

// maxBody caps a request body. Codex's first request is ~50 KB; a long
// session grows to a few MB.
const maxBody = 64 << 20

// serveResponses answers POST /v1/responses: log, pick a reply, answer it.
func (s *Server) serveResponses(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	req := s.newRequest(r, body, http.StatusOK)
	switch {
	case err != nil:
		err = fmt.Errorf("read request body: %w", err)
	case r.Header.Get("Content-Encoding") != "":
		// Codex compresses bodies only for the ChatGPT backend.
		err = fmt.Errorf("read request body: Content-Encoding %q is not supported", r.Header.Get("Content-Encoding"))
	default:
		err = parseResponses(&req, body)
	}
	if err != nil {
		req.Status = http.StatusBadRequest
		s.record(req)
		s.writeError(w, &Reply{Status: http.StatusBadRequest, ErrorMessage: "fakeopenai: " + err.Error()})
		return
	}
	a := s.choose(req)
	req.Retry = a.retry
	if t := a.reply.Tool; t != nil && !t.Custom && !a.reply.failed() {
		if _, err := t.arguments(); err != nil {
			// A script bug: say so in Codex's error line rather than break
			// a stream off halfway.
			a.reply = Reply{Status: http.StatusBadRequest, ErrorMessage: "fakeopenai: " + err.Error()}
		}
	}
	if a.reply.failed() {
		req.Status = a.reply.Status
	}
	s.record(req)
	ctx := r.Context()
	if a.reply.failed() {
		if s.wait(ctx, a.reply.Delay) == nil {
			s.writeError(w, &a.reply)
		}
		return
	}
	s.stream(ctx, w, req, a)
}
