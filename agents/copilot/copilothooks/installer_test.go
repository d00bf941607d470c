package copilothooks_test

import (
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/agents/copilot/copilothooks"
	"github.com/codeman-dev/codeman/hooks"
)

// request is what `codeman hooks CMD --agent copilot` asks for in.
func (in install) request(handler string) hooks.Request {
	env := map[string]string{"COPILOT_HOME": in.home, "HOME": "/nonexistent"}
	return hooks.Request{Env: func(k string) string { return env[k] }, Binary: in.binary, Handler: handler, Flags: map[string]string{}}
}

func run(t *testing.T, cmd func(copilothooks.Installer, *strings.Builder, hooks.Request) error, r hooks.Request) string {
	t.Helper()
	var out strings.Builder
	if err := cmd(copilothooks.Installer{}, &out, r); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func wantLines(t *testing.T, what, out string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, out)
		}
	}
}

var (
	installCmd   = func(i copilothooks.Installer, w *strings.Builder, r hooks.Request) error { return i.Install(w, r) }
	uninstallCmd = func(i copilothooks.Installer, w *strings.Builder, r hooks.Request) error { return i.Uninstall(w, r) }
	statusCmd    = func(i copilothooks.Installer, w *strings.Builder, r hooks.Request) error { return i.Status(w, r) }
)

// What each hooks command prints, through an install's life: the file,
// the command the hooks run, the entries, the fallback to `codeman hook`.
func TestInstaller_Reports(t *testing.T) {
	in := newInstall(t)
	out := run(t, statusCmd, in.request(in.handler))
	wantLines(t, "status before", out, "hooks: "+in.path()+" (does not exist)", "state: not installed; run: codeman hooks install --agent copilot")

	out = run(t, installCmd, in.request(""))
	wantLines(t, "fallback install", out, "codeman hooks installed in "+in.path()+" (running "+in.binary+" hook EVENT)",
		"added: sessionStart, userPromptSubmitted", "no codeman-hook beside", "restarted")

	out = run(t, installCmd, in.request(in.handler))
	wantLines(t, "install", out, "updated: sessionStart", "(running "+in.handler+" EVENT)")
	if strings.Contains(out, "no codeman-hook") {
		t.Errorf("install with the handler speaks of its fallback:\n%s", out)
	}

	out = run(t, installCmd, in.request(in.handler))
	wantLines(t, "second install", out, "codeman hooks already installed in "+in.path()+"; nothing changed")
	if strings.Contains(out, "restarted") {
		t.Errorf("an install that changed nothing asks for a restart:\n%s", out)
	}

	out = run(t, statusCmd, in.request(in.handler))
	wantLines(t, "status", out, "EVENT", "agentStop", in.handler, "state: installed and up to date")

	out = run(t, uninstallCmd, in.request(in.handler))
	wantLines(t, "uninstall", out, "codeman hooks removed from "+in.path(), "removed: sessionStart", "the file is gone")
	out = run(t, uninstallCmd, in.request(in.handler))
	wantLines(t, "second uninstall", out, "no codeman hooks in "+in.path()+"; nothing changed")
}

// The install says what it kept of the user's and what keeps the hooks
// from running.
func TestInstaller_InstallWarns(t *testing.T) {
	in := newInstall(t)
	writeFile(t, in.path(), userFile)
	writeFile(t, copilothooks.SettingsPath(in.home), `{"disableAllHooks": true}`)
	out := run(t, installCmd, in.request(in.handler))
	wantLines(t, "install", out, "2 hook(s) of your own in it kept as they are", "previous file kept as "+in.path()+".codeman-backup",
		"settings.json sets disableAllHooks: Copilot runs no hooks")
}

// --project needs a directory.
func TestInstaller_ProjectNotADir(t *testing.T) {
	in := newInstall(t)
	r := in.request(in.handler)
	r.Flags["project"] = in.binary
	if err := (copilothooks.Installer{}).Install(&strings.Builder{}, r); err == nil || !strings.Contains(err.Error(), "is not a directory") {
		t.Errorf("install into a file's project: %v", err)
	}
}
