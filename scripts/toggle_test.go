package scripts

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
	"github.com/codeman-dev/codeman/internal/rig/wait"
)

// TestToggle runs what the key binding runs, against a real codeman binary:
// the first press enables the pane (starting the daemon), the second
// disables it.
func TestToggle(t *testing.T) {
	srv := tmuxtest.NewServer(t)
	pane := srv.NewSession("work", "sleep", "600")
	dir, err := os.MkdirTemp("", "cmt") // short: the socket path must fit sun_path
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	bin := filepath.Join(dir, "codeman")
	build := exec.Command("go", "build", "-o", bin, "../cmd/codeman")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build codeman: %v\n%s", err, out)
	}
	srv.Tmux("set-option", "-g", "@codeman-bin", bin)
	env := []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TMUX=" + srv.Socket() + ",0,0",
		"XDG_RUNTIME_DIR=" + filepath.Join(dir, "run"), "XDG_STATE_HOME=" + filepath.Join(dir, "state"), "XDG_CONFIG_HOME=" + filepath.Join(dir, "config"),
	}
	os.Mkdir(filepath.Join(dir, "run"), 0o700)
	paths, err := api.DefaultPaths(func(k string) string {
		for _, kv := range env {
			if v, ok := strings.CutPrefix(kv, k+"="); ok {
				return v
			}
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopDaemon(paths) })

	toggle := func() string {
		cmd := exec.Command("./toggle.sh", srv.Socket(), pane)
		cmd.Env = env
		out, _ := cmd.CombinedOutput() // display-message has no client to show on; the option tells
		return string(out)
	}
	toggle()
	if got := strings.TrimSpace(srv.Tmux("show-options", "-p", "-t", pane, "-v", "@codeman")); got != "on" {
		t.Fatalf("after the first toggle @codeman = %q", got)
	}
	toggle()
	if got := srv.Tmux("show-options", "-p", "-t", pane, "-qv", "@codeman"); strings.TrimSpace(got) != "" {
		t.Fatalf("after the second toggle @codeman = %q", got)
	}
}

// stopDaemon ends the daemon a toggle started, by the pid it reports.
func stopDaemon(paths api.Paths) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	h, err := api.NewClient(paths.Socket).Health(ctx)
	if err != nil {
		return
	}
	syscall.Kill(h.PID, syscall.SIGTERM)
	if wait.Until("the daemon to exit", 2*time.Second, func() bool { return syscall.Kill(h.PID, 0) != nil }) != nil {
		syscall.Kill(h.PID, syscall.SIGKILL)
	}
}
