package simclaude_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/simclaude"
)

var tmuxServers atomic.Int32

// tmuxServer is an isolated tmux server: its own -L socket, no config.
type tmuxServer struct {
	t    *testing.T
	name string
}

func newTmuxServer(t *testing.T) *tmuxServer {
	t.Helper()
	if testing.Short() {
		t.Skip("skipping tmux test in -short mode")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("skipping: tmux not installed")
	}
	s := &tmuxServer{t: t, name: fmt.Sprintf("fc%d-%d", os.Getpid(), tmuxServers.Add(1))}
	t.Cleanup(func() { _ = s.cmd("kill-server").Run() }) // the server may already be gone
	return s
}

func (s *tmuxServer) cmd(args ...string) *exec.Cmd {
	cmd := exec.Command("tmux", append([]string{"-L", s.name, "-f", "/dev/null"}, args...)...)
	// A test run from inside tmux must not talk to the developer's server.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TMUX=") && !strings.HasPrefix(kv, "TMUX_PANE=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	return cmd
}

func (s *tmuxServer) run(args ...string) string {
	s.t.Helper()
	out, err := s.cmd(args...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (s *tmuxServer) rows() []string {
	s.t.Helper()
	rows := strings.Split(strings.TrimSuffix(s.run("capture-pane", "-p", "-t", "sim"), "\n"), "\n")
	for i := range rows {
		rows[i] = strings.TrimRight(rows[i], " ")
	}
	return rows
}

func (s *tmuxServer) waitFor(what string, cond func([]string) bool) {
	s.t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for !cond(s.rows()) {
		if time.Now().After(deadline) {
			s.t.Fatalf("timed out waiting for %s; pane:\n%s", what, strings.Join(s.rows(), "\n"))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (s *tmuxServer) waitRow(want string) {
	s.t.Helper()
	s.waitFor(fmt.Sprintf("row %q", want), func(rows []string) bool { return hasRow(rows, want) })
}

// TestRun_Tmux runs the program in a tmux pane and drives it the way
// codeman does: send-keys -l, Enter as its own command, paste-buffer -p for
// multi-line text.
func TestRun_Tmux(t *testing.T) {
	s := newTmuxServer(t)
	logPath := filepath.Join(t.TempDir(), "log.jsonl")
	command := fmt.Sprintf("env %s=1 %s --work 600ms --long 1m --log %s", runMainEnv, os.Args[0], logPath)
	s.run("new-session", "-d", "-s", "sim", "-x", "200", "-y", "50", command)
	s.waitFor("the idle prompt box", func(rows []string) bool {
		return len(rows) == 50 && rows[47] == inputEmpty && rows[49] == idleFooter
	})

	s.run("send-keys", "-t", "sim", "-l", "hello")
	s.run("send-keys", "-t", "sim", "Enter")
	s.waitRow(busyFooter)
	s.waitFor("completion line", func(rows []string) bool { return countMatches(rows, completionRow) == 1 })

	s.run("set-buffer", "-b", "p", "first line\nsecond line")
	s.run("paste-buffer", "-p", "-d", "-b", "p", "-t", "sim")
	s.waitRow("  second line")
	s.run("send-keys", "-t", "sim", "Enter")
	s.waitFor("second completion line", func(rows []string) bool { return countMatches(rows, completionRow) == 2 })

	s.run("send-keys", "-t", "sim", "-l", "long")
	s.run("send-keys", "-t", "sim", "Enter")
	s.waitFor("spinner", func(rows []string) bool { return countMatches(rows, spinnerRow) == 1 })
	s.run("send-keys", "-t", "sim", "Escape")
	s.waitRow("  ⎿ \u00a0Interrupted · What should Claude do instead?")
	s.waitRow(idleFooter)

	entries, err := simclaude.ReadLog(logPath)
	if err != nil {
		t.Fatal(err)
	}
	var submits []string
	for _, e := range entries {
		if e.Kind == simclaude.LogSubmit || e.Kind == simclaude.LogQueued {
			submits = append(submits, fmt.Sprintf("%s %q busy=%t", e.Kind, e.Text, e.Busy))
		}
	}
	sameList(t, "submits", submits, []string{
		`submit "hello" busy=false`,
		`submit "first line\nsecond line" busy=false`,
		`submit "long" busy=false`,
	})
}
