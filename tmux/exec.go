package tmux

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/GianlucaP106/gotmux/gotmux"

	"github.com/codeman-dev/codeman/internal/childenv"
)

// DefaultExecTimeout bounds every tmux command run as a process, so that a
// wedged server never hangs a caller. 5s.
const DefaultExecTimeout = 5 * time.Second

// Sentinel errors callers branch on.
var (
	// ErrNotInstalled: there is no tmux binary on PATH.
	ErrNotInstalled = errors.New("tmux is not installed")
	// ErrNoServer: no tmux server listens on the socket.
	ErrNoServer = errors.New("no tmux server running")
	// ErrNoPane: the target names no pane.
	ErrNoPane = errors.New("no such pane")
)

// Installed reports whether a tmux binary is on PATH.
func Installed() bool { return gotmux.IsInstalled() }

// Run runs one tmux command on s, given as its words (no tmux quoting
// needed: every word reaches the command as is), and returns what it
// printed. It implements Runner.
func (s Server) Run(ctx context.Context, args ...string) (string, error) {
	return s.exec(ctx, nil, argvWords(args)...)
}

// exec runs tmux with raw argv words: a word ";" separates commands, and
// callers protect literal words with argvWord. stdin may be nil.
func (s Server) exec(ctx context.Context, stdin io.Reader, argv ...string) (string, error) {
	switch {
	case s.Socket == "":
		// An empty socket would silently mean the default server.
		return "", fmt.Errorf("run tmux %s: no server socket given", firstWord(argv))
	case len(argv) == 0 || argv[0] == "":
		// A bare tmux runs new-session.
		return "", fmt.Errorf("run tmux on %s: no command given", s.Socket)
	}
	ctx, cancel := context.WithTimeout(ctx, DefaultExecTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "tmux", s.globalArgs(argv)...)
	cmd.Env = tmuxEnv()
	cmd.Stdin = stdin
	cmd.WaitDelay = time.Second // a child holding the pipes must not hang Wait
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), s.execError(ctx, argv, err, stderr.String())
	}
	return stdout.String(), nil
}

// globalArgs puts the flags every invocation needs in front of argv.
func (s Server) globalArgs(argv []string) []string {
	// -u: without a UTF-8 locale tmux turns non-ASCII in command output
	// (show-options, display-message) into '_'; the daemon may run with
	// LANG=C.
	return append([]string{"-u", "-S", s.Socket}, argv...)
}

// execError turns a failed tmux run into an error that says which command
// failed and why, wrapping the sentinels callers branch on.
func (s Server) execError(ctx context.Context, argv []string, err error, stderr string) error {
	msg := strings.TrimSpace(stderr)
	name := firstWord(argv)
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return fmt.Errorf("run tmux %s: %w", name, ErrNotInstalled)
	case ctx.Err() != nil:
		return fmt.Errorf("run tmux %s on %s: %w", name, s.Socket, ctx.Err())
	case isNoServer(msg):
		return fmt.Errorf("run tmux %s: %w on %s", name, ErrNoServer, s.Socket)
	case msg == "":
		return fmt.Errorf("run tmux %s on %s: %w", name, s.Socket, err)
	}
	return &CommandError{Command: name, Socket: s.Socket, Message: msg}
}

// CommandError is a command that tmux ran and rejected.
type CommandError struct {
	Command string // the tmux command, e.g. "send-keys"
	Socket  string
	Message string // what tmux printed, e.g. "can't find pane: %99"
}

func (e *CommandError) Error() string {
	return fmt.Sprintf("tmux %s on %s: %s", e.Command, e.Socket, e.Message)
}

// Is lets errors.Is(err, ErrNoPane) match tmux's ways of saying a target
// does not exist: "can't find pane: %9" from most commands, "no such pane:
// %9" from set-option and show-options.
func (e *CommandError) Is(target error) bool {
	if target != ErrNoPane {
		return false
	}
	for _, prefix := range []string{"can't find ", "no such pane", "no such window", "no such session"} {
		if strings.HasPrefix(e.Message, prefix) {
			return true
		}
	}
	return false
}

// isNoServer recognises tmux's ways of saying nothing listens on the socket.
func isNoServer(msg string) bool {
	return strings.HasPrefix(msg, "no server running on ") ||
		strings.HasPrefix(msg, "error connecting to ") ||
		strings.Contains(msg, "server exited unexpectedly")
}

// tmuxEnv is the environment of every tmux command: codeman's own without
// TMUX and TMUX_PANE. With them, tmux commands without an explicit target
// act on the caller's own session and a nested attach is refused. Every
// command here names its socket and target instead.
func tmuxEnv() []string { return childenv.Without(os.Environ(), "TMUX", "TMUX_PANE") }

func firstWord(argv []string) string {
	if len(argv) == 0 {
		return "(none)"
	}
	return argv[0]
}
