package daemon

import (
	"os"
	"slices"
	"testing"

	codexhooks "github.com/codeman-dev/codeman/hooks/codex"
)

// Codex is optional: missing, it is a note and its hooks go unchecked; an
// untested version or untrusted hooks are warnings that say what to do.
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
	wantCheck(t, runFake(t, m), "codex", VerdictWarn, "0.172.0", "npm install -g @openai/codex@0.171.0")

	m = healthyMachine()
	m.programs["codex"] = "Codex 1\n"
	wantCheck(t, runFake(t, m), "codex", VerdictWarn, "version unknown", "reinstall")

	m = healthyMachine()
	m.codexHooks.Handlers[0].Trust = codexhooks.TrustModified
	wantCheck(t, runFake(t, m), "hooks (codex)", VerdictWarn, "Stop modified", "codeman hooks install --agent codex")

	m = healthyMachine()
	m.codexHooks.Installed = nil
	wantCheck(t, runFake(t, m), "hooks (codex)", VerdictWarn, "not installed in /home/u/.codex/hooks.json", "--agent codex")
}

// The tested Codex versions are the one scripts/install-codex.sh pins.
func TestDoctor_TestedCodexVersionsMatchInstallScript(t *testing.T) {
	const script = "../scripts/install-codex.sh"
	b, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	var pinned []string
	for _, m := range installScriptVersion.FindAllStringSubmatch(string(b), -1) {
		if m[1] == "pinned" {
			pinned = append(pinned, m[2])
		}
	}
	if len(pinned) != 1 || !slices.Contains(TestedCodexVersions, pinned[0]) || TestedCodexVersions[len(TestedCodexVersions)-1] != pinned[0] {
		t.Fatalf("TestedCodexVersions = %q, but %s pins %q: change both together", TestedCodexVersions, script, pinned)
	}
}
