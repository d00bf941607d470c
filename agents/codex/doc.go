// Package codex reads the OpenAI Codex CLI (0.171.0, docs/codex.md) for a
// respawn controller: New returns the respawn.Agent that classifies
// Codex's full-screen TUI, reads its output stream and names its commands.
// It only reads and names; the controller core decides, as it does for
// Claude Code.
//
// Codex's screen is laid out from the bottom: two footer rows, the
// composer (a "› " row), the status row above it while a turn runs, and
// the transcript above that, each prompt echoed with the same "› " prefix.
// Dialogs (approvals, menus) replace the composer and the footer, so a
// missing composer is itself a sign that a person must answer.
package codex
