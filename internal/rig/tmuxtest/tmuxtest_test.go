package tmuxtest_test

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
	"github.com/codeman-dev/codeman/internal/rig/wait"
)

func TestServer_NewSession(t *testing.T) {
	srv := tmuxtest.NewServer(t)
	pane := srv.NewSession("work", "sh", "-c", `echo ready; exec cat`)
	if !strings.HasPrefix(pane, "%") {
		t.Fatalf("NewSession returned %q, want a pane id", pane)
	}
	srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "ready") }, "the ready line", 5*time.Second)
	if got := srv.Tmux("display-message", "-p", "-t", pane, "#{pane_width}x#{pane_height}"); strings.TrimSpace(got) != "200x50" {
		t.Errorf("pane size = %q, want 200x50", got)
	}
	if !strings.HasPrefix(srv.Socket(), "/") {
		t.Errorf("Socket() = %q, want an absolute path", srv.Socket())
	}
	if got := strings.TrimSpace(srv.Tmux("display-message", "-p", "#{socket_path}")); got != srv.Socket() {
		t.Errorf("socket_path = %q, want %q", got, srv.Socket())
	}
}

func TestServer_ScrubsTMUX(t *testing.T) {
	t.Setenv("TMUX", "/nonexistent/socket,1,0")
	t.Setenv("TMUX_PANE", "%999")
	srv := tmuxtest.NewServer(t)
	pane := srv.NewSession("env", "sh", "-c", `echo "pane sees [$TMUX_PANE]"; exec cat`)
	srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "pane sees [%") }, "the pane's own TMUX_PANE", 5*time.Second)
	if strings.Contains(srv.Capture(pane), "%999") {
		t.Errorf("the developer's TMUX_PANE leaked into the pane:\n%s", srv.Capture(pane))
	}
}

func TestServer_KilledOnCleanup(t *testing.T) {
	var socket string
	t.Run("Inner", func(t *testing.T) {
		srv := tmuxtest.NewServer(t)
		srv.NewSession("x", "cat")
		socket = srv.Socket()
	})
	if socket == "" {
		t.Skip("inner test skipped")
	}
	if err := exec.Command("tmux", "-S", socket, "list-sessions").Run(); err == nil {
		t.Errorf("server on %s still answers after its test ended", socket)
	}
	if _, err := os.Lstat(socket); !os.IsNotExist(err) {
		t.Errorf("socket %s left behind: %v", socket, err)
	}
}

// A server whose socket file was removed answers no tmux command; it is
// killed all the same when its test ends, whether the test started it
// through the package or with a tmux command of its own after killing the
// first one.
func TestServer_KilledWhenItsSocketIsRemoved(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc to find the server's process")
	}
	for _, restart := range []bool{false, true} {
		var pid int
		t.Run(fmt.Sprintf("restarted=%t", restart), func(t *testing.T) {
			srv := tmuxtest.NewServer(t)
			srv.NewSession("x", "cat")
			if restart {
				// Its process, not its answers: a server that stopped
				// answering may still accept the next client and then
				// exit under it ("server exited unexpectedly").
				first, _ := strconv.Atoi(strings.TrimSpace(srv.Tmux("display-message", "-p", "#{pid}")))
				srv.Tmux("kill-server")
				wait.For(t, "the first server to exit", 5*time.Second, func() bool { return gone(first) })
				srv.Tmux("new-session", "-d", "-s", "y", "cat")
			}
			pid, _ = strconv.Atoi(strings.TrimSpace(srv.Tmux("display-message", "-p", "#{pid}")))
			if err := os.Remove(srv.Socket()); err != nil {
				t.Fatal(err)
			}
		})
		if pid == 0 {
			t.Skip("inner test skipped")
		}
		if !gone(pid) {
			t.Errorf("restarted=%t: tmux server pid %d still runs after its test ended", restart, pid)
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// gone reports whether pid no longer runs (a zombie has ended too).
func gone(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	_, after, _ := strings.Cut(string(b), ") ")
	return strings.HasPrefix(after, "Z")
}

func TestNewServerWith_ConfigAndEnv(t *testing.T) {
	srv := tmuxtest.NewServerWith(t, tmuxtest.Options{
		Config: "set -g @probe from-config\n",
		Env:    []string{"PATH=" + os.Getenv("PATH"), "PROBE=from-env", "TMUX=/nonexistent/leak,1,0"},
	})
	if got := strings.TrimSpace(srv.Tmux("show-options", "-gv", "@probe")); got != "from-config" {
		t.Errorf("@probe = %q, want the config's value", got)
	}
	pane := srv.NewSession("env", "sh", "-c", `echo "probe [$PROBE] tmux [$TMUX]"; exec cat`)
	srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "probe [from-env]") }, "the pane's PROBE", 5*time.Second)
	if screen := srv.Capture(pane); strings.Contains(screen, "leak") {
		t.Errorf("the given TMUX leaked into the pane:\n%s", screen)
	}
}

func TestServer_RunReturnsErrors(t *testing.T) {
	srv := tmuxtest.NewServer(t)
	_, err := srv.Run("kill-session", "-t", "nosuch")
	if err == nil || !strings.Contains(err.Error(), "tmux kill-session -t nosuch: ") {
		t.Errorf("Run on a missing pane = %v, want an error naming the command", err)
	}
	if t.Failed() {
		t.Error("Run failed the test")
	}
}

func TestServer_CloseShowsThePanesOfAFailedTest(t *testing.T) {
	failed := &failedTB{TB: t}
	srv := tmuxtest.NewServer(failed)
	pane := srv.NewSession("x", "sh", "-c", "echo last words; exec cat")
	srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "last words") }, "the last words", 5*time.Second)
	srv.Close()
	srv.Close() // the second call, the test's cleanup's, does nothing
	if !strings.Contains(failed.logs.String(), "pane "+pane+" at the end:\nlast words") {
		t.Errorf("Close logged:\n%s\nwant pane %s's screen", failed.logs.String(), pane)
	}
	if _, err := srv.Run("list-sessions"); err == nil {
		t.Error("the server still answers after Close")
	}
}

// failedTB is a test that has failed, whose logs are kept.
type failedTB struct {
	testing.TB
	logs strings.Builder
}

func (f *failedTB) Failed() bool { return true }

func (f *failedTB) Logf(format string, args ...any) {
	fmt.Fprintf(&f.logs, format+"\n", args...)
}
