// Package api is the daemon's API as its clients see it: the wire types
// of the HTTP+JSON API the daemon answers on its unix socket (attach and
// pause requests, pane statuses, the event stream, recordings, health),
// the Client that speaks it with a deadline on every request, and what a
// client needs to find the daemon: the user's Paths (socket, locks, log,
// state dir), the lock file that names the socket a running daemon listens
// on (FindRunning), starting one detached (Connect), and the words for a
// daemon that takes a request but gives no answer (NotAnsweringError).
// Age and ServerLabels show its values to a person as status, explain and
// the dashboard do.
//
// It imports respawn, whose Status and Decision travel in its types,
// notify, whose channels' status Health carries, hooks/spool for the
// runtime dir, and internal/proc to tell a stopped daemon from a stuck
// one. It never imports daemon, which serves it: the dashboard and doctor
// are clients that link no daemon.
package api
