package fakeserver

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// SSE writes server-sent events and flushes each one, so that the client
// sees it at once.
type SSE struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

// StartSSE answers 200 with an event stream and sends the headers at once,
// so that the client sees the stream start before its first event; set any
// other header on w before.
func StartSSE(w http.ResponseWriter) *SSE {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	e := &SSE{w: w, rc: http.NewResponseController(w)}
	e.rc.Flush() // a client gone already fails the first Send
	return e
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

// Event is one server-sent event as a client reads it.
type Event struct {
	Name string
	Data map[string]any
}

// ReadEvent reads the next event of a stream, for tests that play the
// client. At the end of the stream it returns io.EOF.
func ReadEvent(sc *bufio.Scanner) (Event, error) {
	var e Event
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			e.Name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &e.Data); err != nil {
				return e, fmt.Errorf("read event %q: bad data %q: %w", e.Name, line, err)
			}
		case line == "" && e.Name != "":
			return e, nil
		case line == "":
			e = Event{} // data without a name is no event
		}
	}
	if err := sc.Err(); err != nil {
		return e, fmt.Errorf("read event: %w", err)
	}
	return e, io.EOF
}

// ReadEvents reads every event of a stream until it ends.
func ReadEvents(r io.Reader) ([]Event, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	var events []Event
	for {
		e, err := ReadEvent(sc)
		if err == io.EOF {
			return events, nil
		}
		if err != nil {
			return events, err
		}
		events = append(events, e)
	}
}
