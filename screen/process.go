package screen

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrWindowReplaced: the window's number now belongs to another program.
var ErrWindowReplaced = errors.New("screen window replaced")

// Process identifies the program a window runs: screen reuses window
// numbers, so a number alone cannot tell a closed window from a new one.
type Process struct {
	PID   int    `json:"pid"`
	Start uint64 `json:"start"` // start time since boot, in clock ticks: PIDs are reused too
}

func (p Process) String() string { return "pid " + strconv.Itoa(p.PID) }

// WindowProcess finds the process screen started for w: the child of the
// session's screen process whose environment has WINDOW set to w's number.
// ok is false where that cannot be known (not Linux, a session named
// without its PID, a program that cleared its environment).
func WindowProcess(w Window) (p Process, ok bool) {
	server, err := strconv.Atoi(strings.SplitN(w.Session, ".", 2)[0])
	if err != nil || server <= 0 {
		return Process{}, false
	}
	return windowProcess(server, w.Window)
}

// ReplacedError says which program took over a window's number.
type ReplacedError struct {
	Window   Window
	Was, Now Process
}

func (e *ReplacedError) Error() string {
	return fmt.Sprintf("window %s now runs another program (%s, was %s)", e.Window.Address(), e.Now, e.Was)
}

func (e *ReplacedError) Unwrap() error { return ErrWindowReplaced }

// ExitedError says the program a window ran when it was enabled has
// exited: the window enabled is gone, whatever may run under its number
// now. It wraps ErrNoWindow.
type ExitedError struct {
	Window Window
	Was    Process
}

func (e *ExitedError) Error() string {
	return fmt.Sprintf("window %s is gone: its program (%s) exited", e.Window.Address(), e.Was)
}

func (e *ExitedError) Unwrap() error { return ErrNoWindow }

// StillRuns checks that w is still the window that ran was: it returns a
// *ReplacedError when w's number runs another program, an *ExitedError
// when was has exited and nothing identifiable runs under the number, and
// nil when w runs was or the system cannot tell.
func StillRuns(w Window, was Process) error {
	if now, ok := WindowProcess(w); ok {
		if now == was {
			return nil
		}
		return &ReplacedError{Window: w, Was: was, Now: now}
	}
	if exited(was) {
		return &ExitedError{Window: w, Was: was}
	}
	return nil // e.g. the program is between fork and exec, its environment unreadable
}

// ProcessStart returns when pid started, in clock ticks since boot, where
// the system tells (Linux). A pid and its start time name one process for
// good: pids are reused, the pair is not.
func ProcessStart(pid int) (uint64, bool) { return startTime(pid) }
