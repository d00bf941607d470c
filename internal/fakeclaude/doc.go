// Package fakeclaude is a simulated Claude Code 2.1.328 terminal UI. It draws
// the real screens (header, transcript, spinner row, prompt box, footers,
// completion lines, plan/question/permission dialogs, usage-limit and API
// error lines) on a tty, reads keys and bracketed pastes like the real CLI,
// runs configured hook commands with the real payloads, and logs every input
// event it receives as JSON lines.
//
// It exists so that codeman's detection and key sending can be exercised in a
// real tmux pane or GNU screen window without the real CLI, and so that
// `codeman demo` has something to drive. Test binaries run it by dispatching
// to Main from their TestMain; the codeman binary runs it as the hidden
// command `codeman sim-claude`.
//
// Scenario keywords in a submitted prompt (whole words, any case) choose how
// the turn ends: plan, question, permission, limit, error, background, long.
// Anything else is an ordinary turn with one Bash tool call. /clear, /init,
// /compact and /exit behave like the real slash commands.
//
// Event flow: a reader goroutine turns tty bytes into chunks; the loop in
// Run decodes them into input events and hands them, with the current time,
// to the model. The model is plain state without goroutines or clocks: it
// queues hook payloads and log entries and reports its next deadline. The
// loop drains those, renders the model into rows and repaints only the rows
// that changed. Hooks run one at a time, in order, on their own goroutine,
// so they never block the screen.
//
// The package owns the simulation only. It must not import respawn, tmux,
// screen, hooks or daemon: it plays the part of Claude Code and knows
// nothing about the program that watches it.
package fakeclaude
