package doctor

import (
	"os"
	"regexp"
	"slices"
	"testing"

	"github.com/codeman-dev/codeman/hooks"
)

// installScriptVersion matches a version assignment of
// scripts/install-claude.sh: pinned=2.1.332, previous=2.1.328 # comment.
var installScriptVersion = regexp.MustCompile(`(?m)^(pinned|previous)=([0-9][0-9.]*)\s*(?:#.*)?$`)

// The doctor's tested versions are the ones the install script pins: the
// pinned one, newest, and the previous one still tested.
func TestDoctor_TestedClaudeVersionsMatchInstallScript(t *testing.T) {
	const script = "../scripts/install-claude.sh"
	b, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, m := range installScriptVersion.FindAllStringSubmatch(string(b), -1) {
		got[m[1]] = m[2]
	}
	if got["pinned"] == "" {
		t.Fatalf("%s pins no version (no pinned=VERSION line)", script)
	}
	want := []string{got["pinned"]}
	if prev := got["previous"]; prev != "" {
		want = []string{prev, got["pinned"]}
	}
	if !slices.Equal(TestedClaudeVersions, want) {
		t.Fatalf("TestedClaudeVersions = %q, but %s tests %q (previous, pinned): change both together", TestedClaudeVersions, script, want)
	}
	if compareVersions(want[0], want[len(want)-1]) > 0 {
		t.Fatalf("%s: previous %s is newer than pinned %s", script, want[0], want[len(want)-1])
	}
}

// Copies of codeman's hooks in the Claude Code settings run as the others
// do: doctor counts them, and install removes them.
func TestDoctor_ClaudeHookCopies(t *testing.T) {
	m := healthyMachine()
	m.hooks.Copies = []hooks.Entry{{Event: "Stop"}, {Event: "Stop"}, {Event: "SessionEnd"}}
	wantCheck(t, runFake(t, m), "hooks", VerdictWarn, "copies: Stop (2), SessionEnd", "codeman hooks install")
}
