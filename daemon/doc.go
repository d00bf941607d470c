// Package daemon hosts codeman's pane controllers: one process per user
// that keeps a respawn.Controller for every enabled tmux pane and GNU
// screen window, feeds them output, hook signals and AI checks, and
// answers the CLI over an HTTP+JSON API on a unix socket in a private
// runtime directory.
//
// Event flow:
//
//	tmux -C (one per session) ──%output──┐
//	screen hardcopy poller ──changes─────┼──> Controller (one per pane) ──keys──> tmux send-keys / screen paste
//	hook markers (fsnotify) ──signals────┘          │ decisions
//	                                                 └──> event hub ──> GET /v1/events (status --watch), daemon.log
//
// State that must survive the daemon lives with the panes: the tmux pane
// option @codeman (the profile) and @codeman-set (--set values), and for
// screen a state file under $XDG_STATE_HOME/codeman. A daemon that starts
// adopts every such pane, so kill -9 and a restart lose nothing.
//
// The package imports tmux, screen, hooks and respawn; nothing imports it
// but cmd/codeman.
package daemon
