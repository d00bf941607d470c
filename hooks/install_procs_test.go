package hooks_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/codeman-dev/codeman/agents/claude/claudehooks"
	"github.com/codeman-dev/codeman/hooks"
	"github.com/codeman-dev/codeman/internal/rig/together"
)

// envInstall makes the test binary a process of its own that runs one
// install or uninstall (the value) of the settings file envSettings names,
// as `codeman hooks install` would: it says "ready" and starts once its
// stdin closes, so that all of them start together.
const (
	envInstall  = "CODEMAN_HOOKS_TEST_INSTALL"
	envSettings = "CODEMAN_HOOKS_TEST_SETTINGS"
)

// parallelInstalls is how many installs run at once.
const parallelInstalls = 10

// runInstallProcess is the child's side of envInstall.
func runInstallProcess(op string) {
	together.Wait()
	o := hooks.InstallOptions{Entries: claudehooks.Entries, SettingsPath: os.Getenv(envSettings), Binary: testBinary}
	run := hooks.Install
	if op == "uninstall" {
		run = hooks.Uninstall
	}
	if _, err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// countCommand counts the hooks in the settings file that run command.
func countCommand(t *testing.T, path, command string) int {
	t.Helper()
	var doc struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Command string `json:"command"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	n := 0
	for _, groups := range doc.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				if h.Command == command {
					n++
				}
			}
		}
	}
	return n
}

// Installs run at once by separate processes, into a missing file and
// into one of the user's, leave one set of codeman's hooks, and a single
// uninstall removes them all.
func TestInstall_ParallelProcesses(t *testing.T) {
	for name, fixture := range map[string]string{"Missing": "", "UserHooks": filepath.Join("testdata", "settings", "user-hooks.json")} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), ".claude", "settings.json")
			var orig []byte
			if fixture != "" {
				path = placeFixture(t, fixture, 0o644)
				orig = readFile(t, path)
			}
			command := opts(path).Command()
			together.Run(t, parallelInstalls, envInstall+"=install", envSettings+"="+path)
			if n := countCommand(t, path, command); n != len(allEntries) {
				t.Errorf("%d parallel installs left %d hooks of codeman's, want %d", parallelInstalls, n, len(allEntries))
			}
			st, err := hooks.Status(opts(path))
			if err != nil || !st.UpToDate() || len(st.Installed) != len(allEntries) {
				t.Errorf("status after the installs: %+v, %v", st, err)
			}
			together.Run(t, 2, envInstall+"=uninstall", envSettings+"="+path)
			if n := countCommand(t, path, command); n != 0 {
				t.Errorf("uninstall left %d hooks of codeman's", n)
			}
			// The record is the first install's: uninstall gives back what
			// was there before any of them.
			got, err := os.ReadFile(path)
			switch {
			case orig == nil && !os.IsNotExist(err):
				t.Errorf("uninstall left the file codeman created: %q, %v", got, err)
			case orig != nil && !bytes.Equal(got, orig):
				t.Errorf("uninstall left\n%s\nwant\n%s", got, orig)
			}
		})
	}
}
