package hooks_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/agents/claude/claudehooks"
	"github.com/codeman-dev/codeman/hooks"
)

// testHandler is the codeman-hook path the golden files hold.
const testHandler = "/opt/codeman/bin/codeman-hook"

func handlerOpts(path string) hooks.InstallOptions {
	return hooks.InstallOptions{Entries: claudehooks.Entries, SettingsPath: path, Binary: testBinary, Handler: testHandler}
}

// TestInstall_UpgradeToHandler: an install that finds codeman-hook turns
// the `codeman hook` entries an earlier install recorded into codeman-hook
// ones, in place, and touches nothing of the user's; uninstall then gives
// back the file as it was before codeman's first write.
func TestInstall_UpgradeToHandler(t *testing.T) {
	path := placeFixture(t, filepath.Join("testdata", "settings", "user-hooks.json"), 0o644)
	orig := readFile(t, path)
	if _, err := hooks.Install(opts(path)); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, filepath.Join("testdata", "settings", "user-hooks.golden"), readFile(t, path))

	rep, err := hooks.Install(handlerOpts(path))
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Changed || !slices.Equal(rep.Updated, allEntries) || len(rep.Added)+len(rep.Removed) > 0 {
		t.Errorf("upgrade report = %+v, want every entry updated and nothing else", rep)
	}
	upgraded := readFile(t, path)
	checkGolden(t, filepath.Join("testdata", "upgrade", "user-hooks.golden"), upgraded)
	if n := bytes.Count(upgraded, []byte(`"command": "`+testHandler+`"`)); n != len(allEntries) {
		t.Errorf("%d entries run %s, want %d", n, testHandler, len(allEntries))
	}

	checkNoWrite(t, path, func() (hooks.Report, error) { return hooks.Install(handlerOpts(path)) })

	rep, err = hooks.Uninstall(handlerOpts(path))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rep.Removed, allEntries) {
		t.Errorf("uninstall removed %v, want %v", rep.Removed, allEntries)
	}
	if got := readFile(t, path); !bytes.Equal(got, orig) {
		t.Errorf("install, upgrade, uninstall changed the file:\n%s", got)
	}
}

// TestInstall_UpgradeOlderRecord: the entries of an older codeman, recorded
// with other commands and timeouts, turn into codeman-hook entries too;
// the user's hooks, lookalikes included, stay.
func TestInstall_UpgradeOlderRecord(t *testing.T) {
	path := placeFixture(t, filepath.Join("testdata", "settings", "older-codeman.json"), 0o644)
	rep, err := hooks.Install(handlerOpts(path))
	if err != nil {
		t.Fatal(err)
	}
	wantUpdated := []hooks.Entry{{Event: "Stop"}, {Event: "Notification", Matcher: "idle_prompt"}}
	if !slices.Equal(rep.Updated, wantUpdated) || len(rep.Added) != 9 || len(rep.Removed) != 2 {
		t.Errorf("report: added %v, updated %v, removed %v; want 9 added, %v updated, 2 removed", rep.Added, rep.Updated, rep.Removed, wantUpdated)
	}
	checkGolden(t, filepath.Join("testdata", "upgrade", "older-codeman.golden"), readFile(t, path))
	if _, err := hooks.Uninstall(handlerOpts(path)); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, filepath.Join("testdata", "settings", "older-codeman.restored.golden"), readFile(t, path))
}

// TestInstall_FallbackToCLI: when codeman-hook is gone (no Handler), an
// install turns its entries back into `codeman hook` ones, in place.
func TestInstall_FallbackToCLI(t *testing.T) {
	path := placeFixture(t, filepath.Join("testdata", "settings", "user-hooks.json"), 0o644)
	if _, err := hooks.Install(handlerOpts(path)); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, filepath.Join("testdata", "upgrade", "user-hooks.golden"), readFile(t, path))
	rep, err := hooks.Install(opts(path))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rep.Updated, allEntries) || len(rep.Added)+len(rep.Removed) > 0 {
		t.Errorf("fallback report = %+v, want every entry updated and nothing else", rep)
	}
	checkGolden(t, filepath.Join("testdata", "settings", "user-hooks.golden"), readFile(t, path))
}

// TestInstall_QuotedHandler: a handler path with a space is quoted for the
// shell, and read back as the program on the next status.
func TestInstall_QuotedHandler(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "my tools")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "codeman")
	handler := filepath.Join(dir, hooks.HandlerName)
	for _, p := range []string{bin, handler} {
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "settings.json")
	o := hooks.InstallOptions{Entries: claudehooks.Entries, SettingsPath: path, Binary: bin, Handler: handler}
	if _, err := hooks.Install(o); err != nil {
		t.Fatal(err)
	}
	if want := `"command": "'` + handler + `'"`; !bytes.Contains(readFile(t, path), []byte(want)) {
		t.Errorf("command not quoted as %s:\n%s", want, readFile(t, path))
	}
	st, err := hooks.Status(o)
	if err != nil {
		t.Fatal(err)
	}
	if !st.UpToDate() || st.Installed[0].Program != handler || !st.Installed[0].Current || !st.Installed[0].Executable {
		t.Errorf("status = %+v, want up to date, running %s", st, handler)
	}
}

func TestInstall_RelativeHandler(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	_, err := hooks.Install(hooks.InstallOptions{Entries: claudehooks.Entries, SettingsPath: path, Binary: testBinary, Handler: "codeman-hook"})
	if err == nil || !strings.Contains(err.Error(), "not absolute") {
		t.Errorf("err = %v, want a handler path that is not absolute refused", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("settings written: %v", err)
	}
}

// TestStatus_Handler: entries of `codeman hook` are this codeman's but
// outdated where codeman-hook is beside it; codeman-hook entries are
// current for the codeman beside them, and not for another one.
func TestStatus_Handler(t *testing.T) {
	bin := fakeBinary(t)
	handler := filepath.Join(filepath.Dir(bin), hooks.HandlerName)
	if err := os.WriteFile(handler, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := placeFixture(t, filepath.Join("testdata", "settings", "user-hooks.json"), 0o644)
	cli := hooks.InstallOptions{Entries: claudehooks.Entries, SettingsPath: path, Binary: bin}
	withHandler := hooks.InstallOptions{Entries: claudehooks.Entries, SettingsPath: path, Binary: bin, Handler: handler}
	if _, err := hooks.Install(cli); err != nil {
		t.Fatal(err)
	}

	st, err := hooks.Status(withHandler)
	if err != nil {
		t.Fatal(err)
	}
	if st.UpToDate() || !slices.Equal(st.Outdated, allEntries) || !allCurrent(st) {
		t.Errorf("status of a codeman hook install beside codeman-hook = %+v, want every entry current and outdated", st)
	}

	if _, err := hooks.Install(withHandler); err != nil {
		t.Fatal(err)
	}
	st, err = hooks.Status(withHandler)
	if err != nil {
		t.Fatal(err)
	}
	if !st.UpToDate() || !allCurrent(st) || st.Installed[0].Program != handler {
		t.Errorf("status after the upgrade = %+v, want up to date, running %s", st, handler)
	}

	st, err = hooks.Status(hooks.InstallOptions{Entries: claudehooks.Entries, SettingsPath: path, Binary: fakeBinary(t)})
	if err != nil {
		t.Fatal(err)
	}
	if st.Installed[0].Current || !st.Installed[0].Executable {
		t.Errorf("status from another codeman = %+v, want executable entries that are not current", st)
	}
}

func allCurrent(st hooks.StatusReport) bool {
	return len(st.Installed) > 0 && !slices.ContainsFunc(st.Installed, func(e hooks.InstalledEntry) bool { return !e.Current })
}

func TestFindHandler(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, handler string)
		found bool
	}{
		{"Missing", func(*testing.T, string) {}, false},
		{"Executable", func(t *testing.T, handler string) { writeExec(t, handler, 0o755) }, true},
		{"NotExecutable", func(t *testing.T, handler string) { writeExec(t, handler, 0o644) }, false},
		{"Directory", func(t *testing.T, handler string) {
			if err := os.Mkdir(handler, 0o755); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"LinkToExecutable", func(t *testing.T, handler string) {
			target := filepath.Join(t.TempDir(), "built")
			writeExec(t, target, 0o755)
			if err := os.Symlink(target, handler); err != nil {
				t.Fatal(err)
			}
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bin := fakeBinary(t)
			handler := filepath.Join(filepath.Dir(bin), hooks.HandlerName)
			tt.setup(t, handler)
			want := ""
			if tt.found {
				want = handler
			}
			if got := hooks.FindHandler(bin); got != want {
				t.Errorf("FindHandler = %q, want %q", got, want)
			}
		})
	}
}

func writeExec(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"), mode); err != nil {
		t.Fatal(err)
	}
}
