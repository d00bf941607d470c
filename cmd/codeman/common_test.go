package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
)

// frozenDaemon puts on the user's socket a listener that takes requests
// and never answers, and beside it the lock of a daemon whose process is
// stopped (a sleep stopped with SIGSTOP): a daemon after kill -STOP.
func frozenDaemon(t *testing.T) (pid int) {
	t.Helper()
	dir, err := os.MkdirTemp("", "cmd") // short: the socket path must fit sun_path
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	t.Setenv("XDG_RUNTIME_DIR", filepath.Join(dir, "run"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	os.Mkdir(filepath.Join(dir, "run"), 0o700)
	paths, err := api.DefaultPaths(os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", paths.Socket)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() })
		}
	}()
	sleep := exec.Command("sleep", "600")
	if err := sleep.Start(); err != nil {
		t.Skipf("start sleep: %v; this test needs the sleep program", err)
	}
	t.Cleanup(func() { sleep.Process.Kill(); sleep.Wait() })
	pid = sleep.Process.Pid
	syscall.Kill(pid, syscall.SIGSTOP)
	lock, _ := json.Marshal(map[string]any{"pid": pid, "socket": paths.Socket})
	if err := os.WriteFile(paths.Lock, lock, 0o600); err != nil {
		t.Fatal(err)
	}
	return pid
}

// Commands against a daemon that is stopped give up within seconds and
// say which process it is and how to continue it: those that read the
// daemon, and attach, which goes to it without a read first.
func TestCommands_FrozenDaemon(t *testing.T) {
	pid := frozenDaemon(t)
	// A tmux socket for attach's address: the daemon would resolve it.
	tmuxSocket := filepath.Join(filepath.Dir(os.Getenv("XDG_RUNTIME_DIR")), "tmux.sock")
	ln, err := net.Listen("unix", tmuxSocket)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	for _, args := range [][]string{{"status"}, {"attach", "tmux:" + tmuxSocket + ":%1"}} {
		start := time.Now()
		_, _, err := runApp(args...)
		took := time.Since(start)
		if err == nil {
			t.Fatalf("codeman %s against a stopped daemon succeeded", strings.Join(args, " "))
		}
		if took > 6*time.Second {
			t.Errorf("codeman %s took %s against a stopped daemon, want a few seconds", strings.Join(args, " "), took)
		}
		for _, want := range []string{"the codeman daemon does not answer", fmt.Sprintf("pid %d", pid), fmt.Sprintf("kill -CONT %d", pid)} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("codeman %s: %q lacks %q", strings.Join(args, " "), err, want)
			}
		}
	}
}
