// Package childenv shapes the environment of the programs codeman and its
// tests start. A variable such as TMUX, TMUX_PANE, STY or WINDOW inherited
// from the caller's own pane makes tmux or screen act on that pane instead
// of the one named, so every place that starts tmux, screen or a simulated
// session drops them with Without.
//
// It imports nothing of codeman, so that tmux, screen, daemon and the test
// helpers (internal/rig/tmuxtest, which package tmux's own tests use) can
// all import it.
package childenv

import (
	"slices"
	"strings"
)

// Without returns a copy of env, a list of KEY=VALUE pairs as os.Environ
// gives it, without the variables named.
func Without(env []string, names ...string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(names, name) {
			out = append(out, kv)
		}
	}
	return out
}
