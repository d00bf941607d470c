package opencodehooks_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/agents/opencode/opencodehooks"
	"github.com/codeman-dev/codeman/hooks"
)

func (in install) request(flags map[string]string, env ...string) hooks.Request {
	return hooks.Request{Env: in.env(env...), Binary: in.binary, Handler: in.handler, Flags: flags}
}

// The commands' output: install names the file, what it runs, the
// registry the config dir's dependency needs and the restart; a second
// install says nothing changed; status reads it back; uninstall removes
// it.
func TestInstaller_Commands(t *testing.T) {
	in := newInstall(t)
	var out strings.Builder
	if err := (opencodehooks.Installer{}).Install(&out, in.request(nil)); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"installed in " + in.path(), "running " + in.handler + " EVENT", "@opencode-ai/plugin", "npm registry", "restart"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("install output lacks %q:\n%s", w, out.String())
		}
	}
	out.Reset()
	if err := (opencodehooks.Installer{}).Install(&out, in.request(nil)); err != nil || !strings.Contains(out.String(), "nothing changed") {
		t.Errorf("second install: %v\n%s", err, out.String())
	}
	out.Reset()
	if err := (opencodehooks.Installer{}).Status(&out, in.request(nil)); err != nil || !strings.Contains(out.String(), "state: installed and up to date") || !strings.Contains(out.String(), "--pure") {
		t.Errorf("status: %v\n%s", err, out.String())
	}
	out.Reset()
	if err := (opencodehooks.Installer{}).Uninstall(&out, in.request(nil)); err != nil || !strings.Contains(out.String(), "removed from "+in.path()) {
		t.Errorf("uninstall: %v\n%s", err, out.String())
	}
	out.Reset()
	if err := (opencodehooks.Installer{}).Status(&out, in.request(nil)); err != nil || !strings.Contains(out.String(), "state: not installed; run: codeman hooks install --agent opencode") {
		t.Errorf("status after uninstall: %v\n%s", err, out.String())
	}
	// XDG_CONFIG_HOME moves the config dir.
	xdg := filepath.Join(in.home, "xdg")
	out.Reset()
	if err := (opencodehooks.Installer{}).Install(&out, in.request(nil, "XDG_CONFIG_HOME", xdg)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(xdg, "opencode", "plugins", "codeman.js")); err != nil {
		t.Error(err)
	}
}

// The doctor's findings, one situation each.
func TestInstaller_Check(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, in install) []string // the environment
		level hooks.Level
		words []string
		more  string // a second finding's words
	}{
		{"missing", func(t *testing.T, in install) []string { return nil }, hooks.LevelWarn, []string{"not installed in PATH"}, ""},
		{"current", func(t *testing.T, in install) []string {
			mustInstall(t, in.opts())
			return nil
		}, hooks.LevelOK, []string{"running this binary"}, "@opencode-ai/plugin"},
		{"current with deps", func(t *testing.T, in install) []string {
			mustInstall(t, in.opts())
			writeFile(t, filepath.Join(in.configDir(), "node_modules", "@opencode-ai", "plugin", "package.json"), "{}")
			return nil
		}, hooks.LevelOK, []string{"running this binary"}, ""},
		{"other binary", func(t *testing.T, in install) []string {
			other := filepath.Join(in.home, "other", "codeman-hook")
			writeExecutable(t, other)
			mustInstall(t, opencodehooks.Options{Path: in.path(), Binary: in.binary, Handler: other})
			return nil
		}, hooks.LevelWarn, []string{"not this binary"}, "@opencode-ai/plugin"},
		{"not executable", func(t *testing.T, in install) []string {
			mustInstall(t, opencodehooks.Options{Path: in.path(), Binary: in.binary, Handler: "/nowhere/codeman-hook"})
			return nil
		}, hooks.LevelError, []string{"/nowhere/codeman-hook", "not an executable"}, "@opencode-ai/plugin"},
		{"fallback", func(t *testing.T, in install) []string {
			mustInstall(t, opencodehooks.Options{Path: in.path(), Binary: in.binary})
			return nil
		}, hooks.LevelWarn, []string{"out of date", "BIN hook"}, "@opencode-ai/plugin"},
		{"edited", func(t *testing.T, in install) []string {
			mustInstall(t, in.opts())
			writeFile(t, in.path(), readFile(t, in.path())+"// mine\n")
			return nil
		}, hooks.LevelError, []string{"edited by hand", "PATH"}, ""},
		{"pure", func(t *testing.T, in install) []string {
			mustInstall(t, in.opts())
			writeFile(t, filepath.Join(in.configDir(), "node_modules", "@opencode-ai", "plugin", "package.json"), "{}")
			return []string{"OPENCODE_PURE", "1"}
		}, hooks.LevelOK, []string{"running this binary"}, "OPENCODE_PURE is set"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := newInstall(t)
			env := tc.setup(t, in)
			fs := (opencodehooks.Installer{}).Check(in.request(map[string]string{"project": "/ignored"}, env...))
			if len(fs) == 0 || fs[0].Level != tc.level || fs[0].Name != "hooks (opencode)" {
				t.Fatalf("findings %+v", fs)
			}
			for _, w := range tc.words {
				w = strings.NewReplacer("PATH", in.path(), "BIN", in.binary).Replace(w)
				if !strings.Contains(fs[0].Message, w) {
					t.Errorf("finding %q lacks %q", fs[0].Message, w)
				}
			}
			switch {
			case tc.more == "" && len(fs) != 1:
				t.Errorf("more findings: %+v", fs[1:])
			case tc.more != "" && (len(fs) != 2 || !strings.Contains(fs[1].Message, tc.more)):
				t.Errorf("findings %+v, want a second about %q", fs, tc.more)
			}
		})
	}
}

func mustInstall(t *testing.T, opts opencodehooks.Options) {
	t.Helper()
	if _, err := opencodehooks.Install(opts); err != nil {
		t.Fatal(err)
	}
}

// A project's install goes to its .opencode, says so in its commands, and
// names the user's plugin when that runs as well.
func TestInstaller_Project(t *testing.T) {
	in := newInstall(t)
	proj := filepath.Join(in.home, "my proj")
	if err := os.Mkdir(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	mustInstall(t, in.opts())
	var out strings.Builder
	flags := map[string]string{"project": proj}
	if err := (opencodehooks.Installer{}).Install(&out, in.request(flags)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(proj, ".opencode", "plugins", "codeman.js")
	if !strings.Contains(out.String(), "installed in "+path) || !strings.Contains(out.String(), "also in "+in.path()) {
		t.Errorf("install output:\n%s", out.String())
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := (opencodehooks.Installer{}).Status(&out, in.request(flags)); err != nil || !strings.Contains(out.String(), "--project '"+proj+"'") {
		t.Errorf("status: %v\n%s", err, out.String())
	}
	if err := (opencodehooks.Installer{}).Install(&out, in.request(map[string]string{"project": filepath.Join(in.home, "nowhere")})); err == nil {
		t.Error("installed into a missing project")
	}
}
