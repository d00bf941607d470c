//go:build !unix

package tmux

import (
	"os"
	"os/exec"
)

// setProcessGroup does nothing where process groups do not exist.
func setProcessGroup(*exec.Cmd) {}

// outputPipe returns a pipe for a control client's output.
func outputPipe() (r, w *os.File, err error) { return os.Pipe() }
