package opencodehooks_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/codeman-dev/codeman/agents/opencode/opencodehooks"
)

// A first install creates the config dir with its parents, the plugins
// dir and codeman's plugin, running the handler.
func TestInstall_Creates(t *testing.T) {
	in := newInstall(t)
	rep, err := opencodehooks.Install(in.opts())
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Changed || !rep.Added || rep.Updated || rep.Removed {
		t.Errorf("report %+v", rep)
	}
	content := readFile(t, in.path())
	if !strings.Contains(content, `const command = ["`+in.handler+`"];`) || !strings.Contains(content, "export const CodemanPlugin") {
		t.Errorf("plugin:\n%s", content)
	}
	info, err := os.Stat(in.path())
	if err != nil || info.Mode().Perm()&^0o022 != 0o644 {
		t.Errorf("mode %v, %v", info.Mode(), err)
	}
	// Nothing else OpenCode would load as a plugin lies beside it.
	names, _ := filepath.Glob(filepath.Join(filepath.Dir(in.path()), "*.js"))
	if len(names) != 1 {
		t.Errorf("plugins dir holds %v", names)
	}
}

// A second install changes nothing, not even the file's time.
func TestInstall_Idempotent(t *testing.T) {
	in := newInstall(t)
	if _, err := opencodehooks.Install(in.opts()); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(in.path())
	rep, err := opencodehooks.Install(in.opts())
	if err != nil || rep.Changed || rep.Added || rep.Updated {
		t.Fatalf("second install: %+v, %v", rep, err)
	}
	after, _ := os.Stat(in.path())
	if !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
		t.Error("second install rewrote the file")
	}
}

// A plugin of another binary's (a moved codeman, or `codeman hook` for
// want of codeman-hook) is codeman's: an install rewrites it.
func TestInstall_RewritesOtherBinary(t *testing.T) {
	in := newInstall(t)
	old := in.opts()
	old.Binary, old.Handler = "/old/place/codeman", ""
	if _, err := opencodehooks.Install(old); err != nil {
		t.Fatal(err)
	}
	if content := readFile(t, in.path()); !strings.Contains(content, `const command = ["/old/place/codeman","hook"];`) {
		t.Fatalf("fallback plugin:\n%s", content)
	}
	rep, err := opencodehooks.Install(in.opts())
	if err != nil || !rep.Updated || strings.Join(rep.Previous, " ") != "/old/place/codeman hook" {
		t.Fatalf("install over it: %+v, %v", rep, err)
	}
	if !strings.Contains(readFile(t, in.path()), `const command = ["`+in.handler+`"];`) {
		t.Error("the plugin does not run the handler")
	}
}

// Uninstall removes the file install wrote; a second finds nothing.
func TestUninstall_RemovesThePlugin(t *testing.T) {
	in := newInstall(t)
	if _, err := opencodehooks.Install(in.opts()); err != nil {
		t.Fatal(err)
	}
	// Another binary's plugin goes as well.
	other := in.opts()
	other.Binary, other.Handler = "/elsewhere/codeman", "/elsewhere/codeman-hook"
	rep, err := opencodehooks.Uninstall(other)
	if err != nil || !rep.Changed || !rep.Removed {
		t.Fatalf("uninstall: %+v, %v", rep, err)
	}
	if _, err := os.Lstat(in.path()); !os.IsNotExist(err) {
		t.Errorf("plugin still there: %v", err)
	}
	rep, err = opencodehooks.Uninstall(in.opts())
	if err != nil || rep.Changed {
		t.Errorf("second uninstall: %+v, %v", rep, err)
	}
	// Nothing to remove in a config dir that is not there.
	gone := newInstall(t)
	if rep, err := opencodehooks.Uninstall(gone.opts()); err != nil || rep.Changed {
		t.Errorf("uninstall without a config dir: %+v, %v", rep, err)
	}
	if _, err := os.Stat(gone.configDir()); !os.IsNotExist(err) {
		t.Errorf("uninstall created the config dir: %v", err)
	}
}

// A file at the plugin's path that is not codeman's plugin as codeman
// writes it is refused by install and uninstall alike, with an error
// naming it, and stays as it was.
func TestInstall_RefusesOthersFiles(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, in install)
		words []string
	}{
		{"a person's own", func(t *testing.T, in install) {
			writeFile(t, in.path(), "export const Mine = async () => ({})\n")
		}, []string{"is not codeman's plugin"}},
		{"empty", func(t *testing.T, in install) { writeFile(t, in.path(), "") }, []string{"is not codeman's plugin"}},
		{"edited", func(t *testing.T, in install) {
			if _, err := opencodehooks.Install(in.opts()); err != nil {
				t.Fatal(err)
			}
			content := readFile(t, in.path())
			writeFile(t, in.path(), strings.Replace(content, "const maxQueued = 64;", "const maxQueued = 8;", 1))
		}, []string{"edited by hand"}},
		{"edited command", func(t *testing.T, in install) {
			if _, err := opencodehooks.Install(in.opts()); err != nil {
				t.Fatal(err)
			}
			content := readFile(t, in.path())
			writeFile(t, in.path(), strings.Replace(content, `["`+in.handler+`"]`, `["/usr/bin/logger"]`, 1))
		}, []string{"edited by hand"}},
		{"symlink", func(t *testing.T, in install) {
			target := filepath.Join(in.home, "mine.js")
			writeFile(t, target, "export const Mine = async () => ({})\n")
			if err := os.MkdirAll(filepath.Dir(in.path()), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, in.path()); err != nil {
				t.Fatal(err)
			}
		}, []string{"symlink"}},
		{"directory", func(t *testing.T, in install) {
			if err := os.MkdirAll(in.path(), 0o755); err != nil {
				t.Fatal(err)
			}
		}, []string{"not a regular file"}},
		{"fifo", func(t *testing.T, in install) {
			if err := os.MkdirAll(filepath.Dir(in.path()), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(in.path(), 0o644); err != nil {
				t.Fatal(err)
			}
		}, []string{"not a regular file"}},
		{"huge", func(t *testing.T, in install) {
			writeFile(t, in.path(), "//"+strings.Repeat("x", 70<<10)+"\n")
		}, []string{"larger than codeman reads"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := newInstall(t)
			tc.setup(t, in)
			before := describe(t, in.path())
			for op, run := range map[string]func(opencodehooks.Options) (opencodehooks.Report, error){"install": opencodehooks.Install, "uninstall": opencodehooks.Uninstall} {
				rep, err := run(in.opts())
				if err == nil || rep.Changed {
					t.Fatalf("%s: %+v, %v", op, rep, err)
				}
				for _, w := range append(tc.words, in.path()) {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("%s: error %q lacks %q", op, err, w)
					}
				}
				if got := describe(t, in.path()); got != before {
					t.Errorf("%s changed the file: %s, was %s", op, got, before)
				}
			}
			if _, err := opencodehooks.Status(in.opts(), in.env(), ""); err == nil {
				t.Error("status read the file as codeman's")
			}
		})
	}
}

// describe is what is at path: its type and, for a regular file, its
// content.
func describe(t *testing.T, path string) string {
	t.Helper()
	info, err := os.Lstat(path)
	if err != nil {
		return err.Error()
	}
	if !info.Mode().IsRegular() {
		return info.Mode().String()
	}
	return readFile(t, path)
}

// A project's plugin lies in its .opencode, created when missing; a
// missing project is an error.
func TestInstall_Project(t *testing.T) {
	in := newInstall(t)
	proj := filepath.Join(in.home, "proj")
	if err := os.Mkdir(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	opts := in.opts()
	opts.Path = opencodehooks.PluginPath(opencodehooks.ProjectConfigDir(proj))
	if _, err := opencodehooks.Install(opts); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(proj, ".opencode", "plugins", "codeman.js")); err != nil {
		t.Error(err)
	}
	opts.Path = opencodehooks.PluginPath(opencodehooks.ProjectConfigDir(filepath.Join(in.home, "nowhere")))
	if _, err := opencodehooks.Install(opts); err == nil {
		t.Error("installed into a missing project")
	}
}

// Relative paths are refused.
func TestInstall_Validates(t *testing.T) {
	in := newInstall(t)
	for _, opts := range []opencodehooks.Options{
		{Path: "plugins/codeman.js", Binary: in.binary},
		{Path: in.path(), Binary: "codeman"},
		{Path: in.path(), Binary: in.binary, Handler: "codeman-hook"},
	} {
		if _, err := opencodehooks.Install(opts); err == nil {
			t.Errorf("%+v installed", opts)
		}
	}
}
