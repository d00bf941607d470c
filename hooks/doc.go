// Package hooks connects Claude Code's hooks to codeman. It owns three
// things:
//
//   - the settings installer: it merges codeman's hook entries into a Claude
//     Code settings file (~/.claude/settings.json, $CLAUDE_CONFIG_DIR, or a
//     project's .claude/settings.local.json) and removes them again, keeping
//     every other key and every hook of the user's as it was;
//   - the hook handler behind `codeman hook`: Claude Code runs it for every
//     hook event with the event's JSON on stdin; it finds its pane from the
//     environment and drops one small marker file into the spool dir;
//   - the marker watcher: inside the daemon it watches the spool dir with
//     fsnotify, interprets each marker into a respawn.Hook and hands it to
//     the controller of that pane.
//
// The flow where the pieces meet:
//
//	claude ──stdin JSON──▶ codeman hook ──marker file──▶ <runtime dir>/spool
//	                                                        │ fsnotify
//	daemon: Watcher ──Interpret──▶ Router.RouteHook(pane, respawn.Hook)
//
// The handler never talks to the daemon: a marker on disk survives a daemon
// restart, and the Hook carries the marker's own time so the controller can
// tell a stale Stop from a fresh one.
//
// The runtime dir ($XDG_RUNTIME_DIR/codeman, else $TMPDIR/codeman-$UID) is
// private: mode 0700, owned by the user, never a symlink. The daemon puts its
// socket there too (RuntimeDir).
//
// hooks imports respawn for the Hook type and nothing else of codeman. It
// must not import tmux, screen, the daemon or cmd: the handler runs for every
// tool call Claude makes and has to start in a few milliseconds. The package
// targets Unix (it relies on O_NOFOLLOW and file ownership).
package hooks
