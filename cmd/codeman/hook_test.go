package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `codeman hook EVENT` takes EVENT as the event of a payload that names
// none, as the GitHub Copilot CLI's hooks run it, and prints nothing.
func TestHook_EventArgument(t *testing.T) {
	runtime := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", runtime)
	t.Setenv("TMUX", "/tmp/tmux-1000/default,4242,0")
	t.Setenv("TMUX_PANE", "%5")
	t.Setenv("STY", "")
	t.Setenv("CODEMAN_CHECK", "")
	var out bytes.Buffer
	app := newApp()
	app.Writer, app.ErrWriter = &out, &out
	app.Reader = strings.NewReader(`{"sessionId":"s3","prompt":"hello"}`)
	if err := app.Run([]string{"codeman", "hook", "userPromptSubmitted"}); err != nil {
		t.Fatal(err)
	}
	if out.Len() > 0 {
		t.Errorf("codeman hook printed %q", out.String())
	}
	names, err := filepath.Glob(filepath.Join(runtime, "codeman", "spool", "*-prompt_submitted.json"))
	if err != nil || len(names) != 1 {
		t.Fatalf("spool markers %v, %v; want one prompt_submitted", names, err)
	}
	data, err := os.ReadFile(names[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"event":"userPromptSubmitted"`) {
		t.Errorf("marker %s lacks the event", data)
	}
}
