//go:build unix

package notify

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// killGroupOnCancel runs cmd in a process group of its own and makes the
// end of its context kill the whole group, so that whatever the command
// started dies with it.
func killGroupOnCancel(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if errors.Is(err, syscall.ESRCH) {
			return os.ErrProcessDone
		}
		return err
	}
}
