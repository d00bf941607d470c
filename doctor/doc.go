// Package doctor is `codeman doctor`: it checks a user's setup (the
// programs codeman drives and their versions, the hooks of Claude Code and
// Codex, codeman's dirs, the config and the AI check, the daemon and every
// enabled pane) and says of each check what it found and what to do.
// Every look at the machine goes through a function field of Doctor, so
// that each verdict is tested without the machine.
//
// It talks to a running daemon through package api (its health and its
// panes) and never links the daemon: the panes a daemon would adopt when
// none runs come from its caller (daemon.EnabledPanes).
package doctor
