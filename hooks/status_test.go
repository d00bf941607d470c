package hooks_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/codeman-dev/codeman/agents/claude/claudehooks"
	"github.com/codeman-dev/codeman/hooks"
)

// fakeBinary creates an executable file named codeman.
func fakeBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "codeman")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

func TestStatus_NotInstalled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	st, err := hooks.Status(hooks.InstallOptions{Entries: claudehooks.Entries, SettingsPath: path, Binary: fakeBinary(t)})
	if err != nil {
		t.Fatal(err)
	}
	if st.Exists || len(st.Installed) > 0 || !slices.Equal(st.Missing, allEntries) || st.UpToDate() {
		t.Errorf("status = %+v, want a missing file with every entry missing", st)
	}
}

func TestStatus_Installed(t *testing.T) {
	bin := fakeBinary(t)
	path := placeFixture(t, filepath.Join("testdata", "settings", "user-hooks.json"), 0o644)
	o := hooks.InstallOptions{Entries: claudehooks.Entries, SettingsPath: path, Binary: bin}
	if _, err := hooks.Install(o); err != nil {
		t.Fatal(err)
	}
	st, err := hooks.Status(o)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Exists || !st.UpToDate() || len(st.Installed) != len(allEntries) {
		t.Fatalf("status = %+v, want every entry installed and up to date", st)
	}
	for _, e := range st.Installed {
		if e.Program != bin || !e.Executable || !e.Current {
			t.Errorf("%v: program %s executable %v current %v; want %s, true, true", e.Entry, e.Program, e.Executable, e.Current, bin)
		}
	}

	// Another codeman binary sees the entries as outdated, not its own.
	other := hooks.InstallOptions{Entries: claudehooks.Entries, SettingsPath: path, Binary: fakeBinary(t)}
	st, err = hooks.Status(other)
	if err != nil {
		t.Fatal(err)
	}
	if st.UpToDate() || len(st.Outdated) != len(allEntries) || st.Installed[0].Current || !st.Installed[0].Executable {
		t.Errorf("status from another binary = %+v, want every entry outdated, executable, not current", st)
	}
}

func TestStatus_OlderInstall(t *testing.T) {
	path := placeFixture(t, filepath.Join("testdata", "settings", "older-codeman.json"), 0o644)
	before := readFile(t, path)
	st, err := hooks.Status(hooks.InstallOptions{Entries: claudehooks.Entries, SettingsPath: path, Binary: fakeBinary(t)})
	if err != nil {
		t.Fatal(err)
	}
	var found []hooks.Entry
	for _, e := range st.Installed {
		found = append(found, e.Entry)
		if e.Executable || e.Current {
			t.Errorf("%v: %s reported executable %v, current %v", e.Entry, e.Program, e.Executable, e.Current)
		}
	}
	wantFound := []hooks.Entry{{Event: "Stop"}, {Event: "Notification", Matcher: "idle_prompt"},
		{Event: "PreToolUse", Matcher: "AskUserQuestion|ExitPlanMode"}, {Event: "TeammateIdle"}}
	if !slices.Equal(found, wantFound) {
		t.Errorf("installed = %v, want %v", found, wantFound)
	}
	if st.Installed[3].Program != "/home/me/my tools/codeman" {
		t.Errorf("quoted program read as %q", st.Installed[3].Program)
	}
	if len(st.Missing) != 9 || len(st.Outdated) != 4 {
		t.Errorf("missing %v, outdated %v; want 9 and 4", st.Missing, st.Outdated)
	}
	if string(readFile(t, path)) != string(before) {
		t.Error("Status changed the file")
	}
}
