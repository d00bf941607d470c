package screen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
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
// DefaultExecTimeout.
type ExecRunner struct{}

// Run implements Runner.
func (ExecRunner) Run(ctx context.Context, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, DefaultExecTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "screen", args...)
	cmd.Env = scrubEnv(os.Environ())
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

// scrubEnv drops STY and WINDOW: with them, a screen command without -S
// acts on the caller's own session. Every command here names its session
// and window instead.
func scrubEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if strings.HasPrefix(kv, "STY=") || strings.HasPrefix(kv, "WINDOW=") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

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
	if err := replyError(w, out); err != nil {
		return fmt.Errorf("screen -X %s: %w", cmd[0], err)
	}
	if msg := strings.TrimSpace(out); msg != "" {
		return fmt.Errorf("screen -X %s in %s: %s", cmd[0], w.Address(), msg)
	}
	return nil
}

// query runs `screen -S session -p window -Q cmd args...` and returns the
// reply. -Q waits for the session to answer, and the session handles
// commands in order, so a query also means that every earlier -X command
// to the session has been carried out.
func query(ctx context.Context, r Runner, w Window, cmd ...string) (string, error) {
	args := []string{"-S", w.Session}
	if w.Window != "" {
		args = append(args, "-p", w.Window)
	}
	out, err := r.Run(ctx, append(append(args, "-Q"), cmd...)...)
	if err != nil {
		return "", err
	}
	if err := replyError(w, out); err != nil {
		return "", fmt.Errorf("screen -Q %s: %w", cmd[0], err)
	}
	if strings.HasPrefix(out, cmd[0]+" command "+msgNotAllowed) || strings.HasPrefix(out, "-X: ") {
		// Too old a screen, or a command it does not know: it says so on
		// stdout and may still exit 0.
		return "", fmt.Errorf("screen -Q %s in session %s: %s", cmd[0], w.Session, strings.TrimSpace(out))
	}
	return out, nil
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
