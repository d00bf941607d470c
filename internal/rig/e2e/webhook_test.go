package e2e

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
)

// webhook is a notification endpoint on loopback that keeps every JSON
// message it is posted.
type webhook struct {
	srv *httptest.Server

	mu   sync.Mutex
	msgs []webhookMessage
}

// webhookMessage is the part of a notification's JSON body the tests read.
type webhookMessage struct {
	Event  string `json:"event"`
	Pane   string `json:"pane"`
	Kind   string `json:"kind"`
	Reason string `json:"reason"`
}

func newWebhook(t *testing.T) *webhook {
	w := &webhook{}
	w.srv = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		var m webhookMessage
		if err := json.NewDecoder(r.Body).Decode(&m); err != nil {
			http.Error(rw, err.Error(), http.StatusBadRequest)
			return
		}
		w.mu.Lock()
		w.msgs = append(w.msgs, m)
		w.mu.Unlock()
	}))
	t.Cleanup(w.srv.Close)
	return w
}

func (w *webhook) URL() string { return w.srv.URL + "/codeman-e2e" }

// raised returns the "raised" messages about a pane.
func (w *webhook) raised(pane string) []webhookMessage {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []webhookMessage
	for _, m := range w.msgs {
		if m.Event == "raised" && m.Pane == pane {
			out = append(out, m)
		}
	}
	return out
}

// appendConfig adds text to the rig's config file, before the daemon
// starts.
func (r *rig) appendConfig(text string) {
	r.t.Helper()
	f, err := os.OpenFile(r.config, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		r.t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		r.t.Fatal(err)
	}
}
