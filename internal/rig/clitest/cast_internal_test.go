package clitest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"
)

func TestCompleteRunes(t *testing.T) {
	star := "✻" // three bytes: e2 9c bb
	tests := []struct {
		name string
		in   string
		want int
	}{
		{"empty", "", 0},
		{"ascii", "abc", 3},
		{"whole rune", "a" + star, 4},
		{"one byte of three", "a" + star[:1], 1},
		{"two bytes of three", "a" + star[:2], 1},
		{"only a partial rune", star[:2], 0},
		{"stray continuation bytes", "a\x9c\xbb", 3},
		{"invalid lead byte", "a\xff", 2},
		{"four-byte rune cut", "x" + "🙂"[:3], 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := completeRunes([]byte(tt.in)); got != tt.want {
				t.Errorf("completeRunes(%q) = %d, want %d", tt.in, got, tt.want)
			}
		})
	}
}

func TestRecorder_KeepsRunesWhole(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "out.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	r := &recorder{fifo: fifo, done: make(chan struct{})}
	go r.read()
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Each write may or may not be a read of its own; either way no event
	// may hold half of ✻ or ❯.
	for _, piece := range []string{"idle \xe2\x9c", "\xbb done \xe2", "\x9d\xaf\xc2\xa0"} {
		if _, err := w.Write([]byte(piece)); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	r.wait()
	events, err := r.events()
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for _, e := range events {
		if !utf8.ValidString(e.data) {
			t.Errorf("event %q is not valid UTF-8", e.data)
		}
		all.WriteString(e.data)
	}
	if got, want := all.String(), "idle ✻ done ❯\u00a0"; got != want {
		t.Errorf("recorded %q, want %q", got, want)
	}
}

func TestWriteCast(t *testing.T) {
	start := time.Unix(1795985101, 0)
	at := func(ms int) time.Time { return start.Add(time.Duration(ms) * time.Millisecond) }
	output := []castEvent{
		{at: at(-5), kind: "o", data: "\x1b[?1049h"},
		{at: at(1500), kind: "o", data: "❯\u00a0<b>&"},
		{at: at(2000), kind: "o", data: "bad \xff byte"},
	}
	markers := append(eventMarkers([]Event{
		{At: at(1500), Kind: "hook", Name: "Stop", Payload: json.RawMessage(`{"hook_event_name":"Stop"}`)},
		{At: at(2500), Kind: "notify", Name: "agent-turn-complete", Payload: json.RawMessage(`{"type":"agent-turn-complete"}`)},
	}), castEvent{at: at(9000), kind: "m", data: EndMarker})
	var b bytes.Buffer
	if err := writeCast(&b, start, 200, output, markers); err != nil {
		t.Fatal(err)
	}
	if !utf8.Valid(b.Bytes()) {
		t.Fatal("cast is not valid UTF-8")
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	var head castHeader
	if err := json.Unmarshal([]byte(lines[0]), &head); err != nil {
		t.Fatal(err)
	}
	wantHead := castHeader{Version: 2, Width: 200, Height: 50, Timestamp: 1795985101, Env: map[string]string{"TERM": PaneTERM, "SHELL": loginShell()}}
	if !reflect.DeepEqual(head, wantHead) {
		t.Errorf("header %+v, want %+v", head, wantHead)
	}
	want := []string{
		`[0.000000, "o", "\u001b[?1049h"]`,
		`[1.500000, "o", "❯` + "\u00a0" + `<b>&"]`,
		`[1.500000, "m", "hook:{\"hook_event_name\":\"Stop\"}"]`,
		`[2.000000, "o", "bad \ufffd byte"]`,
		`[2.500000, "m", "notify:{\"type\":\"agent-turn-complete\"}"]`,
		`[9.000000, "m", "end"]`,
	}
	if got := lines[1:]; !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
