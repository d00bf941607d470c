// Package copilot reads the GitHub Copilot CLI (1.0.102, docs/copilot.md)
// for a respawn controller: New returns the respawn.Agent that classifies
// Copilot's full-screen TUI, reads its output stream and names its
// commands. It only reads and names; the controller core decides.
//
// Copilot's screen is read from the bottom: its last row is the state (the
// idle footer, or "◎ Working … esc esc interrupt" while a turn runs), above
// it the prompt box between two full-width rules, above that the
// transcript, each prompt echoed as " ❯ <prompt>". A dialog (a permission
// prompt, a question, the plan approval, folder trust) replaces the box
// and the footer, so a missing footer is itself a sign that a person must
// answer.
package copilot
