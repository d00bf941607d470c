// Package fakentfy is an ntfy server on loopback for tests: a topic takes
// messages published to it (POST /TOPIC, with ntfy's headers: Title,
// Priority, Tags, Actions) and streams them as ntfy's JSON stream does
// (GET /TOPIC/json, resumed with since= a message ID, a Unix time or
// "all"), so that a test can see what codeman sent, press a button as the
// phone would, and drop a subscription to make codeman reconnect. Only
// tests import it.
package fakentfy

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Message is one message of a topic.
type Message struct {
	ID     string
	Time   int64 // Unix seconds
	Topic  string
	Body   string
	Header http.Header // the publish request's headers
}

// Action is one button of a message, as the Actions header's JSON form
// gives it.
type Action struct {
	Action  string            `json:"action"`
	Label   string            `json:"label"`
	URL     string            `json:"url"`
	Method  string            `json:"method"`
	Body    string            `json:"body"`
	Headers map[string]string `json:"headers"`
	Clear   bool              `json:"clear"`
}

// Server is the fake. Its zero value is not usable: Start makes one.
type Server struct {
	ln  net.Listener
	srv *http.Server

	mu       sync.Mutex
	seq      int
	topics   map[string][]Message
	changed  chan struct{} // closed and replaced on every publish and drop
	token    string        // required as Authorization: Bearer when set
	dropped  int           // generation: streams older than it end
	subs     map[string]int
	requests []string // "METHOD /path?query" of every request
}

// Start starts a fake on a free loopback port and stops it when the test
// ends.
func Start(t testing.TB) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{ln: ln, topics: map[string][]Message{}, changed: make(chan struct{}), subs: map[string]int{}}
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serve), ReadHeaderTimeout: 5 * time.Second}
	go s.srv.Serve(ln)
	t.Cleanup(func() { s.srv.Close() })
	return s
}

// URL is the server's base URL; a topic's URL is URL()+"/"+topic.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() }

// RequireToken makes every request need "Authorization: Bearer token".
func (s *Server) RequireToken(token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.token = token
}

// Published returns the messages of topic.
func (s *Server) Published(topic string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.topics[topic]...)
}

// Requests returns every request so far, "GET /topic/json?since=…".
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

// Subscribers is how many streams of topic are open.
func (s *Server) Subscribers(topic string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.subs[topic]
}

// Wait waits up to timeout for cond over the server's state, checked at
// every change, and fails the test if it never holds.
func (s *Server) Wait(t testing.TB, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.After(timeout)
	for {
		s.mu.Lock()
		ch := s.changed
		s.mu.Unlock()
		if cond() {
			return
		}
		select {
		case <-ch:
		case <-time.After(50 * time.Millisecond): // cond may read more than the server
		case <-deadline:
			t.Fatalf("fakentfy: %s: not within %s", what, timeout)
		}
	}
}

// Publish adds a message to topic, as a POST would, and returns it.
func (s *Server) Publish(topic, body string, header http.Header) Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	m := Message{ID: fmt.Sprintf("m%06d", s.seq), Time: time.Now().Unix(), Topic: topic, Body: body, Header: header}
	s.topics[topic] = append(s.topics[topic], m)
	s.notify()
	return m
}

// DropStreams ends every open stream, as a network that fails does.
func (s *Server) DropStreams() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dropped++
	s.notify()
}

// Press does what the phone does when a button is pressed: the action's
// request, sent to this server.
func (s *Server) Press(t testing.TB, a Action) {
	t.Helper()
	req, err := http.NewRequest(strings.ToUpper(a.Method), a.URL, strings.NewReader(a.Body))
	if a.Method == "" {
		req, err = http.NewRequest(http.MethodPost, a.URL, strings.NewReader(a.Body))
	}
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range a.Headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("pressing %q: %s", a.Label, resp.Status)
	}
}

// Actions reads the buttons of m from its Actions header's JSON.
func Actions(m Message) ([]Action, error) {
	v := m.Header.Get("Actions")
	if v == "" {
		return nil, nil
	}
	var as []Action
	if err := json.Unmarshal([]byte(v), &as); err != nil {
		return nil, fmt.Errorf("Actions header %q: %w", v, err)
	}
	return as, nil
}

// notify wakes every waiter. s.mu is held.
func (s *Server) notify() {
	close(s.changed)
	s.changed = make(chan struct{})
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests = append(s.requests, r.Method+" "+r.URL.RequestURI())
	token := s.token
	s.mu.Unlock()
	if token != "" && r.Header.Get("Authorization") != "Bearer "+token {
		http.Error(w, `{"code":40101,"http":401,"error":"unauthorized"}`, http.StatusUnauthorized)
		return
	}
	path := strings.Trim(r.URL.Path, "/")
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(path, "/json"):
		s.stream(w, r, strings.TrimSuffix(path, "/json"))
	case (r.Method == http.MethodPost || r.Method == http.MethodPut) && path != "" && !strings.Contains(path, "/"):
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		m := s.Publish(path, string(body), r.Header.Clone())
		json.NewEncoder(w).Encode(map[string]any{"id": m.ID, "time": m.Time, "event": "message", "topic": m.Topic, "message": m.Body})
	default:
		http.NotFound(w, r)
	}
}

// stream writes topic's messages after since, then each new one, until
// the client goes, the server closes or DropStreams.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, topic string) {
	flusher, _ := w.(http.Flusher)
	bw := bufio.NewWriter(w)
	write := func(v any) bool {
		b, _ := json.Marshal(v)
		bw.Write(append(b, '\n'))
		if bw.Flush() != nil {
			return false
		}
		if flusher != nil {
			flusher.Flush()
		}
		return true
	}
	s.mu.Lock()
	gen := s.dropped
	next := s.after(topic, r.URL.Query().Get("since"))
	s.subs[topic]++
	s.notify()
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.subs[topic]--
		s.notify()
		s.mu.Unlock()
	}()
	w.Header().Set("Content-Type", "application/x-ndjson; charset=utf-8")
	if !write(map[string]any{"id": "open", "time": time.Now().Unix(), "event": "open", "topic": topic}) {
		return
	}
	for {
		s.mu.Lock()
		msgs := s.topics[topic]
		var todo []Message
		if next < len(msgs) {
			todo = append(todo, msgs[next:]...)
			next = len(msgs)
		}
		ch, stop := s.changed, s.dropped != gen
		s.mu.Unlock()
		for _, m := range todo {
			if !write(map[string]any{"id": m.ID, "time": m.Time, "event": "message", "topic": m.Topic, "message": m.Body}) {
				return
			}
		}
		if stop {
			return
		}
		select {
		case <-ch:
		case <-r.Context().Done():
			return
		}
	}
}

// after is the index of topic's first message after since. s.mu is held.
func (s *Server) after(topic, since string) int {
	msgs := s.topics[topic]
	switch {
	case since == "all":
		return 0
	case since == "":
		return len(msgs)
	}
	if t, err := strconv.ParseInt(since, 10, 64); err == nil {
		for i, m := range msgs {
			if m.Time >= t {
				return i
			}
		}
		return len(msgs)
	}
	for i, m := range msgs {
		if m.ID == since {
			return i + 1
		}
	}
	return 0 // an ID it does not know: everything it keeps, as ntfy does
}
