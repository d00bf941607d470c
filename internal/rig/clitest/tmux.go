package clitest

import "os"

// PaneTERM is the TERM the CLI runs with inside the pane.
const PaneTERM = "tmux-256color"

// serverConf replaces the user's tmux config for the private server
// (tmuxtest's default is none at all).
const serverConf = `# clitest: a private tmux server for a CLI under test.
# No status line: the pane is the whole 200x50 window.
set -g status off
# Without focus events Claude Code prints a "tmux focus-events off" hint above its prompt box.
set -g focus-events on
# A 256-colour palette, as in a person's terminal.
set -g default-terminal ` + PaneTERM + `
# Keep the last screen when the CLI exits, for the failure dump and the exit screen.
set -g remain-on-exit on
`

// serverEnv is the whole environment of the tmux server and so of every
// pane: a throwaway HOME and TMPDIR (Claude Code keeps task output under
// $TMPDIR/claude-<uid>), a UTF-8 locale, UTC for the clock times the CLIs
// print, and PATH for the commands they run.
func serverEnv(home, tmp string) []string {
	env := []string{
		"HOME=" + home,
		"TMPDIR=" + tmp,
		"PATH=" + os.Getenv("PATH"),
		"LANG=C.UTF-8",
		"TZ=UTC",
		"SHELL=" + loginShell(),
	}
	// SCREENDIR: where the screen sessions of Launch.Screen live.
	for _, k := range []string{"USER", "LOGNAME", "SCREENDIR"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// loginShell is the SHELL of the panes: bash, else sh.
func loginShell() string {
	if isExecutable("/bin/bash") {
		return "/bin/bash"
	}
	return "/bin/sh"
}
