// Package e2e holds codeman's end-to-end tests: the real Claude Code CLI
// (claudetest.FindClaude) in a private tmux server, against a fake
// Anthropic Messages API on loopback (fakeapi), watched by a codeman
// daemon on private paths, with codeman's hook entries installed in the
// session's throwaway HOME (docs/ARCHITECTURE.md, "Tests").
//
// Every scenario asserts on three independent records: the fake API's
// request log (what codeman typed reached the model, in order, and when),
// Claude's own hook log (claudetest's recorder, not codeman's markers), and
// a timeline of the pane's screen sampled while the test runs. A change
// that makes codeman type into a working session, a question or a
// permission prompt fails them.
//
// The scenarios: a turn that streams slowly and runs a Bash tool, then a
// full cycle; a plan approval accepted; a question and a permission prompt
// left alone; a background agent not interrupted; API errors waited out
// and resumed; subscription usage limits waited out and resumed exactly
// once, by Claude Code's own continue or else by codeman, and the limit
// menu left alone; the AI idle check through the real `claude -p`; and a
// daemon killed with SIGKILL and restarted.
//
// CI runs them against the pinned CLI and again against the previous pin
// (docs/claude-code.md).
//
// The Codex scenarios run the same way on the real OpenAI Codex CLI
// (codextest.FindCodex) against a fake Responses API (fakeopenai), with
// Codex's own hook calls recorded by codextest and codeman's hooks
// installed by agents/codex/codexhooks: a full cycle after a turn that
// streams slowly and runs a command (the update prompt naming AGENTS.md, /new, /init, the
// kickstart prompt); nothing typed while a reply streams with no status
// row, reading only the screen and the output stream; an approval prompt
// left alone; an API error waited out for api_error_backoff and resumed
// once; a usage limit whose model-switch menu is left to a person, waited
// out until its reset and resumed once; and the agent recognized in a
// pane attached without one.
// Their timeline also reads the pane title, whose spinner is Codex's one
// sign of a turn while its reply streams. They skip without the CLI
// (install it with scripts/install-codex.sh or set CODEMAN_E2E_CODEX).
//
// The Copilot scenarios run the real GitHub Copilot CLI
// (copilottest.FindCopilot) against fakeopenai in BYOK mode, with
// Copilot's own hook calls recorded by copilottest, codeman reading the
// screen and the output stream alone: a full cycle after a turn that
// streams slowly and runs a command the session allows (--allow-tool; the
// update prompt naming .github/copilot-instructions.md, /clear, /init,
// the kickstart prompt) and no need raised for it; a permission prompt
// left alone and raised as a need; an API error waited out for
// api_error_backoff and resumed once. The cycle and the permission prompt
// run again with codeman's hooks, installed into the session's
// COPILOT_HOME before Copilot starts by the real `codeman hooks install
// --agent copilot` (built with codeman-hook beside it, which the hooks
// run): each turn's agentStop reaches the daemon before the next step is
// typed, the prompt's notification raises the need, and the approved
// command's postToolUse ends it. A usage limit is not among them: Copilot
// retries a 429 for about a minute and names no reset time, so codeman
// waits the fixed fallback of an hour. They skip without the CLI (install
// it with scripts/install-copilot.sh or set CODEMAN_E2E_COPILOT).
//
// The screen scenarios (TestScreen_*, -run Screen) run the Claude and
// Codex full cycles, the Copilot one read from the screen alone and the
// Copilot permission prompt with codeman's hooks again with the CLI in a
// window of a GNU screen session, the screen on
// PATH with a SCREENDIR of the test binary's own, and codeman attached to
// the window (screen:<PID.name>:0): its hardcopy poller reads the screen
// and its keys go through screen. The tmux pane holds screen's display, as
// a person's terminal would, for the test's own look at the screen and
// keys. A failure names the screen release (`screen -v`).
//
// The test binary doubles as codeman's hook handler: Claude runs a wrapper
// script named codeman that execs the test binary with CODEMAN_E2E_ROLE=hook,
// and TestMain dispatches it to hooks.Handle (the stdlib os/exec test
// style). The restart scenario builds the real codeman binary once and runs
// it as daemon and hook handler; the Copilot hooks scenarios run its
// `hooks install`.
//
// The tests skip under -short, without tmux, and without the CLI (install
// it with scripts/install-claude.sh or set CODEMAN_E2E_CLAUDE). They run in
// parallel; each starts its own daemon, tmux servers and fake APIs.
//
// The package has no code outside its tests and nothing may import it. Its
// tests import the daemon, hooks and respawn packages and the test helpers
// claudetest, codextest, copilottest, fakeapi and fakeopenai; they must not reach into
// codeman's internals beyond those packages' exported API.
package e2e
