//go:build !linux

package daemon

// foregroundOf cannot tell a terminal's foreground programs without
// /proc: tmux's pane_current_command stands in, and on GNU screen the
// agent's SessionEnd hook still says when it exited.
func foregroundOf(int) []string { return nil }
