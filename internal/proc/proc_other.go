//go:build !linux

package proc

// Foreground cannot tell a terminal's foreground programs without /proc:
// tmux's pane_current_command stands in, and on GNU screen the agent's
// SessionEnd hook still says when it exited.
func Foreground(int) []string { return nil }

// State cannot tell a process's state without /proc: the error of a
// daemon that does not answer then names both what a stopped daemon and a
// stuck one need.
func State(int) string { return "" }
