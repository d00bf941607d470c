package doctor

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/hooks"
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

	// A handler disabled by enabled = false is not fixed by an install,
	// which leaves that line: doctor names the line instead.
	m = healthyMachine()
	m.codexHooks.Handlers[0].Trust, m.codexHooks.Handlers[0].Line = codexhooks.TrustDisabled, 7
	wantCheck(t, runFake(t, m), "hooks (codex)", VerdictWarn, "disabled in /home/u/.codex/config.toml (Stop)", "Codex never runs them",
		"remove the enabled = false at /home/u/.codex/config.toml:7, or enable them in Codex's /hooks")
	if c := check(t, runFake(t, m), "hooks (codex)"); strings.Contains(c.Fix, "codeman hooks install") {
		t.Errorf("doctor tells to install for a disabled hook, which install does not change: %+v", c)
	}

	m = healthyMachine()
	m.codexHooks.Copies = []hooks.Entry{{Event: "Stop"}, {Event: "Stop"}}
	wantCheck(t, runFake(t, m), "hooks (codex)", VerdictWarn, "2 copies of codeman's hooks", "Stop (2)", "keeps one of each")

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

// With Codex's default config every usage limit opens the model-switch
// menu, which codeman leaves to a person: doctor names the setting that
// turns it off, and says nothing once the config sets it.
func TestDoctor_CodexModelNudge(t *testing.T) {
	m := healthyMachine()
	m.codexHooks.ModelNudge = codexhooks.NudgeShown
	wantCheck(t, runFake(t, m), "codex usage limits", VerdictWarn, "default config", "model-switch menu", "leaves to a person",
		"set hide_rate_limit_model_nudge = true in the [notice] table of /home/u/.codex/config.toml")

	for _, state := range []string{codexhooks.NudgeHidden, codexhooks.NudgeUnread} {
		m = healthyMachine()
		m.codexHooks.ModelNudge = state
		for _, c := range runFake(t, m).Checks {
			if c.Name == "codex usage limits" {
				t.Errorf("config read as %q: %+v", state, c)
			}
		}
	}

	// Codex's config.toml unreadable: the hooks line says so, nothing more.
	m = healthyMachine()
	m.codexHooks.ModelNudge = codexhooks.NudgeShown
	m.codexHooksErr = errors.New("read config /home/u/.codex/config.toml:3: bad")
	for _, c := range runFake(t, m).Checks {
		if c.Name == "codex usage limits" {
			t.Errorf("checked with an unreadable config: %+v", c)
		}
	}
}
