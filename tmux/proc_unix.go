//go:build unix

package tmux

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the control client in its own process group, so
// that a signal to the daemon's group (Ctrl+C in a terminal) does not
// detach it behind the daemon's back.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
