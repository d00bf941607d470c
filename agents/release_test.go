package agents_test

import (
	"os"
	"regexp"
	"slices"
	"testing"

	"github.com/codeman-dev/codeman/agents"
)

// installScriptVersion matches a version assignment of an install script:
// pinned=2.1.332, previous=2.1.328 # comment.
var installScriptVersion = regexp.MustCompile(`(?m)^(pinned|previous)=([0-9][0-9.]*)\s*(?:#.*)?$`)

// Every agent's tested releases are the ones its install script
// (scripts/install-NAME.sh, which CI runs) pins: the previous pin, still
// tested, then the pinned one.
func TestRelease_MatchesInstallScript(t *testing.T) {
	for _, a := range agents.List() {
		script := "../scripts/install-" + a.Name + ".sh"
		b, err := os.ReadFile(script)
		if err != nil {
			t.Fatalf("%s: %v", a.Name, err)
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
		if !slices.Equal(a.Release.Tested, want) {
			t.Errorf("%s: Release.Tested = %q, but %s tests %q (previous, pinned): change both together", a.Name, a.Release.Tested, script, want)
		}
		if agents.CompareVersions(want[0], want[len(want)-1]) > 0 {
			t.Errorf("%s: previous %s is newer than pinned %s", script, want[0], want[len(want)-1])
		}
		if a.Release.Package == "" || a.Release.Version == nil || len(a.Programs) == 0 {
			t.Errorf("%s: release %+v and programs %q incomplete", a.Name, a.Release, a.Programs)
		}
	}
}

// Each agent reads the release from what its CLI's --version prints, and
// nothing else.
func TestRelease_Version(t *testing.T) {
	for _, tc := range []struct {
		agent, out, want string
	}{
		{"claude", "2.1.332 (Claude Code)\n", "2.1.332"},
		{"claude", "command not found\n", ""},
		{"claude", "", ""},
		{"codex", "codex-cli 0.171.0\n", "0.171.0"},
		{"codex", "Codex 1\n", ""},
		{"codex", "codex-cli 0.171.0 extra\n", ""},
		{"copilot", "GitHub Copilot CLI 1.0.102.\nRun 'copilot update' to check for updates.\n", "1.0.102"},
		{"copilot", "GitHub Copilot CLI\n", ""},
		{"copilot", "copilot 1.0.102\n", ""},
	} {
		a, err := agents.Lookup(tc.agent)
		if err != nil {
			t.Fatal(err)
		}
		v, ok := a.Release.Version(tc.out)
		if v != tc.want || ok != (tc.want != "") {
			t.Errorf("%s: Version(%q) = %q, %v; want %q", tc.agent, tc.out, v, ok, tc.want)
		}
	}
}

func TestCompareVersions(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"2.1.332", "2.1.332", 0}, {"2.1.332", "2.1.328", 1}, {"2.1.99", "2.1.328", -1},
		{"2.2", "2.1.400", 1}, {"2.1", "2.1.0", 0}, {"10.0.0", "9.9.9", 1},
	} {
		if got := agents.CompareVersions(tc.a, tc.b); got != tc.want {
			t.Errorf("CompareVersions(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
