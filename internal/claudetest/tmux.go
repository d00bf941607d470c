package claudetest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"time"
)

// tmuxTimeout bounds every tmux command.
const tmuxTimeout = 10 * time.Second

// Pane size of every session, as the reference screens were taken.
const (
	Width  = 200
	Height = 50
)

// PaneTERM is the TERM Claude runs with inside the pane.
const PaneTERM = "tmux-256color"

// serverConf replaces the user's tmux config for the private server.
const serverConf = `# claudetest: a private tmux server for the Claude Code CLI.
# No status line: the pane is the whole 200x50 window.
set -g status off
# Without focus events Claude prints a "tmux focus-events off" hint above its prompt box.
set -g focus-events on
# Claude's 256-colour palette, as in the reference screens.
set -g default-terminal ` + PaneTERM + `
# Keep the last screen when claude exits, for the failure dump.
set -g remain-on-exit on
`

// serverSeq numbers the private servers of this process.
var serverSeq atomic.Int64

// tmuxServer is a private tmux server: its own short -L name, a config of
// its own instead of the user's, and a minimal environment, so neither the
// developer's server nor their TMUX, TMUX_PANE or CLAUDECODE leak in.
type tmuxServer struct {
	bin  string
	name string
	conf string
	env  []string
}

// newTmuxServer prepares (but does not start) a server whose config file
// goes to conf and whose panes get env.
func newTmuxServer(bin, conf string, env []string) (*tmuxServer, error) {
	if err := os.WriteFile(conf, []byte(serverConf), 0o600); err != nil {
		return nil, fmt.Errorf("write tmux config: %w", err)
	}
	name := fmt.Sprintf("cct%d-%d", os.Getpid(), serverSeq.Add(1))
	return &tmuxServer{bin: bin, name: name, conf: conf, env: env}, nil
}

// run runs one tmux command against the server and returns its stdout.
func (s *tmuxServer) run(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), tmuxTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.bin, append([]string{"-L", s.name, "-f", s.conf}, args...)...)
	cmd.Env = s.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("tmux %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// serverEnv is the whole environment of the tmux server and so of every
// pane: a throwaway HOME and TMPDIR (Claude keeps task output under
// $TMPDIR/claude-<uid>), a UTF-8 locale, UTC for the completion line's
// clock, and PATH for the shell commands Claude runs.
func serverEnv(home, tmp string) []string {
	env := []string{
		"HOME=" + home,
		"TMPDIR=" + tmp,
		"PATH=" + os.Getenv("PATH"),
		"LANG=C.UTF-8",
		"TZ=UTC",
		"SHELL=" + loginShell(),
	}
	for _, k := range []string{"USER", "LOGNAME"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// loginShell is the SHELL of the panes: bash as in the reference, else sh.
func loginShell() string {
	if isExecutable("/bin/bash") {
		return "/bin/bash"
	}
	return "/bin/sh"
}
