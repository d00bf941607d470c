package hooks

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

// Fuzz targets of the two parsers that take outside input: the hook payload
// decoder (Claude Code's JSON on stdin) and the settings editor (any JSON a
// user keeps in settings.json). Seeds are the real payloads and settings
// fixtures of testdata; run one with
//
//	go test -run '^$' -fuzz '^FuzzParsePayload$' -fuzztime 20s ./hooks/

// FuzzParsePayload: any input either fails to decode or gives a marker
// with an event, every kept string clipped and valid UTF-8, that survives
// the trip through a marker file and stays readable by the watcher.
func FuzzParsePayload(f *testing.F) {
	for _, p := range seedPayloads(f) {
		f.Add(p)
	}
	f.Add([]byte(`{"hook_event_name":"Stop","background_tasks":[{"status":"running"},7,null,{"status":{}}]}`))
	f.Add([]byte(`{"hook_event_name":{"not":"a string"}}`))
	dir := f.TempDir() // markers of one pane and kind replace each other
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := parsePayload(data)
		if err != nil {
			return
		}
		if m.Event == "" {
			t.Fatal("marker without an event")
		}
		for _, s := range append([]string{m.Event, m.NotificationType, m.Tool, m.Source, m.Reason, m.Error, m.Message, m.SessionID, m.Cwd}, m.BackgroundTasks...) {
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
		back, err := readMarker(path, DefaultMaxMarkerSize)
		if err != nil {
			t.Fatalf("watcher cannot read the marker: %v", err)
		}
		want, _ := json.Marshal(m)
		got, _ := json.Marshal(back)
		if !bytes.Equal(got, want) {
			t.Fatalf("marker changed on disk:\n%s\nwant\n%s", got, want)
		}
		if h, ok := InterpretPayload(data); ok {
			if _, h2, _ := Interpret(m); h.Kind != h2.Kind || h.Background != h2.Background {
				t.Fatalf("InterpretPayload %+v, Interpret %+v", h, h2)
			}
		}
	})
}

// FuzzSettingsRoundTrip: for any valid JSON object (or blank) settings,
// install adds every entry and is then a no-op, and uninstall gives the
// input back byte for byte, or in Claude Code's layout when the copy of
// the original is gone. Inputs install refuses (hooks not an object, an
// event not a list) must be refused, not mangled.
func FuzzSettingsRoundTrip(f *testing.F) {
	for _, pattern := range []string{"settings/*.json", "settings/*.golden", "settings-invalid/*.json"} {
		files, err := filepath.Glob(filepath.Join("testdata", pattern))
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	for _, s := range []string{"", " \n", "\t", "{}", `{"hooks":{}}`, `{"hooks":{"Stop":[]}}`, `{"hooks":null}`,
		`{"hooks":5,"hooks":{"St\u006fp":[]}}`, `{"hooks":{"Stop":{}}}`,
		`{"hooks":{"Stop":[{"hooks":[]}],"Stop":[]},"hooks":{"Stop":[{"matcher":7,"hooks":[{"command":"x"}]}]}}`,
		`{"a":1.50,"\u0068ooks":{"Notification":[{"matcher":"*","hooks":[{"type":"command","command":"/opt/codeman/bin/codeman hook","timeout":5}]}]}}`} {
		f.Add([]byte(s))
	}
	const binary = "/opt/codeman/bin/codeman"
	f.Fuzz(func(t *testing.T, data []byte) {
		if checkSyntax("settings.json", data) != nil {
			return
		}
		if _, err := parseTop(data); err != nil {
			return
		}
		rec := newRecord(&settingsFile{exists: true, data: data})
		install := newEdit(wantedEntries, binary, rec)
		out, changed, err := install.apply(data)
		if err != nil {
			return // refused: the caller writes nothing
		}
		if !changed || len(install.added) != len(wantedEntries) || install.after == nil {
			t.Fatalf("install changed %v, added %v", changed, install.added)
		}
		if err := checkSyntax("out", out); err != nil {
			t.Fatalf("install wrote invalid JSON: %v\n%s", err, out)
		}

		again := newEdit(wantedEntries, binary, install.after)
		out2, changed, err := again.apply(out)
		if err != nil || changed || !bytes.Equal(out2, out) || len(again.found) != len(wantedEntries) {
			t.Fatalf("second install: changed %v, found %d, err %v", changed, len(again.found), err)
		}

		uninstall := newEdit(nil, binary, install.after)
		restored, changed, err := uninstall.apply(out)
		if err != nil || !changed || uninstall.after != nil || len(uninstall.removed) != len(wantedEntries) {
			t.Fatalf("uninstall: changed %v, removed %v, err %v", changed, uninstall.removed, err)
		}
		if got, remove := finish(restored, nil, rec, data); remove || !bytes.Equal(got, data) {
			t.Fatalf("install + uninstall gave (remove %v)\n%s\nwant\n%s", remove, got, data)
		}
		want := data
		if !isBlank(data) {
			if want, err = indent(data); err != nil {
				t.Fatal(err)
			}
		}
		if got, remove := finish(restored, nil, rec, nil); remove || !bytes.Equal(got, want) {
			t.Fatalf("install + uninstall without the original gave (remove %v)\n%s\nwant\n%s", remove, got, want)
		}
	})
}

// seedPayloads returns the real payloads of testdata/claude-code.
func seedPayloads(f *testing.F) [][]byte {
	f.Helper()
	var out [][]byte
	for _, file := range []string{"demo-run-hooks.jsonl", "synthetic.jsonl"} {
		fh, err := os.Open(filepath.Join("testdata", "claude-code", file))
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
	data, err := os.ReadFile(filepath.Join("testdata", "claude-code", "one-payload-per-event.json"))
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
	return out
}
