//go:build unix

package tmux

import (
	"os"
	"os/exec"
	"syscall"
)

// setProcessGroup puts the control client in its own process group, so
// that a signal to the daemon's group (Ctrl+C in a terminal) does not
// detach it behind the daemon's back, and has it end with the daemon
// where the system can (setDeathSignal).
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setDeathSignal(cmd.SysProcAttr)
}

// outputPipe returns a pipe for a control client's output whose read end
// is a plain blocking descriptor, outside Go's poller. The poller's epoll
// registration is edge-triggered, and Linux wakes it on every write to a
// pipe whether or not anyone reads: a paced reader on a pollable pipe would
// still wake the process once per %output line. A blocking read parks only
// its own thread, and only while the stream is quiet.
//
// The pipe is grown to 1 MiB where Linux allows: the default 64 KiB holds
// only 16 writes (a page each), which a flood fills between two paced
// reads, leaving tmux waiting to write.
func outputPipe() (r, w *os.File, err error) {
	var fds [2]int
	// Close-on-exec before any other goroutine can fork: a write end
	// leaked into another child would keep the stream from ever ending.
	syscall.ForkLock.RLock()
	err = syscall.Pipe(fds[:])
	if err == nil {
		syscall.CloseOnExec(fds[0])
		syscall.CloseOnExec(fds[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, nil, os.NewSyscallError("pipe", err)
	}
	// The client's end stays non-blocking, as os.Pipe would leave it: a
	// tmux client blocked in a write to its stdout stops relaying, and was
	// seen to stop for good once its reader had fallen behind.
	growPipe(fds[0])
	if err := syscall.SetNonblock(fds[1], true); err != nil {
		syscall.Close(fds[0])
		syscall.Close(fds[1])
		return nil, nil, os.NewSyscallError("fcntl", err)
	}
	return os.NewFile(uintptr(fds[0]), "|0"), os.NewFile(uintptr(fds[1]), "|1"), nil
}
