// Package spool is the marker protocol between the hooks of Claude Code
// (and of the OpenAI Codex CLI, whose events share it, and of the GitHub
// Copilot CLI, whose events codeman's hook entries name on the command
// line, and of OpenCode, whose events codeman's plugin forwards the same
// way) and codeman's daemon. It owns:
//
//   - the hook handler (Handle): Claude Code runs it for every hook event
//     with the event's JSON on stdin; it finds its pane from the
//     environment and drops one small marker file into the spool dir;
//   - what the handler and the daemon's watcher share: the marker format
//     and names, the signal each event makes (Kind), the private runtime
//     and spool dirs, and the pruning that bounds the spool.
//
// Package hooks builds on it: its watcher reads the markers and turns
// each Kind into the controller's respawn.Hook.
//
//	claude ──stdin JSON──▶ codeman-hook (Handle) ──marker file──▶ <runtime dir>/spool
//
// # Start-up cost
//
// Claude Code waits for the handler on every hook event, PreToolUse and
// PostToolUse included, so the handler must start about as fast as any
// process can. cmd/codeman-hook links this package alone. It must import
// nothing but the standard library: nothing else of codeman (not even
// respawn), no third-party module, and no package with costly init work.
//
// # The spool
//
// The handler never talks to the daemon: a marker on disk survives a daemon
// restart, and it carries its own time so the controller can tell a stale
// Stop from a fresh one. Nothing consumes the spool while no daemon runs,
// so it is bounded: a marker's name is its pane's and its kind's (the
// signal it makes, not the event's name), so a new marker replaces the
// previous one of the same pane and kind, and about once a minute (a stamp
// file's time says when) the handler drops markers older than MaxAge and,
// past MaxMarkers, the oldest. The common path costs a stat, never a
// listing of the dir. The watcher claims each marker by renaming it before
// reading it (Claim), so a handler replacing it meanwhile leaves a new
// marker rather than a lost one.
//
// The runtime dir ($XDG_RUNTIME_DIR/codeman, else $TMPDIR/codeman-$UID) is
// private: mode 0700, owned by the user, never a symlink. The daemon puts
// its socket there too (RuntimeDir). The package targets Unix (it relies
// on O_NOFOLLOW and file ownership).
package spool
