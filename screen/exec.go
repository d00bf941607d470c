package screen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/codeman-dev/codeman/internal/childenv"
)

// DefaultExecTimeout bounds every screen process, so that a wedged
// session never hangs a caller. 5s.
const DefaultExecTimeout = 5 * time.Second

// Sentinel errors callers branch on.
var (
	// ErrNotInstalled: there is no screen binary on PATH.
	ErrNotInstalled = errors.New("GNU screen is not installed")
	// ErrNoSession: no live session has that name.
	ErrNoSession = errors.New("no such screen session")
	// ErrNoWindow: the session has no window with that number.
	ErrNoWindow = errors.New("no such screen window")
)

// Runner runs one screen command line, given as the words after
// "screen", and returns what screen printed on stdout and stderr. It
// returns an error only when screen could not run or did not finish in
// time: screen's exit status says little (-X with an unknown command
// exits 0, -ls exits 1 when it lists nothing), so callers read the
// output instead.
type Runner interface {
	Run(ctx context.Context, args ...string) (string, error)
}

// ExecRunner runs the screen binary on PATH, each run bounded by
// DefaultExecTimeout. A -Q to a session waits until no other -Q or -X to
// it runs, and a -X until no -Q does, in every process of the user that
// runs screen through an ExecRunner (see lockSession).
type ExecRunner struct{}

// Run implements Runner.
func (ExecRunner) Run(ctx context.Context, args ...string) (string, error) {
	if session, exclusive, ok := lockedCommand(args); ok {
		release, err := lockSession(ctx, session, exclusive)
		if err != nil {
			return "", fmt.Errorf("run screen %s: %w", strings.Join(args, " "), err)
		}
		defer release()
	}
	ctx, cancel := context.WithTimeout(ctx, DefaultExecTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "screen", args...)
	cmd.Env = screenEnv()
	cmd.WaitDelay = time.Second // a child holding the pipes must not hang Wait
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var exitErr *exec.ExitError
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return "", fmt.Errorf("run screen %s: %w", firstWord(args), ErrNotInstalled)
	case ctx.Err() != nil:
		return out.String(), fmt.Errorf("run screen %s: %w", strings.Join(args, " "), ctx.Err())
	case err != nil && !errors.As(err, &exitErr):
		return out.String(), fmt.Errorf("run screen %s: %w", firstWord(args), err)
	}
	return out.String(), nil
}

// lockedCommand returns the lock key (lockKey) of the session a -Q or -X
// command line names, and whether it is a -Q, which needs the session to
// itself.
func lockedCommand(args []string) (session string, exclusive, ok bool) {
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-S":
			if i+1 < len(args) {
				session = args[i+1]
				i++
			}
		case "-Q", "-X":
			return lockKey(session), args[i] == "-Q", session != ""
		}
	}
	return "", false, false
}

// lockKey names a session's lock: its PID when the name starts with one,
// since no two live sessions share a PID and every spelling of the name
// ("12345.work", "012345.work", a name changed with `sessionname`) starts
// with it; else the name as given.
func lockKey(session string) string {
	pid, _, ok := strings.Cut(session, ".")
	if !ok || !isNumber(pid) {
		return session
	}
	n, _ := strconv.Atoi(pid)
	return strconv.Itoa(n)
}

// screenEnv is the environment of every screen command: codeman's own
// without STY and WINDOW. With them, a screen command without -S acts on
// the caller's own session. Every command here names its session and
// window instead.
func screenEnv() []string { return childenv.Without(os.Environ(), "STY", "WINDOW") }

func firstWord(args []string) string {
	if len(args) == 0 {
		return "(none)"
	}
	return args[0]
}

// What screen prints when a -X or -Q command cannot reach its target.
const (
	msgNoSession  = "No screen session found."
	msgNoWindow   = "Could not find pre-select window."
	msgAmbiguous  = "There are several suitable screens on:"
	msgNotAllowed = "cannot be queried"
	// Printed before the reply when a socket named like the session does
	// not answer: one a killed query left behind, or one a query is just
	// setting up.
	msgDeadScreens = "Remove dead screens with 'screen -wipe'."
)

// send runs `screen -S session -p window -X cmd args...`. screen answers
// a -X command with nothing at all when it was handed over; any output is
// an error message (the command itself may still fail silently inside
// the session).
func send(ctx context.Context, r Runner, w Window, cmd ...string) error {
	args := append([]string{"-S", w.Session, "-p", w.Window, "-X"}, cmd...)
	out, err := r.Run(ctx, args...)
	if err != nil {
		return err
	}
	out = stripDeadNotice(out)
	if err := replyError(w, out); err != nil {
		return fmt.Errorf("screen -X %s: %w", cmd[0], err)
	}
	if msg := strings.TrimSpace(out); msg != "" {
		return fmt.Errorf("screen -X %s in %s: %s", cmd[0], w.Address(), msg)
	}
	return nil
}

// stripDeadNotice drops msgDeadScreens from the start of out: the
// command still reached the live session.
func stripDeadNotice(out string) string {
	stripped := false
	for {
		rest, ok := strings.CutPrefix(strings.TrimLeft(out, "\r\n"), msgDeadScreens)
		if !ok {
			break
		}
		out, stripped = rest, true
	}
	if stripped {
		return strings.TrimLeft(out, "\r\n")
	}
	return out
}

// replyError recognises screen's ways of saying that the session or the
// window is not there. The messages are matched where screen puts them,
// so that a window title quoting one is not taken for it.
func replyError(w Window, out string) error {
	reply := strings.TrimSpace(out)
	switch {
	case strings.HasSuffix(reply, msgNoSession):
		// A dead session is listed before the message.
		return &TargetError{Window: w, Err: ErrNoSession}
	case reply == msgNoWindow:
		return &TargetError{Window: w, Err: ErrNoWindow}
	case strings.HasPrefix(reply, msgAmbiguous):
		return fmt.Errorf("session %s names several sessions", w.Session)
	}
	return nil
}

// TargetError says that a window or its session is gone.
type TargetError struct {
	Window Window
	Err    error // ErrNoSession or ErrNoWindow
}

func (e *TargetError) Error() string {
	if errors.Is(e.Err, ErrNoSession) {
		return fmt.Sprintf("%v: %s", e.Err, e.Window.Session)
	}
	return fmt.Sprintf("%v: %s", e.Err, e.Window.Address())
}

func (e *TargetError) Unwrap() error { return e.Err }
