package tmux

import "syscall"

// setDeathSignal has the control client get SIGTERM when the daemon dies,
// however it dies (kill -9 too). Otherwise it stays attached for good: it
// ignores the broken pipe its output then goes to, stays a client of the
// session, and keeps a server told to exit from exiting, since a tmux
// server waits for its clients to go.
func setDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGTERM }
