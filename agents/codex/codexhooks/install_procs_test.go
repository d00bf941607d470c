package codexhooks_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/agents/codex/codexhooks"
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
	fmt.Println("ready")
	_, _ = io.Copy(io.Discard, os.Stdin)
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

// runTogether starts n copies of the test binary with env and lets them go
// at once, when all are ready; it fails the test unless each exits 0.
func runTogether(t *testing.T, n int, env ...string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	type child struct {
		cmd    *exec.Cmd
		stdin  io.Closer
		stderr strings.Builder
	}
	children := make([]*child, n)
	ready := make(chan error, n)
	for i := range children {
		c := &child{cmd: exec.Command(self, "-test.run=^$")}
		c.cmd.Env = append(os.Environ(), env...)
		c.cmd.Stderr = &c.stderr
		if c.stdin, err = c.cmd.StdinPipe(); err != nil {
			t.Fatal(err)
		}
		out, err := c.cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := c.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		children[i] = c
		go func() {
			line, err := bufio.NewReader(out).ReadString('\n')
			if err == nil && line != "ready\n" {
				err = fmt.Errorf("child said %q", line)
			}
			ready <- err
			_, _ = io.Copy(io.Discard, out)
		}()
	}
	deadline := time.After(time.Minute)
	for range children {
		select {
		case err := <-ready:
			if err != nil {
				t.Fatal(err)
			}
		case <-deadline:
			t.Fatal("children not ready after a minute")
		}
	}
	for _, c := range children {
		c.stdin.Close()
	}
	for i, c := range children {
		if err := c.cmd.Wait(); err != nil {
			t.Errorf("process %d: %v\n%s", i, err, c.stderr.String())
		}
	}
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
	runTogether(t, parallelInstalls, envInstall+"=install", envHome+"="+home)
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
	runTogether(t, 2, envInstall+"=uninstall", envHome+"="+home)
	if n := countHandlers(t, home); n != 0 {
		t.Errorf("uninstall left %d handlers of codeman's", n)
	}
	if got := readFile(t, codexhooks.ConfigPath(home)); got != "model = \"gpt-5.5\"\n" {
		t.Errorf("config.toml after uninstall:\n%s", got)
	}
}
