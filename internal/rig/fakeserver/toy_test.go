package fakeserver_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/codeman-dev/codeman/internal/rig/fakeserver"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// request is the toy format's request: a user turn, or with Results the
// continuation of tool calls.
type request struct {
	fakeserver.Request
	Results []string
}

// reply is the toy format's reply.
type reply struct {
	Text   string
	Status int           // an HTTP error when not 0
	Lapses bool          // the error does not stick to a retry
	Tool   bool          // the reply calls a tool
	Next   *reply        // the reply to that tool's result
	Delay  time.Duration // the wait before a stream's text, with pings
}

var format = fakeserver.Format[request, reply]{
	Name:        "toy",
	Default:     reply{Text: "default"},
	Title:       reply{Text: "title"},
	ToolResults: func(req request) []string { return req.Results },
	Sticks:      func(r reply) bool { return r.Status != 0 && !r.Lapses },
	ToolCall:    func(r reply) (bool, *reply) { return r.Tool, r.Next },
	CallPrefix:  "call_toy",
}

// errorKinds are the toy format's error types.
var errorKinds = map[int]string{400: "bad_request", 429: "rate_limit", 500: "server_error"}

// toy is a server of the toy format. POST /turn takes a JSON turn and
// answers {"text", "call_id"}, an error {"error"}, or with "stream" an
// event stream: pings every 5 s while the reply's Delay lasts, then one
// "text" event.
type toy struct {
	*fakeserver.Server[request, reply]
	b fakeserver.Backend[request, reply]
}

// turn is the body of a toy request.
type turn struct {
	Text    string   `json:"text"`
	Results []string `json:"results,omitempty"`
	Title   bool     `json:"title,omitempty"`
	Stream  bool     `json:"stream,omitempty"`
	Nonce   int      `json:"nonce,omitempty"` // tells apart turns that are not retries
}

func startToy(addr string) (*toy, error) {
	b, err := fakeserver.Listen(addr, format)
	if err != nil {
		return nil, err
	}
	s := &toy{Server: b.Server(), b: b}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /turn", s.serveTurn)
	b.Serve(mux)
	return s, nil
}

func (s *toy) serveTurn(w http.ResponseWriter, r *http.Request) {
	body, err := fakeserver.ReadBody(w, r)
	req := request{Request: s.b.NewRequest(r, body, http.StatusOK)}
	var in turn
	if err == nil {
		err = json.Unmarshal(body, &in)
	}
	if err != nil {
		req.Status = http.StatusBadRequest
		s.b.Record(req)
		fakeserver.WriteJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
		return
	}
	req.LastUserText, req.Results, req.Title, req.Stream = in.Text, in.Results, in.Title, in.Stream
	a := s.b.Choose(req)
	req.Retry = a.Retry
	if a.Reply.Status != 0 {
		req.Status = a.Reply.Status
	}
	s.b.Record(req)
	switch {
	case a.Reply.Status != 0:
		fakeserver.WriteJSON(w, a.Reply.Status, map[string]string{"error": fakeserver.ErrorKind(errorKinds, a.Reply.Status)})
	case req.Stream:
		ev := fakeserver.StartSSE(w)
		ping := func() error { return ev.Send("ping", map[string]string{}) }
		if s.b.Wait(r.Context(), a.Reply.Delay, 5*time.Second, ping) == nil {
			ev.Send("text", map[string]string{"text": a.Reply.Text, "id": s.b.NewID("msg_toy")})
		}
	default:
		fakeserver.WriteJSON(w, http.StatusOK, map[string]string{"text": a.Reply.Text, "call_id": a.CallID})
	}
}

// answer is a decoded JSON answer of the toy server.
type answer struct {
	Status int
	Text   string `json:"text"`
	CallID string `json:"call_id"`
	Error  string `json:"error"`
}

// post sends a turn and returns the response, closed at cleanup.
func post(t *testing.T, s *toy, in turn) *http.Response {
	t.Helper()
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(s.URL()+"/turn", "application/json", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// ask sends a turn and decodes the JSON answer.
func ask(t *testing.T, s *toy, in turn) answer {
	t.Helper()
	resp := post(t, s, in)
	var a answer
	if err := json.NewDecoder(resp.Body).Decode(&a); err != nil {
		t.Fatalf("decode answer to %+v: %v", in, err)
	}
	a.Status = resp.StatusCode
	return a
}
