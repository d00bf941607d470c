// Package copilothooks installs codeman's hooks into the GitHub Copilot
// CLI (docs/copilot.md, "Hooks") and removes them again: Copilot's home of
// the hooks installer (Installer), as agents/claude/claudehooks is Claude
// Code's.
//
// Copilot runs the hooks of every $COPILOT_HOME/hooks/*.json file, of the
// hooks object in $COPILOT_HOME/settings.json and, once the folder is
// trusted, of a repository's .github/hooks/*.json, all combined. So
// codeman writes a file of its own, hooks/codeman.json (HooksPath; with
// --project DIR, DIR/.github/hooks/codeman.json), and never edits the
// user's files. Its shape is Copilot's, {"version": 1, "hooks": {event:
// [hook objects]}}, with one {"type": "command", "bash": "<handler>
// <event>", "timeoutSec": 5} per event codeman reads (Events): Copilot's
// payloads mostly name no event, so the command line does
// (spool.ParsePayloadAs).
//
// A hook of codeman's is one of exactly that shape whose command runs
// codeman's handler: codeman-hook or `codeman hook`, at this binary's path
// or at another absolute path (an earlier install's), followed by one
// word. Anything else in the file is the user's and stays: other keys,
// other hooks, values of another shape, each with its bytes (only the
// layout is normalised when the file is written). An install leaves one
// current hook of codeman's per event, in place where there was one; an
// uninstall removes them all, and the file too when nothing else is left.
// A file codeman cannot read as such is refused, naming it: invalid JSON
// (by line and column), a version or a hooks value it does not know, a
// symlink, a directory, a FIFO or any other non-regular file, one larger
// than maxFileSize. A write that replaces or removes anything of the
// user's keeps the previous content as codeman.json.codeman-backup.
//
// One install or uninstall at a time holds the lock hooks.LockSettings
// keeps beside the file, and each write is the settings editor's
// compare-and-swap (hooks.EditedFile), so that a write of another program
// in between is never lost.
//
// Status and the doctor's Check also read what else decides whether the
// hooks run: disableAllHooks in the settings, and copies of codeman's
// hooks in the settings' hooks object or another hooks file, which
// Copilot runs as well.
package copilothooks
