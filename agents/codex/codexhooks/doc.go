// Package codexhooks installs codeman's hooks into the OpenAI Codex CLI
// (docs/codex.md, "Hooks") and removes them again: Codex's home of the
// hooks installer (Installer), as agents/claude/claudehooks is Claude
// Code's.
//
// Codex reads $CODEX_HOME/hooks.json (default ~/.codex/hooks.json), in
// the shape of Claude Code's settings ({"hooks": {Event: [groups]}}), so
// the hooks file is edited by package hooks' installer with Codex's
// events (Entries): merge-safe, idempotent, atomic, with the same record,
// backup and original copy beside the file, and an uninstall that gives
// the original back.
//
// Codex runs a user's hook only once it is trusted: config.toml holds
// [hooks.state."<hooks.json path>:<event>:<group>:<handler>"] with the
// trusted_hash of the handler at that place. With the hooks file, Install
// writes that state for each of codeman's handlers, at the indexes the
// file has them (a user's hooks before them shift them), and removes the
// hashes of codeman's that no longer match a handler at their key. The
// edit is textual and touches only codeman's own lines (owned): those its
// record, config.toml.codeman-trust, lists, and tables exactly as codeman
// writes them holding a hash of codeman's. Comments, order, a BOM, a
// missing final newline and every other byte stay, and the result is
// parsed and compared with the intended change before it is put in place
// atomically. A hash codeman did not write where its handler needs one is
// never overwritten: the install is refused, naming file, line and key.
// config.toml is checked before the hooks file is written
// (hooks.InstallOptions.Check), so that a refused install writes nothing
// and Codex finds no untrusted hooks of codeman's to ask about. One
// install at a time holds the lock of hooks.json across both files.
// Options.NoTrust leaves config.toml alone, so that Codex asks the person
// to review the hooks instead.
package codexhooks
