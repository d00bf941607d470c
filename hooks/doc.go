// Package hooks connects the agents' hooks to codeman: the machinery every
// agent's hooks share. It owns three things:
//
//   - the settings editor: it merges an agent's hook entries
//     (InstallOptions.Entries) into a settings file of Claude Code's shape
//     ({"hooks": {Event: [groups]}}, which the Codex CLI's hooks.json
//     shares) and removes them again, keeping every other key and every
//     hook of the user's as it was. Each agent's installer (Installer:
//     agents/claude/claudehooks, agents/codex/codexhooks) runs it on its
//     own files with its own events; the GitHub Copilot CLI's
//     (agents/copilot/copilothooks), whose hooks file has another shape,
//     uses its parts: the lock, the compare-and-swap (EditedFile) and the
//     raw JSON members (rawjson.go);
//   - the hook handler behind codeman-hook and `codeman hook`, whose marker
//     protocol lives in the subpackage spool: Claude Code runs it for every
//     hook event with the event's JSON on stdin; it finds its pane from the
//     environment and drops one small marker file into the spool dir;
//   - the marker watcher: inside the daemon it watches the spool dir with
//     fsnotify, interprets each marker into a respawn.Hook and hands it to
//     the controller of that pane.
//
// The flow where the pieces meet:
//
//	claude ──stdin JSON──▶ codeman-hook ──marker file──▶ <runtime dir>/spool
//	                                                        │ fsnotify
//	daemon: Watcher ──Interpret──▶ Router.RouteHook(pane, respawn.Hook)
//
// # Which program the hooks run
//
// The hook entries run the dedicated program codeman-hook, which links
// package spool alone and so starts about as fast as a process can, when
// the caller finds it (FindHandler: beside the codeman binary); else they
// run `codeman hook`, which does the same inside the whole CLI. Either
// command is codeman's when the record lists it, so a later install turns
// `codeman hook` entries into codeman-hook ones in place.
//
// # Which hooks are codeman's
//
// The hooks codeman recorded writing, and the hooks that run one of its
// commands as it writes them. Beside the settings file it keeps
// <file>.codeman-hooks, a JSON record of each hook object it wrote with
// the event and matcher of the group it put it in, which containers (the
// hooks object, event lists) it created, and whether the file was missing
// or blank before its first install. A hook is codeman's when it equals a
// recorded one in a group of the recorded event and matcher, or when it is
// exactly {"type": "command", "command": C} with a timeout or none, C
// being codeman-hook or `codeman hook` beside this binary, the handler
// given, or a recorded hook's command, in a group of an event and matcher
// codeman writes to. The second rule finds what the record misses (it was
// removed or went stale, an older codeman kept none, the hooks were
// copied), so that no copy of codeman's runs while status says nothing is
// installed; a hook with any other key, any other command (a wrapper, a
// script that ends in "codeman hook", another program named codeman) or in
// another group is the user's. Install rewrites its hooks in place
// (another program, another timeout), keeps one per wanted entry and
// removes the rest (StatusReport.Copies), and appends a new group for each
// wanted entry not found; Uninstall removes them all, the groups they
// leave empty, and the event lists and hooks object they leave empty when
// codeman created them (with no record: when they held nothing else), then
// the record. Uninstall thus gives the original back: a file codeman
// created is removed again, a blank one comes back blank, and when the
// result differs from the kept original in layout only, the original's
// bytes are written.
//
// Two more files sit beside the settings: <file>.codeman-original, the
// content before codeman's first write, made once and never overwritten,
// and <file>.codeman-backup, the content before codeman's latest write.
// Both have the settings file's mode (it may hold secrets).
//
// # One install at a time
//
// An Install or Uninstall holds an flock on <file>.codeman-lock from
// reading the record and the settings to writing both, so that installs
// run at once (a script, two shells) take turns: each reads what the one
// before wrote, record included, and one set of hooks results. Status
// holds it shared. Codex's installer holds the lock of hooks.json
// across its edit of config.toml too (LockSettings, InstallOptions.Locked).
// The lock file stays when the hooks go, like the backup.
//
// # Writing beside Claude Code
//
// Claude Code rewrites the settings file itself (temp file and rename, no
// lock). An edit reads the file, edits it, and puts the result in place
// with a compare-and-swap (commit.go): the file is read again and compared
// just before, the dir is watched for other writers meanwhile (Linux), and
// the new file is exchanged with the old one atomically, so that a write
// that still slips in between is detected and undone. The edit then starts
// over from the other program's version, up to maxAttempts times before it
// gives up with ErrConcurrentChange. Only regular files (or links to one)
// are read or replaced; a FIFO, device or directory in their place is
// refused before it is opened.
//
// # The spool
//
// How the handler writes markers, how the spool stays bounded while no
// daemon runs, and how the watcher claims each marker before reading it:
// see package spool. The watcher routes every batch in the order of the
// markers' times.
//
// hooks imports respawn for the Hook type and spool, and nothing else of
// codeman. It must not import tmux, screen, the daemon or cmd, which build on
// it; spool imports none of codeman. The package targets Unix (it relies on O_NOFOLLOW and
// file ownership).
package hooks
