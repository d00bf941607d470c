package spool

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
	"unicode/utf8"
)

// Fuzz target of the hook payload decoder, which reads Claude Code's (and
// Codex's) JSON on stdin. Seeds are the real payloads of package hooks'
// testdata; run it
// with
//
//	go test -run '^$' -fuzz '^FuzzParsePayload$' -fuzztime 20s ./hooks/spool/

// FuzzParsePayload: any input either fails to decode or gives a marker
// with an event, every kept string clipped and valid UTF-8, that survives
// the trip through a marker file and stays readable by the watcher, and
// that a recording's copy of the payload (Marker.Payload) gives back.
func FuzzParsePayload(f *testing.F) {
	for _, p := range seedPayloads(f) {
		f.Add(p)
	}
	f.Add([]byte(`{"hook_event_name":"Stop","background_tasks":[{"status":"running"},7,null,{"status":{}}]}`))
	f.Add([]byte(`{"hook_event_name":{"not":"a string"}}`))
	dir := f.TempDir() // markers of one pane and kind replace each other
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParsePayload(data)
		if err != nil {
			return
		}
		if m.Event == "" {
			t.Fatal("marker without an event")
		}
		for _, s := range append([]string{m.Event, m.NotificationType, m.Tool, m.Source, m.Reason, m.Error, m.Status, m.Message, m.SessionID, m.Cwd}, m.BackgroundTasks...) {
			if len(s) > maxFieldLen || !utf8.ValidString(s) {
				t.Fatalf("kept field of %d bytes, valid UTF-8 %v", len(s), utf8.ValidString(s))
			}
		}
		if len(m.BackgroundTasks) > maxTasks {
			t.Fatalf("kept %d background tasks, at most %d", len(m.BackgroundTasks), maxTasks)
		}
		m.Pane, m.At = "tmux:/tmp/tmux-1000/default:%3", time.Date(2026, 11, 29, 19, 13, 0, 0, time.UTC)
		path, err := writeMarker(dir, m)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Read(path, MaxMarkerSize)
		if err != nil {
			t.Fatalf("watcher cannot read the marker: %v", err)
		}
		want, _ := json.Marshal(m)
		got, _ := json.Marshal(back)
		if !bytes.Equal(got, want) {
			t.Fatalf("marker changed on disk:\n%s\nwant\n%s", got, want)
		}
		replayed, err := ParsePayload(m.Payload())
		if err != nil {
			t.Fatalf("the marker's payload does not parse: %v", err)
		}
		replayed.Pane, replayed.At = m.Pane, m.At
		if again, _ := json.Marshal(replayed); !bytes.Equal(again, want) {
			t.Fatalf("the marker's payload reads back as\n%s\nwant\n%s", again, want)
		}
	})
}

// seedPayloads returns the real payloads of package hooks' testdata.
func seedPayloads(f *testing.F) [][]byte {
	f.Helper()
	var out [][]byte
	for _, file := range []string{"demo-run-hooks.jsonl", "synthetic.jsonl"} {
		fh, err := os.Open(filepath.Join("..", "testdata", "claude-code", file))
		if err != nil {
			f.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var row struct {
				Payload json.RawMessage `json:"payload"`
			}
			if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
				f.Fatalf("%s: %v", file, err)
			}
			out = append(out, row.Payload)
		}
		fh.Close()
	}
	data, err := os.ReadFile(filepath.Join("..", "testdata", "claude-code", "one-payload-per-event.json"))
	if err != nil {
		f.Fatal(err)
	}
	var perEvent map[string]json.RawMessage
	if err := json.Unmarshal(data, &perEvent); err != nil {
		f.Fatal(err)
	}
	for _, p := range perEvent {
		out = append(out, p)
	}
	codex, err := filepath.Glob(filepath.Join("..", "testdata", "codex", "*.json"))
	if err != nil {
		f.Fatal(err)
	}
	// The GitHub Copilot CLI's, most of which name no event (they then
	// fail to parse without the command line's argument).
	copilot, err := filepath.Glob(filepath.Join("..", "..", "agents", "copilot", "testdata", "hooks", "*.json"))
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range append(codex, copilot...) {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, data)
	}
	return append(out, openCodeSeeds(f)...)
}

// openCodeSeeds are OpenCode's recorded events and hook calls whole, as
// payloads that name their event, so that the properties are read.
func openCodeSeeds(f *testing.F) [][]byte {
	f.Helper()
	logs, err := filepath.Glob(filepath.Join("..", "..", "agents", "opencode", "testdata", "plugin-events", "*.jsonl"))
	if err != nil {
		f.Fatal(err)
	}
	var out [][]byte
	for _, file := range logs {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for line := range bytes.Lines(data) {
			var row struct {
				Kind, Type, Name  string
				Properties, Input json.RawMessage
			}
			if err := json.Unmarshal(line, &row); err != nil {
				f.Fatalf("%s: %v", file, err)
			}
			event, props := row.Type, row.Properties
			if row.Kind == "hook" {
				event, props = row.Name, row.Input
			}
			if event == "" {
				continue
			}
			seed, _ := json.Marshal(map[string]any{"hook_event_name": event, "properties": props})
			out = append(out, seed)
		}
	}
	return out
}
