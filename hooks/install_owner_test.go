package hooks_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/agents/claude/claudehooks"
	"github.com/codeman-dev/codeman/hooks"
)

// Hooks of the lookalikes fixture that merely look like codeman's.
const (
	loggerHook      = "logger -t claude stopped; /opt/tools/codeman hook"
	otherVendorHook = "/opt/other-vendor/codeman hook"
)

// TestInstall_OnlyOwnEntries: hooks that run some program named codeman
// with "hook" belong to the user unless codeman recorded writing them.
// Install, a reinstall from another binary and uninstall leave them as
// they are, and the pre-codeman original survives every later write.
func TestInstall_OnlyOwnEntries(t *testing.T) {
	path := placeFixture(t, filepath.Join("testdata", "settings", "lookalikes.json"), 0o644)
	orig := readFile(t, path)

	rep, err := hooks.Install(opts(path))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rep.Added, allEntries) || len(rep.Updated)+len(rep.Removed) > 0 {
		t.Errorf("install report = %+v, want every entry added and nothing else", rep)
	}
	checkHasCommands(t, path, loggerHook, otherVendorHook)

	other := hooks.InstallOptions{Entries: claudehooks.Entries, SettingsPath: path, Binary: "/usr/local/bin/codeman"}
	rep, err = hooks.Install(other)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rep.Updated, allEntries) || len(rep.Added)+len(rep.Removed) > 0 {
		t.Errorf("reinstall report = %+v, want every entry of codeman's updated", rep)
	}
	checkHasCommands(t, path, loggerHook, otherVendorHook)

	rep, err = hooks.Uninstall(other)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rep.Removed, allEntries) {
		t.Errorf("uninstall removed %v, want %v", rep.Removed, allEntries)
	}
	if got := readFile(t, path); !bytes.Equal(got, orig) {
		t.Errorf("install, reinstall, uninstall changed the file:\n%s", got)
	}
	if kept := readFile(t, path+".codeman-original"); !bytes.Equal(kept, orig) {
		t.Errorf("original kept as\n%s\nwant\n%s", kept, orig)
	}
	if _, err := os.Stat(path + ".codeman-hooks"); !os.IsNotExist(err) {
		t.Errorf("record left after uninstall: %v", err)
	}
}

// TestInstall_UnrecordedEntriesOurs: hooks that run codeman's command as
// codeman writes them are codeman's though no record lists them (it was
// removed, or an install kept none): status counts them, install only
// writes their record, and uninstall removes them.
func TestInstall_UnrecordedEntriesOurs(t *testing.T) {
	path := placeFixture(t, filepath.Join("testdata", "settings", "no-hooks.golden"), 0o644)
	st, err := hooks.Status(opts(path))
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Installed) != len(allEntries) || !st.UpToDate() {
		t.Errorf("status = %+v, want every entry installed", st)
	}
	checkNoWrite(t, path, func() (hooks.Report, error) { return hooks.Install(opts(path)) })
	if _, err := os.Stat(path + ".codeman-hooks"); err != nil {
		t.Errorf("install wrote no record: %v", err)
	}
	os.Remove(path + ".codeman-hooks")
	rep, err := hooks.Uninstall(opts(path))
	if err != nil || !slices.Equal(rep.Removed, allEntries) {
		t.Fatalf("uninstall = %+v, %v; want every entry removed", rep, err)
	}
	if got, want := readFile(t, path), readFile(t, filepath.Join("testdata", "settings", "no-hooks.json")); !bytes.Equal(got, want) {
		t.Errorf("uninstall without a record left\n%s\nwant\n%s", got, want)
	}
}

// TestInstall_Copies: copies of codeman's hooks, recorded or not, run as
// the recorded ones do. Status says so, install leaves one per entry and
// uninstall none; a hook that runs codeman's command but is not as codeman
// writes it (a key more) stays the user's.
func TestInstall_Copies(t *testing.T) {
	path := placeFixture(t, filepath.Join("testdata", "settings", "no-hooks.json"), 0o644)
	if _, err := hooks.Install(opts(path)); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(readFile(t, path), &doc); err != nil {
		t.Fatal(err)
	}
	events := doc["hooks"].(map[string]any)
	stop := events["Stop"].([]any)
	mine := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": testBinary + " hook", "timeout": 5, "async": true}}}
	events["Stop"] = append(stop, stop[0], stop[0], mine)
	events["SessionEnd"] = append(events["SessionEnd"].([]any), events["SessionEnd"].([]any)[0])
	data, _ := json.MarshalIndent(doc, "", "  ")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}

	st, err := hooks.Status(opts(path))
	if err != nil {
		t.Fatal(err)
	}
	copies := []hooks.Entry{{Event: "SessionEnd"}, {Event: "Stop"}, {Event: "Stop"}} // in file order
	if st.UpToDate() || len(st.Installed) != len(allEntries)+len(copies) || !slices.Equal(st.Copies, copies) {
		t.Errorf("status = %+v, want %d installed and copies %v", st, len(allEntries)+len(copies), copies)
	}
	rep, err := hooks.Install(opts(path))
	if err != nil || !rep.Changed || !slices.Equal(rep.Removed, copies) || len(rep.Added) > 0 {
		t.Fatalf("install = %+v, %v; want the copies removed", rep, err)
	}
	if n := strings.Count(string(readFile(t, path)), `"command": "`+testBinary+` hook"`); n != len(allEntries)+1 {
		t.Errorf("%d hooks run codeman after install, want %d (one per entry and the user's)", n, len(allEntries)+1)
	}
	if st, err := hooks.Status(opts(path)); err != nil || !st.UpToDate() {
		t.Errorf("status after install = %+v, %v", st, err)
	}

	events["Stop"] = append(events["Stop"].([]any), stop[0])
	data, _ = json.MarshalIndent(doc, "", "  ")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := hooks.Uninstall(opts(path)); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(readFile(t, path)), `"command": "`+testBinary+` hook"`); n != 1 {
		t.Errorf("%d hooks run codeman after uninstall, want the user's alone:\n%s", n, readFile(t, path))
	}
	if st, err := hooks.Status(opts(path)); err != nil || len(st.Installed) > 0 {
		t.Errorf("status after uninstall = %+v, %v", st, err)
	}
}

// TestInstall_OriginalKeptOnce: the copy of the file as it was before
// codeman first wrote it is made once and never overwritten, while the
// rolling backup follows every write.
func TestInstall_OriginalKeptOnce(t *testing.T) {
	path := placeFixture(t, filepath.Join("testdata", "settings", "user-hooks.json"), 0o600)
	orig := readFile(t, path)
	if _, err := hooks.Install(opts(path)); err != nil {
		t.Fatal(err)
	}
	installed := readFile(t, path)
	if _, err := hooks.Uninstall(opts(path)); err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(orig, []byte(`"includeCoAuthoredBy": false`), []byte(`"includeCoAuthoredBy": true`), 1)
	if err := os.WriteFile(path, edited, 0o600); err != nil {
		t.Fatal(err)
	}
	rep, err := hooks.Install(opts(path))
	if err != nil {
		t.Fatal(err)
	}
	if kept := readFile(t, path+".codeman-original"); !bytes.Equal(kept, orig) {
		t.Errorf("original overwritten:\n%s", kept)
	}
	if backup := readFile(t, rep.Backup); !bytes.Equal(backup, edited) {
		t.Errorf("backup holds\n%s\nwant the file before this install", backup)
	}
	if bytes.Equal(readFile(t, rep.Backup), installed) {
		t.Error("backup holds the installed version")
	}
	info, err := os.Stat(path + ".codeman-original")
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("original mode %v (%v), want 0600 like the settings", info.Mode().Perm(), err)
	}
}

// TestInstall_RoundTripAbsentAndEmpty: a missing file comes back missing,
// an empty or blank file as it was.
func TestInstall_RoundTripAbsentAndEmpty(t *testing.T) {
	for name, content := range map[string]*string{"Absent": nil, "Empty": ptr(""), "Blank": ptr(" \n\n")} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), ".claude")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "settings.json")
			if content != nil {
				if err := os.WriteFile(path, []byte(*content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := hooks.Install(opts(path)); err != nil {
				t.Fatal(err)
			}
			if _, err := hooks.Uninstall(opts(path)); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			switch {
			case content == nil && !os.IsNotExist(err):
				t.Errorf("file left behind: %q, %v", got, err)
			case content != nil && (err != nil || string(got) != *content):
				t.Errorf("file = %q, %v; want %q", got, err, *content)
			}
			if _, err := os.Stat(path + ".codeman-hooks"); !os.IsNotExist(err) {
				t.Errorf("record left after uninstall: %v", err)
			}
		})
	}
}

func ptr(s string) *string { return &s }

// checkHasCommands expects each command in the settings file exactly once.
func checkHasCommands(t *testing.T, path string, commands ...string) {
	t.Helper()
	data := readFile(t, path)
	for _, c := range commands {
		if n := strings.Count(string(data), `"command": "`+c+`"`); n != 1 {
			t.Errorf("%q appears %d times, want once:\n%s", c, n, data)
		}
	}
}

// TestInstall_RecordOfAGoneInstall: when none of the recorded hooks is in
// the file any more (here: the file was removed), the record no longer
// applies; the next install starts afresh and its uninstall removes the
// file it created.
func TestInstall_RecordOfAGoneInstall(t *testing.T) {
	path := placeFixture(t, filepath.Join("testdata", "settings", "no-hooks.json"), 0o644)
	if _, err := hooks.Install(opts(path)); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if _, err := hooks.Install(opts(path)); err != nil {
		t.Fatal(err)
	}
	if _, err := hooks.Uninstall(opts(path)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("file left after install into a missing file and uninstall: %v", err)
	}
}
