package copilothooks_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/codeman-dev/codeman/agents/copilot/copilothooks"
)

// install is a codeman install in a temp dir: its binary and codeman-hook
// beside it, both executable, and a Copilot home that does not exist yet.
type install struct {
	home, binary, handler string
}

func newInstall(t *testing.T) install {
	t.Helper()
	dir := t.TempDir()
	in := install{
		home:    filepath.Join(dir, "chome"),
		binary:  filepath.Join(dir, "bin", "codeman"),
		handler: filepath.Join(dir, "bin", "codeman-hook"),
	}
	writeExecutable(t, in.binary)
	writeExecutable(t, in.handler)
	return in
}

func (in install) opts() copilothooks.Options {
	return copilothooks.Options{Path: copilothooks.HooksPath(in.home), Binary: in.binary, Handler: in.handler}
}

func (in install) path() string { return copilothooks.HooksPath(in.home) }

func writeExecutable(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// hookFile is a hooks file decoded.
type hookFile struct {
	Version int                          `json:"version"`
	Hooks   map[string][]json.RawMessage `json:"hooks"`
}

type hook struct {
	Type       string `json:"type"`
	Bash       string `json:"bash"`
	TimeoutSec int    `json:"timeoutSec"`
}

func decodeFile(t *testing.T, path string) hookFile {
	t.Helper()
	var f hookFile
	if err := json.Unmarshal([]byte(readFile(t, path)), &f); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return f
}

// bashOf lists the bash commands of an event's hooks.
func (f hookFile) bashOf(t *testing.T, event string) []string {
	t.Helper()
	var out []string
	for _, raw := range f.Hooks[event] {
		var h hook
		if err := json.Unmarshal(raw, &h); err != nil {
			t.Fatal(err)
		}
		out = append(out, h.Bash)
	}
	return out
}
