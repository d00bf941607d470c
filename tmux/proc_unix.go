//go:build unix

package tmux

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the control client in its own process group, so
// that killing it cannot miss a child and a signal to the daemon's group
// (Ctrl+C in a terminal) does not detach it behind the daemon's back.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcessGroup kills the client and anything it started. The error is
// dropped: the group may already be gone, and Wait reports the end.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
