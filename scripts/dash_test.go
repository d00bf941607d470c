package scripts

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/tmuxtest"
	"github.com/codeman-dev/codeman/internal/wait"
)

// W, the dash key, is free in tmux's own bindings, and the plugin binds
// it to open the dash for the client that pressed it.
func TestPlugin_BindsDashKey(t *testing.T) {
	srv := tmuxtest.NewServer(t)
	srv.NewSession("work", "sleep", "600")
	if keys, _ := srv.Run("list-keys", "-T", "prefix", "W"); strings.TrimSpace(keys) != "" {
		t.Fatalf("tmux binds prefix W by default: %q", keys)
	}
	srv.Tmux("run-shell", pluginPath(t))
	keys := srv.Tmux("list-keys", "-T", "prefix", "W")
	if !strings.Contains(keys, "scripts/dash.sh") || !strings.Contains(keys, "#{client_name}") {
		t.Fatalf("prefix W is bound to %q", keys)
	}

	srv.Tmux("set-option", "-g", "@codeman-dash-key", "C-d")
	srv.Tmux("run-shell", pluginPath(t))
	if keys := srv.Tmux("list-keys", "-T", "prefix", "C-d"); !strings.Contains(keys, "dash.sh") {
		t.Fatalf("prefix C-d is bound to %q", keys)
	}
}

// Pressing prefix W on an attached client opens a popup on that client
// that runs codeman dash for it.
func TestDashKey_OpensPopup(t *testing.T) {
	srv := tmuxtest.NewServer(t)
	srv.NewSession("work", "sleep", "600")
	dir := t.TempDir()
	record := filepath.Join(dir, "args")
	bin := filepath.Join(dir, "codeman")
	script := "#!/bin/sh\necho \"$@\" > " + record + "\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	srv.Tmux("set-option", "-g", "@codeman-bin", bin)
	srv.Tmux("run-shell", pluginPath(t))

	keys, client := attachClient(t, srv, "work")
	if _, err := io.WriteString(keys, "\x02W"); err != nil { // C-b, the default prefix, then W
		t.Fatal(err)
	}
	var got string
	if err := wait.Until("the popup to run codeman dash", 10*time.Second, func() bool {
		b, _ := os.ReadFile(record)
		got = strings.TrimSpace(string(b))
		return got != ""
	}); err != nil {
		t.Fatal(err)
	}
	if want := "dash --popup --client " + client; got != want {
		t.Fatalf("the popup ran codeman %q, want %q", got, want)
	}
}

// attachClient attaches a client on a pseudo-terminal to session, as a
// person's terminal would, and returns what types into it and its name.
func attachClient(t *testing.T, srv *tmuxtest.Server, session string) (io.Writer, string) {
	t.Helper()
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("script (util-linux) is not installed: this test needs it to attach a tmux client on a terminal")
	}
	cmd := exec.Command("script", "-q", "-c", "tmux -S "+srv.Socket()+" attach -t "+session, "/dev/null")
	cmd.Env = append(srv.Env(), "TERM=xterm-256color")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("attach a client: %v", err)
	}
	t.Cleanup(func() {
		stdin.Close()
		cmd.Process.Kill()
		cmd.Wait()
	})
	var name string
	if err := wait.Until("the client to attach", 10*time.Second, func() bool {
		out, _ := srv.Run("list-clients", "-F", "#{client_control_mode} #{client_name}")
		for _, line := range strings.Split(out, "\n") {
			if n, ok := strings.CutPrefix(line, "0 "); ok {
				name = n
			}
		}
		return name != ""
	}); err != nil {
		t.Fatal(err)
	}
	return stdin, name
}
