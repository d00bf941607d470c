package notify

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/codeman-dev/codeman/internal/childenv"
)

// Command is the command channel: an argv run without a shell, the
// message's Line as its last argument and the hold in CODEMAN_*
// variables (see the package doc).
type Command struct {
	argv    []string
	timeout time.Duration
	environ func() []string // the environment the command starts from
}

var (
	_ Channel = (*Command)(nil)
	_ Bounded = (*Command)(nil)
)

// Command channel limits.
const (
	// DefaultCommandTimeout bounds one run of the command; its process
	// group is killed then.
	DefaultCommandTimeout = 10 * time.Second
	// maxCommandOutput is how much of the command's output an error
	// quotes.
	maxCommandOutput = 4 << 10
	// waitDelay is how long Wait waits for the output of a command that
	// exited or was killed.
	waitDelay = time.Second
)

// envNames are the variables the command channel sets, in Env's order.
var envNames = []string{"CODEMAN_EVENT", "CODEMAN_PANE", "CODEMAN_TARGET", "CODEMAN_KIND",
	"CODEMAN_REASON", "CODEMAN_SESSION", "CODEMAN_WINDOW", "CODEMAN_CWD"}

// NewCommand returns the channel that runs argv; timeout 0 means
// DefaultCommandTimeout.
func NewCommand(argv []string, timeout time.Duration) (*Command, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, errors.New("make command channel: the program, the command's first element, is empty")
	}
	if timeout <= 0 {
		timeout = DefaultCommandTimeout
	}
	return &Command{argv: slices.Clone(argv), timeout: timeout, environ: os.Environ}, nil
}

// Name is "command" and the program's base name; its arguments may hold
// secrets, so they are not shown.
func (c *Command) Name() string { return "command " + filepath.Base(c.argv[0]) }

// Available says whether the program can be found.
func (c *Command) Available() error {
	_, err := exec.LookPath(c.argv[0])
	return err
}

// Timeout is the command's timeout and the wait for its output after a
// kill, with a margin.
func (c *Command) Timeout() time.Duration { return c.timeout + waitDelay + boundMargin }

// Send runs the command once for m and waits for it, at most the timeout.
func (c *Command) Send(ctx context.Context, m Message) error {
	runCtx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	prog := filepath.Base(c.argv[0])
	cmd := exec.CommandContext(runCtx, c.argv[0], append(slices.Clone(c.argv[1:]), m.Line())...)
	// The daemon's own TMUX, TMUX_PANE, STY and WINDOW would point a tmux
	// or screen command at the pane the daemon was started from.
	cmd.Env = append(childenv.Without(c.environ(), append([]string{"TMUX", "TMUX_PANE", "STY", "WINDOW"}, envNames...)...), Env(m)...)
	var out cappedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	killGroupOnCancel(cmd)
	cmd.WaitDelay = waitDelay // a child left holding the output must not hang Wait
	err := cmd.Run()
	switch {
	case err == nil:
		return nil
	case errors.Is(err, exec.ErrWaitDelay) && cmd.ProcessState != nil && cmd.ProcessState.Success():
		return nil // it exited 0; a child it left behind kept its output open
	case ctx.Err() != nil:
		return fmt.Errorf("run %s: %w", prog, ctx.Err())
	case runCtx.Err() != nil:
		return fmt.Errorf("run %s: killed after %s: %w", prog, c.timeout, runCtx.Err())
	}
	if said := out.firstLine(); said != "" {
		return fmt.Errorf("run %s: %w: %s", prog, err, said)
	}
	return fmt.Errorf("run %s: %w", prog, err)
}

// Env returns the CODEMAN_* variables the command channel sets for m, as
// KEY=VALUE pairs.
func Env(m Message) []string {
	h := m.Hold
	values := []string{string(m.Event), h.Pane, h.Target, h.Kind, h.Reason, h.Session, h.Window, h.Cwd}
	env := make([]string, len(envNames))
	for i, name := range envNames {
		env[i] = name + "=" + oneLine(values[i])
	}
	return env
}

// cappedBuffer keeps the first maxCommandOutput bytes written to it.
type cappedBuffer struct{ b []byte }

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if room := maxCommandOutput - len(c.b); room > 0 {
		c.b = append(c.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// firstLine is the first non-empty line written, for an error: without
// the credentials a program such as curl may print.
func (c *cappedBuffer) firstLine() string {
	for line := range strings.SplitSeq(string(c.b), "\n") {
		if line = oneLine(line); line != "" {
			return scrubCredentials(line)
		}
	}
	return ""
}
