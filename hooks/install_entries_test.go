package hooks_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/codeman-dev/codeman/hooks"
)

// Entries of another agent: written with their own timeouts, found at the
// group and handler indexes the file has, and rewritten in place when a
// timeout changes.
func TestInstall_OwnEntries(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hooks.json")
	user := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "mine", "timeout": 9}]}]}}`
	if err := os.WriteFile(path, []byte(user), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := hooks.InstallOptions{SettingsPath: path, Binary: "/bin/true", Handler: "/opt/codeman-hook",
		Entries: []hooks.Entry{{Event: "Stop"}, {Event: "SessionEnd", Timeout: 3}}}
	if _, err := hooks.Install(opts); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Command string `json:"command"`
				Timeout int    `json:"timeout"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if got := doc.Hooks["Stop"]; len(got) != 2 || got[0].Hooks[0].Command != "mine" || got[1].Hooks[0].Timeout != hooks.HookTimeout {
		t.Errorf("Stop groups %+v", got)
	}
	if got := doc.Hooks["SessionEnd"]; len(got) != 1 || got[0].Hooks[0].Timeout != 3 {
		t.Errorf("SessionEnd groups %+v", got)
	}
	if _, ok := doc.Hooks["Notification"]; ok {
		t.Error("Claude Code's entries written too")
	}
	st, err := hooks.Status(opts)
	if err != nil {
		t.Fatal(err)
	}
	if !st.UpToDate() || len(st.Installed) != 2 {
		t.Fatalf("status %+v", st)
	}
	for _, ie := range st.Installed {
		want := map[string][2]int{"Stop": {1, 0}, "SessionEnd": {0, 0}}[ie.Event]
		if [2]int{ie.Group, ie.Handler} != want {
			t.Errorf("%s at group %d handler %d, want %v", ie.Event, ie.Group, ie.Handler, want)
		}
	}
	opts.Entries[1].Timeout = 2
	rep, err := hooks.Install(opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Updated) != 1 || rep.Updated[0].Event != "SessionEnd" || len(rep.Added) != 0 {
		t.Errorf("second install %+v", rep)
	}
	if _, err := hooks.Uninstall(opts); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != user {
		t.Errorf("after uninstall:\n%s\nwant\n%s", data, user)
	}
}
