package daemon

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/codeman-dev/codeman/internal/proc"
	"github.com/codeman-dev/codeman/respawn"
	"github.com/codeman-dev/codeman/tmux"
)

// shells are the programs a pane runs between agents. Keys typed into one
// run as commands, so nothing is ever typed while one is the pane's
// foreground program, whatever its screen shows (a cat of a saved capture
// looks just like the agent).
var shells = []string{
	"sh", "bash", "zsh", "fish", "dash", "ksh", "mksh", "oksh", "pdksh", "tcsh", "csh", "ash",
	"busybox", "nu", "elvish", "xonsh", "pwsh", "rc", "es", "yash", "ion",
}

// runtimes are the programs an agent's CLI may run as when installed as
// a script (Codex and older Claude Code from npm run as node). Only these
// are learned as a pane's agent program from its screen: a pager or an
// editor showing an agent's screen is never the agent.
var runtimes = []string{"node", "nodejs", "bun", "deno"}

func isRuntime(command string) bool { return slices.Contains(runtimes, programName(command)) }

// programName is a process name as a pane reports it, without a login
// shell's leading "-" or a path.
func programName(command string) string {
	return filepath.Base(strings.TrimPrefix(strings.TrimSpace(command), "-"))
}

// isShell reports whether command names a shell.
func isShell(command string) bool {
	return slices.Contains(shells, programName(command))
}

// runsAgent reports whether command is the pane's agent: its CLI's
// program name, or the program it was recognized in when attached (Codex
// from npm runs as node).
func (a paneAgent) runsAgent(command string) bool {
	name := programName(command)
	return slices.Contains(a.info.Programs, name) || name != "" && name == a.program
}

// typesInto returns nil when keys may go to a pane whose foreground
// process group runs programs (its leader first; none when that cannot be
// known, as on a system without /proc), else why not, wrapping
// respawn.ErrNotAgent. The agent anywhere in the group will do: a wrapper
// script that runs it leads the group.
func (a paneAgent) typesInto(programs []string) error {
	if len(programs) == 0 || slices.ContainsFunc(programs, a.runsAgent) {
		return nil
	}
	if leader := programs[0]; isShell(leader) && len(programs) == 1 {
		return fmt.Errorf("%w: the pane runs %s, a shell; nothing is typed into a shell", respawn.ErrNotAgent, programName(leader))
	}
	return fmt.Errorf("%w: the pane runs %s, not %s", respawn.ErrNotAgent, strings.Join(names(programs), ", "), a.info.Label)
}

func names(programs []string) []string {
	out := make([]string, 0, len(programs))
	for _, p := range programs {
		if n := programName(p); !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// foreground reads the programs of the pane's foreground process group
// now: from /proc where there is one, else the pane_current_command tmux
// reads over the session's control connection.
func (p *tmuxPane) foreground(ctx context.Context) ([]string, error) {
	if programs := proc.Foreground(p.info.PID); len(programs) > 0 {
		return programs, nil
	}
	f, err := tmux.ReadFields(ctx, p.client, p.info.ID, "#{pane_current_command}")
	if err != nil || f[0] == "" {
		return nil, err
	}
	return f, nil
}

// foreground reads the programs of the foreground process group of the
// window's terminal, where the system tells (/proc), else none.
func (p *screenPane) foreground(context.Context) ([]string, error) {
	if p.proc == nil {
		return nil, nil
	}
	return proc.Foreground(p.proc.PID), nil
}
