package notify

import (
	"encoding/json"
	"time"
)

// payload is the body of the url channel's json format; the package doc
// lists its fields, and the tests hold it to that list.
type payload struct {
	Event       Event  `json:"event"`
	Title       string `json:"title"`
	Message     string `json:"message"`
	Pane        string `json:"pane"`
	Target      string `json:"target"`
	Kind        string `json:"kind"`
	Reason      string `json:"reason"`
	Session     string `json:"session"`
	Window      string `json:"window"`
	Cwd         string `json:"cwd"`
	Since       string `json:"since"`
	At          string `json:"at"`
	HeldSeconds int64  `json:"held_seconds"`
	Count       int    `json:"count"`
}

// jsonBody is m in the json format. Every string from the pane is one
// line as oneLine shows it, as the title and message are: the receiver
// may show any field to a person.
func jsonBody(m Message) []byte {
	h := m.Hold
	p := payload{
		Event: m.Event, Title: oneLine(m.Title), Message: oneLine(m.Text),
		Pane: oneLine(h.Pane), Target: oneLine(h.Target), Kind: oneLine(h.Kind), Reason: oneLine(h.Reason),
		Session: oneLine(h.Session), Window: oneLine(h.Window), Cwd: oneLine(h.Cwd),
		At: m.At.Format(time.RFC3339), HeldSeconds: int64(m.Held() / time.Second), Count: m.Count,
	}
	if !h.Since.IsZero() {
		p.Since = h.Since.Format(time.RFC3339)
	}
	b, err := json.Marshal(p)
	if err != nil {
		panic("notify: marshal payload: " + err.Error()) // strings and numbers always marshal
	}
	return b
}
