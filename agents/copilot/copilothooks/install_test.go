package copilothooks_test

import (
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/codeman-dev/codeman/agents/copilot/copilothooks"
	"github.com/codeman-dev/codeman/hooks"
)

// A first install creates the Copilot home (private), the hooks dir and
// codeman's file: every event once, running the handler with the event's
// name, in Copilot's shape.
func TestInstall_Creates(t *testing.T) {
	in := newInstall(t)
	rep, err := copilothooks.Install(in.opts())
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Changed || len(rep.Added) != len(copilothooks.Events) || rep.Backup != "" {
		t.Errorf("report %+v", rep)
	}
	f := decodeFile(t, in.path())
	if f.Version != 1 || len(f.Hooks) != len(copilothooks.Events) {
		t.Errorf("file %+v", f)
	}
	for _, ev := range copilothooks.Events {
		var h hook
		if len(f.Hooks[ev]) != 1 || json.Unmarshal(f.Hooks[ev][0], &h) != nil {
			t.Fatalf("%s: %s", ev, f.Hooks[ev])
		}
		if want := (hook{"command", in.handler + " " + ev, hooks.HookTimeout}); h != want {
			t.Errorf("%s: hook %+v, want %+v", ev, h, want)
		}
	}
	for path, want := range map[string]fs.FileMode{in.home: 0o700 | fs.ModeDir, in.path(): 0o644} {
		info, err := os.Stat(path)
		if err != nil || info.Mode()&^0o022 != want&^0o022 {
			t.Errorf("%s: mode %v, %v; want %v", path, info.Mode(), err, want)
		}
	}
	if _, err := os.Stat(in.path() + ".codeman-backup"); err == nil {
		t.Error("a new file got a backup")
	}
	// Nothing Copilot would read as a second hooks file lies beside it.
	names, _ := filepath.Glob(filepath.Join(filepath.Dir(in.path()), "*.json"))
	if len(names) != 1 {
		t.Errorf("hooks dir holds %v", names)
	}
}

// A second install changes nothing, not even the file's time.
func TestInstall_Idempotent(t *testing.T) {
	in := newInstall(t)
	if _, err := copilothooks.Install(in.opts()); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(in.path())
	content := readFile(t, in.path())
	rep, err := copilothooks.Install(in.opts())
	if err != nil || rep.Changed || len(rep.Added)+len(rep.Updated)+len(rep.Removed) > 0 {
		t.Fatalf("second install: %+v, %v", rep, err)
	}
	after, _ := os.Stat(in.path())
	if readFile(t, in.path()) != content || !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
		t.Error("second install rewrote the file")
	}
	st, err := copilothooks.Status(in.opts(), copilothooks.Sources{})
	if err != nil || !st.UpToDate() || len(st.Installed) != len(copilothooks.Events) {
		t.Errorf("status %+v, %v", st, err)
	}
	for _, e := range st.Installed {
		if !e.Executable || !e.Current || e.Program != in.handler {
			t.Errorf("installed %+v", e)
		}
	}
}

// Another binary's hooks (a moved codeman, or `codeman hook` for want of
// codeman-hook) are codeman's: an install rewrites them in place.
func TestInstall_UpdatesOtherBinary(t *testing.T) {
	in := newInstall(t)
	old := in.opts()
	old.Binary, old.Handler = "/old/place/codeman", ""
	if _, err := copilothooks.Install(old); err != nil {
		t.Fatal(err)
	}
	if got := decodeFile(t, in.path()).bashOf(t, "agentStop"); !slices.Equal(got, []string{"/old/place/codeman hook agentStop"}) {
		t.Fatalf("fallback hook runs %v", got)
	}
	st, err := copilothooks.Status(in.opts(), copilothooks.Sources{})
	if err != nil || len(st.Installed) != len(copilothooks.Events) || len(st.Outdated) != len(copilothooks.Events) {
		t.Fatalf("status beside the old install: %+v, %v", st, err)
	}
	if st.Installed[0].Executable || st.Installed[0].Current {
		t.Errorf("the old binary reads as %+v", st.Installed[0])
	}
	rep, err := copilothooks.Install(in.opts())
	if err != nil || len(rep.Updated) != len(copilothooks.Events) || len(rep.Added)+len(rep.Removed) > 0 {
		t.Fatalf("install over it: %+v, %v", rep, err)
	}
	f := decodeFile(t, in.path())
	for _, ev := range copilothooks.Events {
		if got := f.bashOf(t, ev); !slices.Equal(got, []string{in.handler + " " + ev}) {
			t.Errorf("%s runs %v", ev, got)
		}
	}
}

// Uninstall removes exactly what install wrote: the file goes when it
// holds nothing else, and a second uninstall finds nothing.
func TestUninstall_RemovesTheFile(t *testing.T) {
	in := newInstall(t)
	if _, err := copilothooks.Install(in.opts()); err != nil {
		t.Fatal(err)
	}
	rep, err := copilothooks.Uninstall(in.opts())
	if err != nil || !rep.Changed || !rep.Gone || len(rep.Removed) != len(copilothooks.Events) {
		t.Fatalf("uninstall: %+v, %v", rep, err)
	}
	if _, err := os.Lstat(in.path()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the file is still there: %v", err)
	}
	if rep, err := copilothooks.Uninstall(in.opts()); err != nil || rep.Changed {
		t.Errorf("second uninstall: %+v, %v", rep, err)
	}
	// With no Copilot home at all, uninstall and status find nothing and
	// create nothing.
	gone := newInstall(t)
	if rep, err := copilothooks.Uninstall(gone.opts()); err != nil || rep.Changed {
		t.Errorf("uninstall without a home: %+v, %v", rep, err)
	}
	if st, err := copilothooks.Status(gone.opts(), copilothooks.Sources{}); err != nil || st.Exists || len(st.Missing) != len(copilothooks.Events) {
		t.Errorf("status without a home: %+v, %v", st, err)
	}
	if _, err := os.Stat(gone.home); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("uninstall or status created the home: %v", err)
	}
}

// userFile is a codeman.json a person added to: a hook of their own
// before codeman's, a key of their own, an event of their own.
const userFile = `{
    "version": 1,
    "note": "mine",
    "hooks": {
        "agentStop": [{"type": "command", "bash": "notify-send done", "timeoutSec": 3}],
        "preCompact": [{"type": "command", "bash": "echo compact >> /tmp/log"}]
    }
}
`

// The user's parts of the file are kept, in their places, through an
// install and an uninstall; each write that touches the file keeps the
// previous bytes as the backup.
func TestInstall_KeepsTheUsersParts(t *testing.T) {
	in := newInstall(t)
	writeFile(t, in.path(), userFile)
	rep, err := copilothooks.Install(in.opts())
	if err != nil || !rep.Changed || rep.UserHooks != 2 || len(rep.Added) != len(copilothooks.Events) {
		t.Fatalf("install: %+v, %v", rep, err)
	}
	if got := readFile(t, rep.Backup); got != userFile {
		t.Errorf("backup holds %q", got)
	}
	f := decodeFile(t, in.path())
	if got := f.bashOf(t, "agentStop"); !slices.Equal(got, []string{"notify-send done", in.handler + " agentStop"}) {
		t.Errorf("agentStop runs %v", got)
	}
	if got := f.bashOf(t, "preCompact"); !slices.Equal(got, []string{"echo compact >> /tmp/log"}) {
		t.Errorf("preCompact runs %v", got)
	}
	if !strings.Contains(readFile(t, in.path()), `"note": "mine"`) {
		t.Errorf("the user's key is gone:\n%s", readFile(t, in.path()))
	}
	if rep, err := copilothooks.Install(in.opts()); err != nil || rep.Changed || rep.UserHooks != 2 {
		t.Errorf("second install: %+v, %v", rep, err)
	}
	installed := readFile(t, in.path())
	rep, err = copilothooks.Uninstall(in.opts())
	if err != nil || !rep.Changed || rep.Gone || rep.UserHooks != 2 {
		t.Fatalf("uninstall: %+v, %v", rep, err)
	}
	if got := readFile(t, rep.Backup); got != installed {
		t.Errorf("uninstall's backup holds %q", got)
	}
	var left, want any
	_ = json.Unmarshal([]byte(readFile(t, in.path())), &left)
	_ = json.Unmarshal([]byte(userFile), &want)
	if !jsonEqual(left, want) {
		t.Errorf("uninstall left\n%s\nwant the user's file as a value\n%s", readFile(t, in.path()), userFile)
	}
	for _, key := range []string{`"version"`, `"note"`, `"hooks"`} {
		if i := strings.Index(readFile(t, in.path()), key); i < 0 {
			t.Errorf("%s gone", key)
		}
	}
	if v, n, h := strings.Index(readFile(t, in.path()), `"version"`), strings.Index(readFile(t, in.path()), `"note"`), strings.Index(readFile(t, in.path()), `"hooks"`); v >= n || n >= h {
		t.Errorf("the keys' order changed:\n%s", readFile(t, in.path()))
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// Copies of codeman's hooks in its file, and hooks of an event it no
// longer writes, are outdated; an install keeps one of each event and
// drops the rest, a hook naming another event included.
func TestInstall_Copies(t *testing.T) {
	in := newInstall(t)
	h := func(ev string) string {
		return `{"type": "command", "bash": "` + in.handler + ` ` + ev + `", "timeoutSec": 5}`
	}
	writeFile(t, in.path(), `{"version": 1, "hooks": {
  "agentStop": [`+h("agentStop")+`, `+h("agentStop")+`],
  "sessionEnd": [`+h("agentStop")+`],
  "subagentStop": [`+h("subagentStop")+`]
}}`)
	st, err := copilothooks.Status(in.opts(), copilothooks.Sources{})
	if err != nil {
		t.Fatal(err)
	}
	if hooks.EntryList(st.Copies) != "agentStop" || hooks.EntryList(st.Outdated) != "sessionEnd, subagentStop" || st.UpToDate() {
		t.Errorf("status: copies %v, outdated %v", st.Copies, st.Outdated)
	}
	rep, err := copilothooks.Install(in.opts())
	if err != nil || rep.Backup != "" {
		t.Fatalf("install: %+v, %v", rep, err)
	}
	f := decodeFile(t, in.path())
	if len(f.Hooks) != len(copilothooks.Events) {
		t.Errorf("events %v", f.Hooks)
	}
	for _, ev := range []string{"agentStop", "sessionEnd"} {
		if got := f.bashOf(t, ev); !slices.Equal(got, []string{in.handler + " " + ev}) {
			t.Errorf("%s runs %v", ev, got)
		}
	}
}

// What codeman cannot edit as a hooks file of its own is refused with an
// error naming the file, and left as it was.
func TestInstall_RefusesOddFiles(t *testing.T) {
	for _, tc := range []struct {
		name    string
		make    func(t *testing.T, path string)
		wantErr []string
	}{
		{"InvalidJSON", func(t *testing.T, p string) { writeFile(t, p, "{\n  \"version\": 1,\n  \"hooks\": {,}\n}\n") }, []string{":3:"}},
		{"Comments", func(t *testing.T, p string) { writeFile(t, p, "// mine\n{\"version\": 1}\n") }, []string{":1:1"}},
		{"NotAnObject", func(t *testing.T, p string) { writeFile(t, p, "[1, 2]\n") }, []string{"not a JSON object"}},
		{"Version", func(t *testing.T, p string) { writeFile(t, p, `{"version": 2, "hooks": {}}`) }, []string{"version 2"}},
		{"HooksNotObject", func(t *testing.T, p string) { writeFile(t, p, `{"version": 1, "hooks": []}`) }, []string{"key hooks is not a JSON object"}},
		{"EventNotList", func(t *testing.T, p string) { writeFile(t, p, `{"version": 1, "hooks": {"agentStop": {}}}`) }, []string{"hooks.agentStop is not a JSON array"}},
		{"Twice", func(t *testing.T, p string) {
			writeFile(t, p, `{"version": 1, "hooks": {"agentStop": [], "agentStop": []}}`)
		}, []string{"hooks.agentStop appears twice"}},
		{"Huge", func(t *testing.T, p string) {
			writeFile(t, p, `{"version": 1, "pad": "`+strings.Repeat("x", 1<<20)+`"}`)
		}, []string{"larger than codeman reads"}},
		{"Symlink", func(t *testing.T, p string) {
			target := filepath.Join(filepath.Dir(p), "mine.txt")
			writeFile(t, target, `{"version": 1, "hooks": {}}`)
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
		}, []string{"is a symlink"}},
		{"Directory", func(t *testing.T, p string) {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
		}, []string{"directory"}},
		{"FIFO", func(t *testing.T, p string) {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Fatal(err)
			}
		}, []string{"FIFO"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := newInstall(t)
			tc.make(t, in.path())
			before := snapshot(t, filepath.Dir(in.path()))
			ops := []func(copilothooks.Options) (copilothooks.Report, error){copilothooks.Install, copilothooks.Uninstall}
			if tc.name == "EventNotList" {
				// An event codeman would not remove anything from.
				ops = ops[:1]
			}
			for _, op := range ops {
				_, err := op(in.opts())
				if err == nil {
					t.Fatal("accepted")
				}
				for _, w := range append(tc.wantErr, in.path()) {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not say %q", err, w)
					}
				}
			}
			if _, err := copilothooks.Status(in.opts(), copilothooks.Sources{}); err == nil {
				t.Error("status accepted it")
			}
			if after := snapshot(t, filepath.Dir(in.path())); !maps.Equal(before, after) {
				t.Errorf("the hooks dir changed:\n%v\nwas\n%v", after, before)
			}
		})
	}
}

// snapshot is every regular file of dir but codeman's lock, by name.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".codeman-lock") {
			continue
		}
		if e.Type().IsRegular() {
			out[e.Name()] = readFile(t, filepath.Join(dir, e.Name()))
		} else {
			out[e.Name()] = e.Type().String()
		}
	}
	return out
}

// A read-only file is refused with its mode, not replaced.
func TestInstall_ReadOnly(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes any file")
	}
	in := newInstall(t)
	writeFile(t, in.path(), `{"version": 1, "hooks": {}}`)
	if err := os.Chmod(in.path(), 0o444); err != nil {
		t.Fatal(err)
	}
	if _, err := copilothooks.Install(in.opts()); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("install into a read-only file: %v", err)
	}
}
