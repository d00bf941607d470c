package fakeserver_test

import (
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/fakeserver"
)

func TestErrorKind(t *testing.T) {
	for status, want := range map[int]string{429: "rate_limit", 500: "server_error", 503: "server_error", 418: "bad_request", 400: "bad_request"} {
		if got := fakeserver.ErrorKind(errorKinds, status); got != want {
			t.Errorf("ErrorKind(%d) = %q, want %q", status, got, want)
		}
	}
}

func TestWriteJSON(t *testing.T) {
	w := httptest.NewRecorder()
	if err := fakeserver.WriteJSON(w, 529, map[string]string{"a": "b"}); err != nil {
		t.Fatal(err)
	}
	if w.Code != 529 || w.Header().Get("Content-Type") != "application/json" || w.Body.String() != `{"a":"b"}` {
		t.Errorf("wrote %d %v %q", w.Code, w.Header(), w.Body)
	}

	w = httptest.NewRecorder()
	if err := fakeserver.WriteJSON(w, 200, func() {}); err == nil || w.Body.Len() != 0 || w.Header().Get("Content-Type") != "" {
		t.Errorf("unmarshallable answer: error %v, wrote %q", err, w.Body)
	}
}

func TestPiecesAndJoin(t *testing.T) {
	chunks := []fakeserver.Chunk{{Text: "one "}, {Pause: time.Second, Text: "two"}}
	for _, tc := range []struct {
		text   string
		chunks []fakeserver.Chunk
		pieces []fakeserver.Chunk
		whole  string
	}{
		{"", nil, nil, ""},
		{"hi", nil, []fakeserver.Chunk{{Text: "hi"}}, "hi"},
		{"ignored", chunks, chunks, "one two"},
	} {
		if got := fakeserver.Pieces(tc.text, tc.chunks); !reflect.DeepEqual(got, tc.pieces) {
			t.Errorf("Pieces(%q, %v) = %v, want %v", tc.text, tc.chunks, got, tc.pieces)
		}
		if got := fakeserver.Join(tc.text, tc.chunks); got != tc.whole {
			t.Errorf("Join(%q, %v) = %q, want %q", tc.text, tc.chunks, got, tc.whole)
		}
	}
}

func TestRequest_HasTool(t *testing.T) {
	r := fakeserver.Request{Tools: []string{"Bash", "Write"}}
	if !r.HasTool("Write") || r.HasTool("Read") {
		t.Errorf("HasTool wrong for %v", r.Tools)
	}
}

func TestReadEvents(t *testing.T) {
	stream := "event: a\ndata: {\"n\":1}\n\n" +
		"data: {\"orphan\":true}\n\n" + // no name: no event
		": a comment\nevent: b\ndata: {}\n\n" +
		"event: cut\ndata: {}\n" // no blank line: the stream ended mid-event
	events, err := fakeserver.ReadEvents(strings.NewReader(stream))
	want := []fakeserver.Event{{Name: "a", Data: map[string]any{"n": 1.0}}, {Name: "b", Data: map[string]any{}}}
	if err != nil || !reflect.DeepEqual(events, want) {
		t.Errorf("ReadEvents = %+v, %v; want %+v", events, err, want)
	}
	if _, err := fakeserver.ReadEvents(strings.NewReader("event: a\ndata: nope\n\n")); err == nil || !strings.Contains(err.Error(), `read event "a": bad data`) {
		t.Errorf("bad data: error %v", err)
	}
}
