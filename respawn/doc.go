// Package respawn is codeman's brain: it decides when a Claude Code
// session is truly idle and cycles it the way a person would (an update
// prompt, /clear, /init, a kickstart prompt), accepts plan approval menus,
// never answers a question or a permission prompt, and waits out usage
// limits and API errors.
//
// It owns the controller state machine (Core, after etcd-io/raft: pure, no
// goroutine, no clock, no I/O; Controller runs one per pane) and its
// settings (Config, DefaultConfig), the send policy (Submit, SendTiming),
// the interface an agent implements (Agent) with the facts it reads
// (ScreenFacts, ChunkFacts), and the interfaces the backends implement
// (Terminal, Checker). The agents are packages of their own (package
// agents lists them; agents/claude reads Claude Code, agents/codex the
// Codex CLI), and a core needs one: there is no default. The
// configuration file is package config's: it reads config.toml into a
// Config, whose toml tags name the keys. respawn must not import an agent,
// config, tmux, screen, hooks or daemon: they import it. Subpackages:
// replay (a recording in virtual time) and aicheck (checks through
// claude -p or codex exec).
//
// # Evidence
//
// Detection reads the rendered screen (Claude Code rewrites its rows in
// place), and uses the output stream only for timing: silence, the token
// counter and working patterns in a rolling window of ANSI-free text
// (agents/claude; the Codex CLI's evidence is in agents/codex). From
// strongest to weakest: hook signals (Stop, idle_prompt, a pending
// AskUserQuestion or permission prompt, /clear finished, a failed turn),
// the screen (working status line, `esc to interrupt`, the completion line,
// menus, usage-limit and API-error lines), silence and stability, and an AI
// check as a tie-breaker. Before anything is typed the screen is read again
// and must show the agent's prompt box, nothing working, and no dialog a
// person must answer; and no working output may have arrived within
// completion_confirm (a property test holds the core to this).
//
// # Decisions on the original's quirks
//
// The states, timers and defaults follow the respawn controller of
// Codeman, the tool codeman grew out of (docs/ARCHITECTURE.md). Where it
// behaved oddly, codeman decided:
//
//   - Output during a confirmation restarts the silence wait instead of
//     cancelling it; only working evidence cancels.
//   - A failed send does not advance the state: it is retried twice, then
//     the cycle is abandoned with the error as its reason.
//   - The stuck watchdog measures silence without progress, so long work
//     that prints never trips it; it is suspended while a limit is waited out.
//   - Pause and resume re-arm the timers; a cycle paused before a step was
//     typed types that step on resume.
//   - Newlines in prompts are kept (the backends paste them as one bracketed
//     paste) instead of deleted.
//   - A Stop hook during an AI check cancels the check cleanly and confirms
//     idle after 3 s of silence, without the spurious failure.
//   - A WORKING verdict, an error or a cooldown leaves confirming_idle for
//     watching at once instead of stalling there.
//   - Settings that did nothing in the original (idle_timeout, adaptive
//     timing, confidence weights, min_idle_confidence) are not offered, and
//     neither is skip-clear: Claude Code 2.1 shows no context size, and the
//     token counter it read is the spinner's per-turn figure.
//   - Usage limits and failed turns are new: the original cycled into them.
//     The core waits until the reset time (plus usage_limit_margin) or
//     api_error_backoff, then types resume_prompt once unless Claude went on
//     by itself. After three API-error backoffs in a row it types nothing
//     more and raises a need for a person (needs.go) until a person's turn
//     starts.
//   - The original held in silence on what only a person can answer; the
//     core raises a need for a person (question, permission, elicitation,
//     menu, stuck, auth, send-failed, error) that the daemon shows and
//     notifies, and clears it when the session moves again.
//
// # Scenarios of the original's test suite that do not apply
//
// Core tests that port one of its scenarios keep its id (STS-001, TC-004).
//
// EE-001..EE-005 test Node's EventEmitter (listeners, once, throwing
// listeners); the core has no listeners, and its decisions go through one
// loop. TC-004 (zero-length timers firing at once) is ruled out by the
// configuration's validation (config.Validate), which rejects such values.
// CO-005 and BM-001..003 concern the original's 1 MiB text buffer; the
// core keeps a fixed 300-character window and the loop bounds pending
// output at 1 MiB (older bytes dropped). The team-awareness and Ralph
// gates depend on watchers codeman does not have; background agents are
// handled through the Stop hook's background_tasks and the "Waiting for N
// background agents" line instead. The transcript watcher is replaced by
// the PreToolUse/PostToolUse hooks.
package respawn
