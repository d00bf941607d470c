package codexhooks_test

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/codeman-dev/codeman/agents/codex/codexhooks"
	"github.com/codeman-dev/codeman/internal/rig/together"
)

// envInstall makes the test binary a process of its own that runs one
// install or uninstall (the value) into the Codex home envHome names, as
// `codeman hooks install --agent codex` would: it says "ready" and starts
// once its stdin closes, so that all of them start together.
const (
	envInstall = "CODEMAN_CODEX_TEST_INSTALL"
	envHome    = "CODEMAN_CODEX_TEST_HOME"
)

// parallelInstalls is how many installs run at once.
const parallelInstalls = 4

func TestMain(m *testing.M) {
	if op := os.Getenv(envInstall); op != "" {
		runInstallProcess(op)
	}
	os.Exit(m.Run())
}

func runInstallProcess(op string) {
	together.Wait()
	opts := codexhooks.Options{Home: os.Getenv(envHome), Binary: "/opt/codeman/codeman", Handler: handler}
	run := codexhooks.Install
	if op == "uninstall" {
		run = codexhooks.Uninstall
	}
	if _, err := run(opts); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// countHandlers counts the handlers in hooks.json that run the handler.
func countHandlers(t *testing.T, home string) int {
	t.Helper()
	data, err := os.ReadFile(codexhooks.HooksPath(home))
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Command string `json:"command"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, groups := range doc.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				if h.Command == handler {
					n++
				}
			}
		}
	}
	return n
}

// Installs run at once by separate processes leave one set of codeman's
// handlers, each trusted once; a single uninstall removes them and their
// trust.
func TestInstall_ParallelProcesses(t *testing.T) {
	home := t.TempDir()
	writeFile(t, codexhooks.ConfigPath(home), "model = \"gpt-5.5\"\n")
	together.Run(t, parallelInstalls, envInstall+"=install", envHome+"="+home)
	if n := countHandlers(t, home); n != len(codexhooks.Entries) {
		t.Errorf("%d parallel installs left %d handlers of codeman's, want %d", parallelInstalls, n, len(codexhooks.Entries))
	}
	if state := trustState(t, home); len(state) != len(codexhooks.Entries) {
		t.Errorf("%d parallel installs left %d trusted hashes, want %d", parallelInstalls, len(state), len(codexhooks.Entries))
	}
	opts := codexhooks.Options{Home: home, Binary: "/opt/codeman/codeman", Handler: handler}
	if st, err := codexhooks.Status(opts); err != nil || !st.UpToDate() || len(st.Handlers) != len(codexhooks.Entries) {
		t.Errorf("status after the installs: %+v, %v", st, err)
	}
	together.Run(t, 2, envInstall+"=uninstall", envHome+"="+home)
	if n := countHandlers(t, home); n != 0 {
		t.Errorf("uninstall left %d handlers of codeman's", n)
	}
	if got := readFile(t, codexhooks.ConfigPath(home)); got != "model = \"gpt-5.5\"\n" {
		t.Errorf("config.toml after uninstall:\n%s", got)
	}
}
