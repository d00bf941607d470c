package copilothooks_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/codeman-dev/codeman/agents/copilot/copilothooks"
	"github.com/codeman-dev/codeman/internal/rig/together"
)

// envInstall makes the test binary a process of its own that runs one
// install or uninstall (the value) of the hooks file envPath names, as
// `codeman hooks install --agent copilot` would, once all of them are
// ready (package together).
const (
	envInstall = "CODEMAN_COPILOT_TEST_INSTALL"
	envPath    = "CODEMAN_COPILOT_TEST_PATH"
	envHandler = "CODEMAN_COPILOT_TEST_HANDLER"
)

const parallelInstalls = 4

func TestMain(m *testing.M) {
	if op := os.Getenv(envInstall); op != "" {
		together.Wait()
		opts := copilothooks.Options{Path: os.Getenv(envPath), Binary: "/opt/codeman/codeman", Handler: os.Getenv(envHandler)}
		run := copilothooks.Install
		if op == "uninstall" {
			run = copilothooks.Uninstall
		}
		if _, err := run(opts); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// Installs run at once by separate processes take turns: one hook per
// event results, the user's hook kept; uninstalls run at once leave the
// user's hook alone.
func TestInstall_ParallelProcesses(t *testing.T) {
	in := newInstall(t)
	writeFile(t, in.path(), `{"version": 1, "hooks": {"agentStop": [{"type": "command", "bash": "mine"}]}}`)
	env := []string{envPath + "=" + in.path(), envHandler + "=" + in.handler}
	together.Run(t, parallelInstalls, append(env, envInstall+"=install")...)
	f := decodeFile(t, in.path())
	for _, ev := range copilothooks.Events {
		want := 1
		if ev == "agentStop" {
			want = 2
		}
		if got := f.bashOf(t, ev); len(got) != want {
			t.Errorf("%s runs %v after %d installs at once", ev, got, parallelInstalls)
		}
	}
	together.Run(t, 2, append(env, envInstall+"=uninstall")...)
	if got := decodeFile(t, in.path()).Hooks; len(got) != 1 || len(got["agentStop"]) != 1 {
		t.Errorf("uninstalls at once left %v", got)
	}
}
