package daemon

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
	"github.com/codeman-dev/codeman/internal/rig/wait"
)

// parentOf is the parent pid of pid, 0 when it is gone.
func parentOf(pid int) int {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	if len(fields) < 2 || fields[0] == "Z" {
		return 0
	}
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}

// A daemon killed with SIGKILL leaves no control client of its own
// attached to the tmux server: one would stay a client of the session
// for good, and keep a server told to exit from exiting.
func TestDaemon_KilledLeavesNoControlClient(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("skipping: no /proc to read the processes from")
	}
	t.Parallel()
	r := setupRig(t, tmuxtest.NewServer(t), true)
	daemon := r.startProcess()
	addr, _ := r.session("orphan", "hello")
	r.attach(addr)
	var clients []int
	r.waitFor("the daemon's control client", 10*time.Second, func() bool {
		clients = nil
		for _, line := range r.tmux.ClientProcesses() {
			pid, _ := strconv.Atoi(strings.SplitN(line, ":", 2)[0])
			if strings.Contains(line, " -C ") && parentOf(pid) == daemon.Process.Pid {
				clients = append(clients, pid)
			}
		}
		return len(clients) > 0
	})
	daemon.Process.Kill()
	daemon.Wait()
	if err := wait.Until("the control clients to exit", 10*time.Second, func() bool {
		for _, pid := range clients {
			if parentOf(pid) != 0 && syscall.Kill(pid, 0) == nil {
				return false
			}
		}
		return true
	}); err != nil {
		t.Fatalf("%v: %q still run", err, r.tmux.ClientProcesses())
	}
}
