package fakeserver

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// SSE writes server-sent events and flushes each one, so that the client
// sees it at once.
type SSE struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

// StartSSE answers 200 with an event stream; set any other header on w
// before.
func StartSSE(w http.ResponseWriter) *SSE {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return &SSE{w: w, rc: http.NewResponseController(w)}
}

// Send writes one event; data is marshalled to JSON. A write error means
// the client left.
func (e *SSE) Send(event string, data any) error {
	b, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("marshal %s event: %w", event, err)
	}
	if _, err := fmt.Fprintf(e.w, "event: %s\ndata: %s\n\n", event, b); err != nil {
		return err
	}
	return e.rc.Flush()
}
