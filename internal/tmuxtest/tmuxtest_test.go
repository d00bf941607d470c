package tmuxtest_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/tmuxtest"
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
