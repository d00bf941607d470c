// Package codex installs codeman's hooks into the OpenAI Codex CLI
// (docs/codex.md, "Hooks"), as package hooks does for Claude Code, and
// removes them again.
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
// trusted_hash of the handler at that place. After the hooks file, Install
// writes that state for each of codeman's handlers, at the indexes the
// file has them (a user's hooks before them shift them), and removes the
// hashes of codeman's that no longer match a handler at their key. The
// edit is textual and touches only those tables and lines: comments,
// order and every other byte of config.toml stay, and the result is parsed
// and compared with the intended change before it is put in place
// atomically. A config.toml that does not parse is refused, naming its
// file and line. Options.NoTrust leaves config.toml alone, so that Codex
// asks the person to review the hooks instead.
package codex
