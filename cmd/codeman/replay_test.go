package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A Codex recording replayed as Codex: the turn's end is read from Codex's
// screen and hooks, the update prompt names Codex's memory file, and the
// fresh conversation is /new.
func TestReplay_Agent(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // no user config
	cast := filepath.Join("..", "..", "agents", "codex", "testdata", "turn-ends-0.171.0.cast")
	if _, err := os.Stat(cast); err != nil {
		t.Fatal(err)
	}
	got := run(t, "replay", "--agent", "codex", cast)
	for _, want := range []string{"AGENTS.md noting what you accomplished, then continue working.\" (update)", "\"/new\" (clear)", "\"/init\" (init)"} {
		if !strings.Contains(got, want) {
			t.Errorf("replay --agent codex: no %s in:\n%s", want, got)
		}
	}
	if out := run(t, "replay", "--set", "agent=codex", cast); out != got {
		t.Errorf("--set agent=codex differs from --agent codex:\n%s\n---\n%s", out, got)
	}

	var out strings.Builder
	app := newApp()
	app.Writer = &out
	if err := app.Run([]string{"codeman", "replay", "--agent", "gemini", cast}); err == nil || !strings.Contains(err.Error(), `"gemini"`) {
		t.Errorf("replay --agent gemini: %v, want an error naming it", err)
	}
}
