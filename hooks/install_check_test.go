package hooks_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/codeman-dev/codeman/hooks"
)

// InstallOptions.Check sees the content an install or uninstall is about
// to write and codeman's hooks in it; its error stops the edit with
// nothing written.
func TestInstall_Check(t *testing.T) {
	path := placeFixture(t, filepath.Join("testdata", "settings", "user-hooks.json"), 0o644)
	refused := errors.New("refused")
	var seen hooks.StatusReport
	o := opts(path)
	o.Check = func(content []byte, planned hooks.StatusReport) error {
		seen = planned
		return refused
	}
	orig := readFile(t, path)
	if _, err := hooks.Install(o); !errors.Is(err, refused) {
		t.Errorf("install: %v, want the check's error", err)
	}
	if got := readFile(t, path); string(got) != string(orig) {
		t.Errorf("refused install wrote\n%s", got)
	}
	if len(seen.Installed) != len(allEntries) || !seen.UpToDate() {
		t.Errorf("check saw %+v, want every entry installed", seen)
	}
	for _, suffix := range []string{".codeman-hooks", ".codeman-backup", ".codeman-original"} {
		if _, err := os.Stat(path + suffix); !os.IsNotExist(err) {
			t.Errorf("%s written by a refused install: %v", suffix, err)
		}
	}

	if _, err := hooks.Install(opts(path)); err != nil {
		t.Fatal(err)
	}
	installed := readFile(t, path)
	if _, err := hooks.Uninstall(o); !errors.Is(err, refused) {
		t.Errorf("uninstall: %v, want the check's error", err)
	}
	if len(seen.Installed) != 0 {
		t.Errorf("check of an uninstall saw %+v installed", seen.Installed)
	}
	if got := readFile(t, path); string(got) != string(installed) {
		t.Errorf("refused uninstall wrote\n%s", got)
	}
}
