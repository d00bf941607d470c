package api

import (
	"context"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"time"

	"github.com/codeman-dev/codeman/internal/proc"
)

// ProbeTimeout bounds the health probe. A daemon answers it at once,
// adopting or not, so one that has not answered by then is not answering
// at all: stopped (kill -STOP, Ctrl-Z, a debugger) or stuck.
const ProbeTimeout = 3 * time.Second

// NotAnsweringError is a daemon whose socket takes a request but that
// gave no answer in time: the kernel queues connections for a stopped
// process, so only the wait tells. It names the process, from the lock
// file beside the socket, and what to do.
type NotAnsweringError struct {
	PID    int // 0: no lock names the daemon of Socket
	Socket string
	Within time.Duration
	// State is the process's state in /proc/PID/stat: T stopped by a
	// signal, t by a debugger; "" when it cannot be read.
	State string
	Err   error // the request's own error
}

func (e *NotAnsweringError) Error() string {
	return "the codeman daemon does not answer: " + e.Diagnosis() + "; " + e.Fix()
}

func (e *NotAnsweringError) Unwrap() error { return e.Err }

// Diagnosis says what is wrong: who did not answer, and why when /proc
// tells.
func (e *NotAnsweringError) Diagnosis() string {
	within := e.Within.Round(100 * time.Millisecond)
	if e.PID == 0 {
		return fmt.Sprintf("no answer on %s within %s", e.Socket, within)
	}
	msg := fmt.Sprintf("pid %d gave no answer on %s within %s", e.PID, e.Socket, within)
	switch e.State {
	case "":
		return msg
	case "T":
		return fmt.Sprintf("%s: it is stopped (state T in /proc/%d/stat)", msg, e.PID)
	case "t":
		return fmt.Sprintf("%s: a debugger holds it stopped (state t in /proc/%d/stat)", msg, e.PID)
	}
	return fmt.Sprintf("%s: it runs (state %s in /proc/%d/stat) but does not answer", msg, e.State, e.PID)
}

// Fix says what to do about it.
func (e *NotAnsweringError) Fix() string {
	const start = "then codeman daemon (enabled panes are adopted again)"
	switch {
	case e.PID == 0:
		return "stop the codeman daemon process and run codeman daemon"
	case e.State == "T":
		return fmt.Sprintf("resume it: kill -CONT %d; or restart it: kill -KILL %d, %s", e.PID, e.PID, start)
	case e.State == "t":
		return fmt.Sprintf("let the debugger continue it, or restart it: kill -KILL %d, %s", e.PID, start)
	case e.State == "":
		return fmt.Sprintf("if it was stopped (kill -STOP, Ctrl-Z), resume it: kill -CONT %d; else restart it: kill %d, %s", e.PID, e.PID, start)
	}
	return fmt.Sprintf("restart it: kill %d, %s", e.PID, start)
}

// Stopped reports whether the process is stopped, so that resuming it is
// the whole fix.
func (e *NotAnsweringError) Stopped() bool { return e.State == "T" || e.State == "t" }

// timedOut reports whether err is a request that ran out of time, rather
// than one refused or cancelled.
func timedOut(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

// notAnswering turns a request's timeout into a NotAnsweringError that
// names the daemon of socket and its state; other errors are returned as
// they are.
func notAnswering(err error, socket string, within time.Duration) error {
	if !timedOut(err) {
		return err
	}
	e := &NotAnsweringError{Socket: socket, Within: within, Err: err}
	if info, ok := FindRunning(lockBeside(socket)); ok && info.Socket == socket {
		e.PID = info.PID
		e.State = proc.State(info.PID)
	}
	return e
}

// lockBeside is the lock of the daemon that listens on socket: the
// runtime dir's, beside it (DefaultPaths).
func lockBeside(socket string) string {
	return filepath.Join(filepath.Dir(socket), "daemon.lock")
}
