package scripts

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
	"github.com/codeman-dev/codeman/internal/rig/wait"
)

// W, the dash key, is free in tmux's own bindings, and the plugin binds
// it to open the dash for the client that pressed it.
func TestPlugin_BindsDashKey(t *testing.T) {
	srv := tmuxtest.NewServer(t)
	srv.NewSession("work", "sleep", "600")
	if keys := binding(t, srv, "W"); keys != "" {
		t.Fatalf("tmux binds prefix W by default: %q", keys)
	}
	srv.Tmux("run-shell", pluginPath(t))
	keys := binding(t, srv, "W")
	if !strings.Contains(keys, "scripts/dash.sh") || !strings.Contains(keys, "#{client_name}") {
		t.Fatalf("prefix W is bound to %q", keys)
	}

	srv.Tmux("set-option", "-g", "@codeman-dash-key", "C-d")
	srv.Tmux("run-shell", pluginPath(t))
	if keys := binding(t, srv, "C-d"); !strings.Contains(keys, "dash.sh") {
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

	attached := srv.AttachClient("work")
	client := attached.Name()
	if _, err := io.WriteString(attached.Keys(), "\x02W"); err != nil { // C-b, the default prefix, then W
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
