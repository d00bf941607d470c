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
// adopts every such pane, so kill -9 and a restart lose nothing; a pane it
// cannot adopt stays listed with the reason and is retried when the config
// file changes.
//
// Backends. What differs between tmux and GNU screen goes through the
// backend interface, picked by the address's prefix; a backend knows the
// daemon through host alone (its lifetime, its liveness ticks, the panes
// it controls), and is given its log, paths and environment when it is
// made. A pane's terminal is made once its agent is known, with the send
// timing the agent asks for (paneAgent.timing), and keeps it.
//
// Ownership. A pane has one canonical address (backend.canonical), and
// everything that changes a pane's lifecycle (attach, detach, toggle,
// adoption, the pane going away) runs under that address's lock
// (addrLocks), so one pane never gets two controllers. The daemon writes
// itself into the panes it controls (owner: @codeman-owner for tmux, a
// flock per window for screen) and every key a controller sends first
// checks that record (ownedTerminal): a second daemon, a stale controller
// or a new tmux server behind the same socket is never typed into. One
// daemon runs per user and host: its lock lives in the state dir, not in
// the runtime dir, and names the socket it listens on.
//
// A pane's need for a person (respawn.Need) goes to the event stream, the
// tmux window option @codeman-needs and the notifications (notify, with
// the status line of the pane's session as one more channel). Every event
// is also kept in the pane's history (history), across restarts.
//
// The package imports api, whose wire types its handlers answer with,
// tmux, screen, hooks, config and respawn (and agents/aicheck); nothing
// imports it but cmd/codeman and the tests that drive a daemon. Its
// clients (the CLI's commands, the dashboard, doctor) speak its API
// through package api.
package daemon
