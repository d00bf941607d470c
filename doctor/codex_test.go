package doctor

import (
	"testing"
)

// Codex is optional: missing, it is a note and its hooks go unchecked; an
// untested version is a warning that says what to do.
func TestDoctor_Codex(t *testing.T) {
	m := healthyMachine()
	delete(m.programs, "codex")
	rep := runFake(t, m)
	wantCheck(t, rep, "codex", VerdictNote, "not on PATH", "only Codex panes")
	for _, c := range rep.Checks {
		if c.Name == "hooks (codex)" {
			t.Errorf("Codex's hooks checked without Codex: %+v", c)
		}
	}

	m = healthyMachine()
	m.programs["codex"] = "codex-cli 0.172.0\n"
	wantCheck(t, runFake(t, m), "codex", VerdictWarn, "0.172.0", "newer than", "npm install -g @openai/codex@0.171.0")

	m = healthyMachine()
	m.programs["codex"] = "Codex 1\n"
	wantCheck(t, runFake(t, m), "codex", VerdictWarn, "version unknown", "reinstall")
}

// Claude Code is the default agent: missing, it is a warning, and its
// hooks are checked all the same.
func TestDoctor_ClaudeMissing(t *testing.T) {
	m := healthyMachine()
	delete(m.programs, "claude")
	rep := runFake(t, m)
	wantCheck(t, rep, "claude", VerdictWarn, "not found on PATH", "install a tested version (2.1.328, 2.1.332)", "npm install -g @anthropic-ai/claude-code@2.1.332")
	wantCheck(t, rep, "hooks", VerdictOK, "installed")
}
