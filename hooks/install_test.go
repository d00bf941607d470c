package hooks_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/agents/claude/claudehooks"
	"github.com/codeman-dev/codeman/hooks"
)

// testBinary is the codeman path the golden files hold.
const testBinary = "/opt/codeman/bin/codeman"

// allEntries are the entries a fresh install adds, in order.
var allEntries = []hooks.Entry{
	{Event: "Stop"}, {Event: "StopFailure"},
	{Event: "Notification", Matcher: "idle_prompt"},
	{Event: "Notification", Matcher: "permission_prompt"},
	{Event: "Notification", Matcher: "elicitation_dialog"},
	{Event: "PreToolUse", Matcher: "*"}, {Event: "PostToolUse", Matcher: "*"},
	{Event: "PermissionRequest"}, {Event: "UserPromptSubmit"},
	{Event: "SessionStart"}, {Event: "SessionEnd"},
}

// past is an mtime set before an operation that must not write.
var past = time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)

// placeFixture copies a settings fixture to a fresh ~/.claude/settings.json,
// with the record of an earlier install of codeman's when the fixture has
// one (<name>.codeman-hooks).
func placeFixture(t *testing.T, fixture string, mode os.FileMode) string {
	t.Helper()
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), ".claude")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(path, data, mode); err != nil {
		t.Fatal(err)
	}
	record, err := os.ReadFile(strings.TrimSuffix(fixture, ".json") + ".codeman-hooks")
	switch {
	case err == nil:
		if err := os.WriteFile(path+".codeman-hooks", record, 0o644); err != nil {
			t.Fatal(err)
		}
	case !os.IsNotExist(err):
		t.Fatal(err)
	}
	return path
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func opts(path string) hooks.InstallOptions {
	return hooks.InstallOptions{Entries: claudehooks.Entries, SettingsPath: path, Binary: testBinary}
}

// TestInstall_Golden installs into every fixture of testdata/settings and
// compares with <name>.golden; installs again and expects no write at all;
// uninstalls and expects the original back: byte for byte, or as
// <name>.restored.golden says when an earlier install's entries (recorded in
// <name>.codeman-hooks) went too.
func TestInstall_Golden(t *testing.T) {
	fixtures, err := filepath.Glob(filepath.Join("testdata", "settings", "*.json"))
	if err != nil || len(fixtures) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, fixture := range fixtures {
		base := strings.TrimSuffix(fixture, ".json")
		t.Run(filepath.Base(base), func(t *testing.T) {
			path := placeFixture(t, fixture, 0o644)
			orig := readFile(t, path)

			rep, err := hooks.Install(opts(path))
			if err != nil {
				t.Fatal(err)
			}
			installed := readFile(t, path)
			checkGolden(t, base+".golden", installed)
			if !rep.Changed || rep.Backup != path+".codeman-backup" {
				t.Errorf("report = %+v, want a change with a backup", rep)
			}
			if backup := readFile(t, rep.Backup); !bytes.Equal(backup, orig) {
				t.Errorf("backup differs from the original:\n%s", backup)
			}

			checkNoWrite(t, path, func() (hooks.Report, error) { return hooks.Install(opts(path)) })

			if _, err := hooks.Uninstall(opts(path)); err != nil {
				t.Fatal(err)
			}
			checkRestored(t, base+".restored.golden", orig, readFile(t, path))
		})
	}
}

// checkNoWrite runs op and expects the file untouched, mtime included.
func checkNoWrite(t *testing.T, path string, op func() (hooks.Report, error)) {
	t.Helper()
	before := readFile(t, path)
	if err := os.Chtimes(path, past, past); err != nil {
		t.Fatal(err)
	}
	rep, err := op()
	if err != nil {
		t.Fatal(err)
	}
	if rep.Changed || len(rep.Added)+len(rep.Updated)+len(rep.Removed) > 0 {
		t.Errorf("report = %+v, want no change", rep)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if !info.ModTime().Equal(past) || !bytes.Equal(readFile(t, path), before) {
		t.Errorf("file rewritten (mtime %v)", info.ModTime())
	}
}

// checkRestored expects the original back, or the restored golden file when
// there is one (a layout Install had to normalise).
func checkRestored(t *testing.T, golden string, orig, got []byte) {
	t.Helper()
	if *update {
		if bytes.Equal(got, orig) {
			_ = os.Remove(golden) // none needed; a missing file is fine
			return
		}
		checkGolden(t, golden, got)
		return
	}
	if _, err := os.Stat(golden); err == nil {
		checkGolden(t, golden, got)
		return
	}
	if !bytes.Equal(got, orig) {
		t.Errorf("install + uninstall changed the file:\n--- got\n%s\n--- original\n%s", got, orig)
	}
}

func TestInstall_Reports(t *testing.T) {
	path := placeFixture(t, filepath.Join("testdata", "settings", "older-codeman.json"), 0o644)
	rep, err := hooks.Install(opts(path))
	if err != nil {
		t.Fatal(err)
	}
	wantAdded := []hooks.Entry{{Event: "StopFailure"},
		{Event: "Notification", Matcher: "permission_prompt"}, {Event: "Notification", Matcher: "elicitation_dialog"},
		{Event: "PreToolUse", Matcher: "*"}, {Event: "PostToolUse", Matcher: "*"},
		{Event: "PermissionRequest"}, {Event: "UserPromptSubmit"}, {Event: "SessionStart"}, {Event: "SessionEnd"}}
	wantUpdated := []hooks.Entry{{Event: "Stop"}, {Event: "Notification", Matcher: "idle_prompt"}}
	wantRemoved := []hooks.Entry{{Event: "PreToolUse", Matcher: "AskUserQuestion|ExitPlanMode"}, {Event: "TeammateIdle"}}
	if !slices.Equal(rep.Added, wantAdded) || !slices.Equal(rep.Updated, wantUpdated) || !slices.Equal(rep.Removed, wantRemoved) {
		t.Errorf("report:\nadded   %v\nupdated %v\nremoved %v\nwant\nadded   %v\nupdated %v\nremoved %v",
			rep.Added, rep.Updated, rep.Removed, wantAdded, wantUpdated, wantRemoved)
	}
}

func TestInstall_MissingFile(t *testing.T) {
	home := t.TempDir()
	path, err := claudehooks.SettingsPath(envOf(map[string]string{"HOME": home}), "")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := hooks.Install(opts(path))
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Changed || rep.Backup != "" || !slices.Equal(rep.Added, allEntries) {
		t.Errorf("report = %+v, want all entries added and no backup", rep)
	}
	checkGolden(t, filepath.Join("testdata", "settings", "empty-file.golden"), readFile(t, path))
	if _, err := os.Stat(path + ".codeman-backup"); !os.IsNotExist(err) {
		t.Errorf("backup of a missing file: %v", err)
	}
}

func TestInstall_MissingConfigDir(t *testing.T) {
	t.Run("Created", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "claude-config")
		path, err := claudehooks.SettingsPath(envOf(map[string]string{"CLAUDE_CONFIG_DIR": dir, "HOME": "/nonexistent"}), "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := hooks.Install(opts(path)); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(dir, "settings.json")); err != nil {
			t.Error(err)
		}
	})
	t.Run("ParentMissing", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "no", "such", "settings.json")
		_, err := hooks.Install(opts(path))
		if err == nil || !strings.Contains(err.Error(), "create settings dir") {
			t.Errorf("err = %v, want a create settings dir error", err)
		}
	})
}

func TestInstall_ReadOnly(t *testing.T) {
	t.Run("File", func(t *testing.T) {
		path := placeFixture(t, filepath.Join("testdata", "settings", "no-hooks.json"), 0o444)
		orig := readFile(t, path)
		_, err := hooks.Install(opts(path))
		if err == nil || !strings.Contains(err.Error(), "read-only") || !strings.Contains(err.Error(), path) {
			t.Errorf("err = %v, want a read-only error naming the file", err)
		}
		if !bytes.Equal(readFile(t, path), orig) {
			t.Error("read-only file changed")
		}
		if _, err := os.Stat(path + ".codeman-backup"); !os.IsNotExist(err) {
			t.Errorf("backup written: %v", err)
		}
	})
	t.Run("Dir", func(t *testing.T) {
		path := placeFixture(t, filepath.Join("testdata", "settings", "no-hooks.json"), 0o644)
		dir := filepath.Dir(path)
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
		_, err := hooks.Install(opts(path))
		if err == nil || !strings.Contains(err.Error(), "read-only") {
			t.Errorf("err = %v, want a read-only error", err)
		}
	})
}

func TestInstall_InvalidSettings(t *testing.T) {
	tests := []struct {
		file string
		want string // in the error, after the file's path
	}{
		{"trailing-comma.json", ":4:1: invalid character '}'"},
		{"truncated.json", ":5:1: unexpected end of JSON input"},
		{"comment.json", ":2:3: invalid character '/'"},
		{"unicode-column.json", `:2:19: invalid character '"' after object key:value pair`},
		{"hooks-array.json", "key hooks: not a JSON object"},
		{"event-object.json", "key hooks.Stop: not a JSON array"},
		{"top-array.json", "top level: not a JSON object"},
	}
	for _, tt := range tests {
		t.Run(strings.TrimSuffix(tt.file, ".json"), func(t *testing.T) {
			path := placeFixture(t, filepath.Join("testdata", "settings-invalid", tt.file), 0o644)
			orig := readFile(t, path)
			if err := os.Chtimes(path, past, past); err != nil {
				t.Fatal(err)
			}
			_, err := hooks.Install(opts(path))
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v\nwant %s...%s", err, path, tt.want)
			}
			info, _ := os.Stat(path)
			if !bytes.Equal(readFile(t, path), orig) || !info.ModTime().Equal(past) {
				t.Error("invalid file was touched")
			}
			if _, err := os.Stat(path + ".codeman-backup"); !os.IsNotExist(err) {
				t.Errorf("backup written: %v", err)
			}
		})
	}
}

func TestInstall_SyntaxErrorType(t *testing.T) {
	path := placeFixture(t, filepath.Join("testdata", "settings-invalid", "trailing-comma.json"), 0o644)
	_, err := hooks.Install(opts(path))
	var se *hooks.SyntaxError
	if !errors.As(err, &se) || se.Path != path || se.Line != 4 || se.Column != 1 {
		t.Errorf("err = %#v, want a SyntaxError at %s:4:1", err, path)
	}
}

func TestInstall_KeepsMode(t *testing.T) {
	path := placeFixture(t, filepath.Join("testdata", "settings", "no-hooks.json"), 0o600)
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	rep, err := hooks.Install(opts(path))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, rep.Backup} {
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %04o, want 0600", p, info.Mode().Perm())
		}
	}
}

// TestInstall_Symlink: a settings file linked from a dotfiles repository
// stays a link; the file it points at gets the hooks.
func TestInstall_Symlink(t *testing.T) {
	target := placeFixture(t, filepath.Join("testdata", "settings", "no-hooks.json"), 0o644)
	dir := filepath.Join(t.TempDir(), ".claude")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "settings.json")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if _, err := hooks.Install(opts(link)); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("settings link replaced: %v %v", info, err)
	}
	checkGolden(t, filepath.Join("testdata", "settings", "no-hooks.golden"), readFile(t, target))
}

// TestInstall_QuotedBinary: a binary path with a space is quoted for the
// shell, and recognised as codeman's on the next install.
func TestInstall_QuotedBinary(t *testing.T) {
	path := placeFixture(t, filepath.Join("testdata", "settings", "no-hooks.json"), 0o644)
	o := hooks.InstallOptions{Entries: claudehooks.Entries, SettingsPath: path, Binary: "/home/me/my tools/codeman"}
	if _, err := hooks.Install(o); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(readFile(t, path), []byte(`"command": "'/home/me/my tools/codeman' hook"`)) {
		t.Errorf("command not quoted:\n%s", readFile(t, path))
	}
	checkNoWrite(t, path, func() (hooks.Report, error) { return hooks.Install(o) })
	rep, err := hooks.Uninstall(o)
	if err != nil || len(rep.Removed) != len(allEntries) {
		t.Errorf("uninstall = %+v, %v; want every entry removed", rep, err)
	}
}

func TestInstall_RelativeBinary(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	if _, err := hooks.Install(hooks.InstallOptions{Entries: claudehooks.Entries, SettingsPath: path, Binary: "codeman"}); err == nil {
		t.Error("Install accepted a relative binary path")
	}
}

// TestInstall_NoEntries: every agent names its entries; options without
// them are refused and the settings file is not created.
func TestInstall_NoEntries(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	o := hooks.InstallOptions{SettingsPath: path, Binary: testBinary}
	if _, err := hooks.Install(o); err == nil || !strings.Contains(err.Error(), "no hook entries") {
		t.Errorf("Install without entries = %v, want an error naming them", err)
	}
	if _, err := hooks.Uninstall(o); err == nil {
		t.Error("Uninstall accepted options without entries")
	}
	if _, err := hooks.Status(o); err == nil {
		t.Error("Status accepted options without entries")
	}
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("settings file after refused calls: %v, want none", err)
	}
}

func TestUninstall_NothingInstalled(t *testing.T) {
	path := placeFixture(t, filepath.Join("testdata", "settings", "user-hooks.json"), 0o644)
	checkNoWrite(t, path, func() (hooks.Report, error) { return hooks.Uninstall(opts(path)) })
	missing := filepath.Join(t.TempDir(), "settings.json")
	if rep, err := hooks.Uninstall(opts(missing)); err != nil || rep.Changed {
		t.Errorf("uninstall of a missing file = %+v, %v", rep, err)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("uninstall created the file: %v", err)
	}
}
