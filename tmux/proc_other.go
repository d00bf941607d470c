//go:build !unix

package tmux

import "os/exec"

// setProcessGroup does nothing where process groups do not exist.
func setProcessGroup(*exec.Cmd) {}

// killProcessGroup kills the client; the error is dropped because the
// process may already be gone, and Wait reports the end.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
