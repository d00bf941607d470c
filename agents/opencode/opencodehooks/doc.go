// Package opencodehooks installs codeman's plugin into OpenCode
// (docs/opencode.md, "Plugins") and removes it again: OpenCode's home of
// the hooks installer (Installer).
//
// OpenCode has no shell hooks; it loads every JS module of a config dir's
// plugins/ at its start. codeman writes one of its own, plugins/codeman.js
// of $XDG_CONFIG_HOME/opencode (~/.config/opencode; with --project DIR,
// DIR/.opencode), embedded here as plugin.js with the handler's command
// line baked in. It forwards the events codeman reads (session.idle,
// session.status busy and retry, session.error, permission.asked and
// permission.replied of the event hook; the hooks chat.message,
// tool.execute.before and tool.execute.after) by running `<handler>
// <event>` with {type, properties} on stdin, trimmed to what package
// hooks/spool reads: one run at a time, in order, each killed after 5 s,
// its errors swallowed and its output dropped, so that OpenCode never
// waits on it. It forwards nothing of a child session (the task tool's)
// but its prompts, whose idle is not the turn's end; it adds to a
// session.idle why the turn ended when an event before it said so, and
// skips a repeated busy status or idle.
//
// The file is codeman's alone: an install writes it when missing or when
// it runs another command, and otherwise leaves it untouched; an uninstall
// removes it. A file at its path that is not the plugin exactly as codeman
// writes it (a person's own codeman.js, codeman's edited, a symlink, a
// directory, a FIFO, one larger than maxFileSize) is refused, naming it,
// and never overwritten or removed. One install or uninstall at a time
// holds the lock hooks.LockSettings keeps beside the file, and each write
// is the compare-and-swap of hooks.EditedFile.
//
// Status and the doctor's Check also read what else decides whether the
// plugin runs: OPENCODE_PURE (--pure) turns off every plugin of the
// user's; the user's plugin beside a project's runs as well; and OpenCode
// installs @opencode-ai/plugin into a config dir at its start when it is
// missing, which needs the npm registry once.
package opencodehooks
