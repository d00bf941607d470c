package claudetest

import "os"

// PaneTERM is the TERM Claude runs with inside the pane.
const PaneTERM = "tmux-256color"

// serverConf replaces the user's tmux config for the private server
// (tmuxtest's default is none at all).
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
