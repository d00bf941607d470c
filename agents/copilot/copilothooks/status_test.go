package copilothooks_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/agents/copilot/copilothooks"
	"github.com/codeman-dev/codeman/hooks"
)

// Status reads what else decides about codeman's hooks: disableAllHooks
// in the settings (which may hold comments and trailing commas), copies
// of codeman's hooks inline in the settings or in another hooks file, and
// files it could not read. The user's own hooks elsewhere are not copies.
func TestStatus_Sources(t *testing.T) {
	in := newInstall(t)
	if _, err := copilothooks.Install(in.opts()); err != nil {
		t.Fatal(err)
	}
	settings := copilothooks.SettingsPath(in.home)
	writeFile(t, settings, `// my settings
{
  "disableAllHooks": true, /* for now */
  "hooks": {
    "agentStop": [
      {"type": "command", "bash": "'/old/bin/codeman-hook' agentStop", "timeoutSec": 5},
      {"type": "command", "bash": "notify-send done"},
    ],
  },
}
`)
	hooksDir := filepath.Dir(in.path())
	writeFile(t, filepath.Join(hooksDir, "other.json"), `{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "`+in.handler+` preToolUse"}]}}`)
	writeFile(t, filepath.Join(hooksDir, "mine.json"), `{"version": 1, "hooks": {"agentStop": [{"type": "command", "bash": "/usr/bin/codeman-hook-wrapper agentStop"}]}}`)
	writeFile(t, filepath.Join(hooksDir, "broken.json"), `{"version": 1,`)
	src := copilothooks.Sources{Settings: []string{settings}, HookDirs: []string{hooksDir}}
	st, err := copilothooks.Status(in.opts(), src)
	if err != nil {
		t.Fatal(err)
	}
	if !st.UpToDate() || !slices.Equal(st.Disabled, []string{settings}) {
		t.Errorf("up to date %v, disabled %v", st.UpToDate(), st.Disabled)
	}
	var got []string
	for _, e := range st.Elsewhere {
		got = append(got, e.Path+": "+hooks.EntryList(e.Entries))
	}
	if want := []string{settings + ": agentStop", filepath.Join(hooksDir, "other.json") + ": preToolUse"}; !slices.Equal(got, want) {
		t.Errorf("elsewhere %v, want %v", got, want)
	}
	if len(st.Unread) != 1 || !strings.Contains(st.Unread[0], "broken.json") {
		t.Errorf("unread %v", st.Unread)
	}
}

// A repository's install is read beside the repository's settings and
// the user's: a user-level install of codeman's is a copy there, since
// Copilot runs both.
func TestStatus_ProjectBesideUser(t *testing.T) {
	in := newInstall(t)
	if _, err := copilothooks.Install(in.opts()); err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	r := hooks.Request{Env: func(k string) string { return map[string]string{"COPILOT_HOME": in.home}[k] },
		Binary: in.binary, Handler: in.handler, Flags: map[string]string{"project": repo}}
	var out strings.Builder
	if err := (copilothooks.Installer{}).Install(&out, r); err != nil {
		t.Fatal(err)
	}
	path := copilothooks.ProjectHooksPath(repo)
	for _, want := range []string{"codeman hooks installed in " + path, "only once the folder is trusted", "also in " + in.path(),
		"keep one install: codeman hooks uninstall --agent copilot removes the user's"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("install output lacks %q:\n%s", want, out.String())
		}
	}
	writeFile(t, filepath.Join(repo, ".github", "copilot", "settings.local.json"), `{"disableAllHooks": true}`)
	out.Reset()
	if err := (copilothooks.Installer{}).Status(&out, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"hooks: " + path, "settings.local.json sets disableAllHooks", "turned off by disableAllHooks", "only once the folder is trusted"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("status output lacks %q:\n%s", want, out.String())
		}
	}
}
