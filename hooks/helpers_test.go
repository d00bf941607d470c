package hooks_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/hooks"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// testPane is the address the tmux env of tmuxEnv gives.
const testPane = "tmux:/tmp/tmux-1000/default:%3"

// payloadCase is one real hook payload with a label saying where it is from.
type payloadCase struct {
	Label   string
	Payload json.RawMessage
}

// referencePayloads returns every payload of testdata/claude-code: the demo
// run in order, one payload per event, then the synthetic ones.
func referencePayloads(t *testing.T) []payloadCase {
	t.Helper()
	cases := jsonlPayloads(t, "demo-run-hooks.jsonl", "demo")
	cases = append(cases, perEventPayloads(t)...)
	return append(cases, jsonlPayloads(t, "synthetic.jsonl", "synthetic")...)
}

func jsonlPayloads(t *testing.T, file, prefix string) []payloadCase {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "claude-code", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []payloadCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		var row struct {
			TS      string          `json:"ts"`
			Event   string          `json:"event"`
			Payload json.RawMessage `json:"payload"`
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatalf("%s:%d: %v", file, n, err)
		}
		label := prefix + " " + row.TS + " " + row.Event
		cases = append(cases, payloadCase{Label: label, Payload: row.Payload})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// perEventPayloads reads one-payload-per-event.json in its key order.
func perEventPayloads(t testing.TB) []payloadCase {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "claude-code", "one-payload-per-event.json"))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var cases []payloadCase
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		var p json.RawMessage
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, payloadCase{Label: "per-event " + key.(string), Payload: p})
	}
	return cases
}

// envOf turns a map into an env lookup.
func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// tmuxEnv is the environment of a hook run in tmux pane %3 with a private
// runtime dir. It returns the env and the spool dir the handler will use.
func tmuxEnv(t *testing.T) (map[string]string, string) {
	t.Helper()
	runtime := t.TempDir()
	env := map[string]string{
		"XDG_RUNTIME_DIR": runtime,
		"TMUX":            "/tmp/tmux-1000/default,4242,0",
		"TMUX_PANE":       "%3",
	}
	return env, filepath.Join(runtime, "codeman", "spool")
}

// markerFiles lists the markers in dir by name: the files but hidden ones
// (the handler's temp files and prune stamp, the watcher's claimed markers).
func markerFiles(t testing.TB, dir string) []string {
	t.Helper()
	var names []string
	for _, name := range dirNames(t, dir) {
		if !strings.HasPrefix(name, ".") {
			names = append(names, name)
		}
	}
	return names
}

// dirNames lists everything in dir by name.
func dirNames(t testing.TB, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	slices.Sort(names)
	return names
}

// readMarkers decodes every marker in dir, in name order.
func readMarkers(t *testing.T, dir string) []hooks.Marker {
	t.Helper()
	var ms []hooks.Marker
	for _, name := range markerFiles(t, dir) {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		var m hooks.Marker
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ms = append(ms, m)
	}
	return ms
}

// checkGolden compares got with the golden file, or rewrites it with -update.
func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden (run with -update to create it): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run with -update and review the diff)\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
