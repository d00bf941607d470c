//go:build unix && !linux

package tmux

import "syscall"

// setDeathSignal does nothing where the system has no parent-death
// signal: a control client of a daemon killed with SIGKILL stays until
// its server ends it.
func setDeathSignal(*syscall.SysProcAttr) {}
