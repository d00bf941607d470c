package daemon

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/internal/proc"
	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
	"github.com/codeman-dev/codeman/internal/rig/wait"
)

// A daemon stopped with kill -STOP: every command's health probe gives up
// within a few seconds, not the 30 of a request, and says which process
// is stopped and how to continue it.
func TestConnect_StoppedDaemon(t *testing.T) {
	r := setupRig(t, tmuxtest.NewServer(t), true)
	cmd := r.startProcess()
	pid := cmd.Process.Pid
	t.Cleanup(func() {
		syscall.Kill(pid, syscall.SIGCONT)
		cmd.Process.Kill()
		cmd.Wait()
	})
	stop(t, pid)

	start := time.Now()
	_, err := api.Connect(context.Background(), r.paths, "")
	took := time.Since(start)
	if took > api.ProbeTimeout+2*time.Second {
		t.Errorf("the probe of a stopped daemon took %s, want about %s", took, api.ProbeTimeout)
	}
	var na *api.NotAnsweringError
	if !errors.As(err, &na) || na.PID != pid {
		t.Fatalf("connect to a stopped daemon: %v, want a *NotAnsweringError naming pid %d", err, pid)
	}
	want := []string{fmt.Sprintf("pid %d", pid), r.paths.Socket, "within 3s", "kill -CONT " + fmt.Sprint(pid)}
	if runtime.GOOS == "linux" {
		want = append(want, "it is stopped (state T")
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}

	// Continued, it answers again.
	syscall.Kill(pid, syscall.SIGCONT)
	if _, err := api.Connect(context.Background(), r.paths, ""); err != nil {
		t.Fatalf("connect after SIGCONT: %v", err)
	}
}

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
