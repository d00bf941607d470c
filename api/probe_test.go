package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/proc"
	"github.com/codeman-dev/codeman/internal/rig/wait"
)

// stop stops process pid with SIGSTOP and waits until it is stopped.
func stop(t *testing.T, pid int) {
	t.Helper()
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "linux" {
		return // the signal is delivered before kill returns for another process soon enough
	}
	wait.For(t, fmt.Sprintf("pid %d to stop", pid), 5*time.Second, func() bool { return proc.State(pid) == "T" })
}

// A socket that takes requests and never answers, with the lock beside
// it naming a process in each state: the error says what it can tell.
func TestHealth_NotAnswering(t *testing.T) {
	dir := t.TempDir()
	socket := filepath.Join(dir, "daemon.sock")
	ln, err := net.Listen("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		var held []net.Conn // read nothing, answer nothing
		for {
			c, err := ln.Accept()
			if err != nil {
				for _, c := range held {
					c.Close()
				}
				return
			}
			held = append(held, c)
		}
	}()
	sleeper := func() int {
		cmd := exec.Command("sleep", "600")
		if err := cmd.Start(); err != nil {
			t.Skipf("start sleep: %v; this test needs the sleep program", err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd.Process.Pid
	}
	running := sleeper()
	stopped := sleeper()
	stop(t, stopped)
	lock := func(pid int) {
		b, _ := json.Marshal(LockInfo{PID: pid, Socket: socket})
		if err := os.WriteFile(filepath.Join(dir, "daemon.lock"), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}

	cases := []struct {
		name string
		pid  int // 0: no lock
		want []string
	}{
		{"no lock", 0, []string{"no answer on " + socket + " within 200ms", "stop the codeman daemon process and run codeman daemon"}},
		{"running", running, []string{fmt.Sprintf("pid %d gave no answer on %s within 200ms", running, socket),
			fmt.Sprintf("it runs (state S in /proc/%d/stat) but does not answer", running), fmt.Sprintf("restart it: kill %d, then codeman daemon", running)}},
		{"stopped", stopped, []string{fmt.Sprintf("pid %d gave no answer", stopped), fmt.Sprintf("it is stopped (state T in /proc/%d/stat)", stopped),
			fmt.Sprintf("resume it: kill -CONT %d; or restart it: kill -KILL %d", stopped, stopped)}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.pid != 0 && runtime.GOOS != "linux" {
				t.Skip("the state of a process is read from /proc, which only Linux has")
			}
			os.Remove(filepath.Join(dir, "daemon.lock"))
			if tc.pid != 0 {
				lock(tc.pid)
			}
			c := NewClient(socket)
			c.probe = 200 * time.Millisecond
			_, err := c.Health(context.Background())
			var na *NotAnsweringError
			if !errors.As(err, &na) || na.PID != tc.pid {
				t.Fatalf("health: %v, want a *NotAnsweringError naming pid %d", err, tc.pid)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// The health probe gives up by itself, with a caller's deadline much
// later or none.
func TestHealth_ProbeTimeout(t *testing.T) {
	if got := NewClient("/nonexistent").probe; got != ProbeTimeout || ProbeTimeout > 5*time.Second {
		t.Fatalf("the health probe waits %s, want a few seconds", got)
	}
}
