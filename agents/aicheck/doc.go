// Package aicheck runs AI checks for package respawn: it asks a fresh
// agent CLI process whether a pane's text shows an idle session (IDLE or
// WORKING) or a plan approval menu (PLAN_MODE or NOT_PLAN_MODE).
//
// A Runner runs the checks of one CLI, chosen by Options.CLI: ClaudeCode
// (the zero value) runs `claude -p` for Claude Code panes, Codex runs
// `codex exec` for OpenAI Codex CLI panes, Copilot runs `copilot` in
// prompt mode for GitHub Copilot CLI panes and OpenCode runs `opencode run`
// for OpenCode panes, so that a Codex, Copilot or OpenCode user needs no
// Claude Code install. The daemon gives each pane the Runner of its
// agent. Each CLI has its own prompts, since the screens differ in their
// signs of work and their dialogs. For Codex:
//
//   - the executable is Options.CodexPath (checks.codex_path), else
//     "codex" on the PATH of the checks' environment;
//   - it runs `codex exec --json --ephemeral --skip-git-repo-check
//     --sandbox read-only --config approval_policy="never" [--model M] -`:
//     the prompt on stdin, no session file, no repository needed, no
//     command that could change anything, no approval to wait for;
//   - the model is the check's, except Claude's default "haiku"
//     (respawn.DefaultCheckModel), which leaves the model to Codex's
//     config.toml;
//   - the answer is the last agent message of the completed turn among
//     the JSON events on stdout, and the errors are the failed turn's
//     messages. The plain output would echo the prompt, pane text and all,
//     on stderr, where a limit shown in the pane would pass for the
//     check's own; --output-last-message gives the answer but not the
//     error;
//   - TZ=UTC in its environment makes the reset time of a usage limit
//     ("… try again at 9:12 PM.") readable without guessing a zone.
//
// For Copilot:
//
//   - the executable is Options.CopilotPath, else "copilot" on the PATH of
//     the checks' environment;
//   - the prompt goes on piped stdin, which runs prompt mode as -p does,
//     with --output-format json, no tool the model could call (an
//     allowlist that names none, shell and writes denied besides), no
//     built-in MCP servers, no ask_user, no custom instructions and no
//     auto-update;
//   - the user's provider variables (COPILOT_PROVIDER_*, COPILOT_MODEL) and
//     COPILOT_HOME pass through; the variables a running Copilot gives its
//     hooks and tools do not;
//   - the answer is the last assistant message of a run whose result
//     reports exit code 0, and the errors are its session.error messages:
//     -s would print the answer alone but drop the error. A 429 that
//     outlasted Copilot's retries is a limit without a reset time.
//
// For OpenCode:
//
//   - the executable is Options.OpenCodePath (checks.opencode_path), else
//     "opencode" on the PATH of the checks' environment;
//   - it runs `opencode run --format json --pure --title "codeman check"
//     [--model M]` with the prompt on stdin: JSON events, no external
//     plugins (codeman's own among them), no title request;
//   - OPENCODE_PERMISSION={"*":"deny"} denies every tool over the user's
//     permission config, so the model is offered none and a call is
//     refused; OPENCODE_DB=:memory: keeps the check's session out of the
//     user's session list; the variables a running OpenCode gives its
//     commands do not pass;
//   - the answer is the last text of the last step when it finished with
//     reason "stop", and the errors are the error events' messages with
//     their HTTP status. A 429 or 529 is a limit without a reset time, but
//     OpenCode retries a 429 or a 500 five times over about 70 s, so a
//     check with a shorter limit times out first.
//
// It owns the check process from start to end: the prompt (sent on stdin,
// with the pane text fenced off as untrusted data), an empty temporary
// working directory, an environment stripped of the pane's markers with
// CODEMAN_CHECK=1 added so that codeman's own hook handler ignores the
// check, a process group killed as a whole on timeout or cancellation, a
// per-Runner limit on concurrent checks, and the classification of what
// the CLI printed into a verdict, a usage limit or an error. Usage limits,
// rate limits and overloads of every CLI are *respawn.UsageLimitError,
// with the reset time when one was printed.
//
// It does not own cooldowns, backoff after errors or disabling a checker
// after repeated errors: the controller in package respawn does. It imports
// respawn for the Checker interface and its types, and must not import the
// tmux, screen, hooks or daemon packages. Like codeman, it runs on Unix
// only: it relies on process groups.
//
// Usage:
//
//	runner, err := aicheck.New(aicheck.Options{Logger: log})
//	if err != nil { ... } // errors.Is(err, respawn.ErrCheckerUnavailable) when claude is missing
//	res, err := runner.Check(ctx, respawn.CheckRequest{Kind: respawn.IdleCheck, Model: "haiku", ...})
//
//	codex, err := aicheck.New(aicheck.Options{CLI: aicheck.Codex, CodexPath: cfg.CodexPath, Logger: log})
//	if err != nil { ... } // errors.Is(err, respawn.ErrCheckerUnavailable) when codex is missing
package aicheck
