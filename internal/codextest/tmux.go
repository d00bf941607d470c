package codextest

import "os"

// PaneTERM is the TERM Codex runs with inside the pane.
const PaneTERM = "tmux-256color"

// serverConf replaces the user's tmux config for the private server
// (tmuxtest's default is none at all).
const serverConf = `# codextest: a private tmux server for the Codex CLI.
# No status line: the pane is the whole 200x50 window.
set -g status off
set -g focus-events on
set -g default-terminal ` + PaneTERM + `
# Keep the last screen when codex exits, for the failure dump and the exit screen.
set -g remain-on-exit on
`

// serverEnv is the whole environment of the tmux server and so of every
// pane: a throwaway HOME and TMPDIR, a UTF-8 locale, UTC for the clock
// times Codex prints, and PATH for the commands Codex runs.
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

// loginShell is the SHELL of the panes: bash, else sh.
func loginShell() string {
	if isExecutable("/bin/bash") {
		return "/bin/bash"
	}
	return "/bin/sh"
}
