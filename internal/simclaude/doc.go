// Package simclaude is the simulated Claude Code session: a Claude Code
// 2.1.328 terminal UI without the model behind it. It draws the real
// screens (header, transcript, spinner row, prompt box with "❯" and U+00A0,
// footers, completion lines, plan/question/permission dialogs, usage-limit
// and API error lines), reads keys and bracketed pastes like the real CLI,
// runs a hook command with the real payloads, and logs every input event it
// receives as JSON lines.
//
// It ships in the codeman binary: `codeman demo` runs it in the pane it
// cycles, as the hidden command `codeman sim-claude`. The integration tests
// drive the same program in real tmux panes and GNU screen windows, so that
// codeman's detection and key sending are exercised without the real CLI,
// and its input log is their judge. The screens are checked row by row
// against captures of the real CLI (testdata/*.txt), the hook payloads key
// by key against the real CLI's (testdata/one-payload-per-event.json).
//
// With Options.Look set to LookCodex (--look codex) the same session
// draws the OpenAI Codex CLI 0.171.0 instead: the header and logo, the
// "› " composer and its footer rows, the "• Working (…)" status row,
// "Worked for" at a turn's end, "■" error and usage-limit lines, the
// approval prompt, the pane title with its spinner, the OSC 7501 state
// notices and BEL, Codex's hook payloads (PreModelRequest and
// PostModelRequest around each step, no Notification), /new and an /init
// that writes AGENTS.md. Keys that arrive less than 8 ms apart are a paste
// there, and an Enter within 120 ms of such a burst is a newline in it,
// logged as a key "enter" with the text "\n". Its screens are checked
// against the recorded ones of agents/codex/testdata/screens.
//
// With LookCopilot (--look copilot) it draws the GitHub Copilot CLI
// 1.0.102: the tab bar, the transcript (" ❯ " echoes with their time,
// " ● " replies run together, " $ Shell" tool rows), the working
// directory, the "❯" box between two rules and the last row that says the
// state ("← open sidebar · Interactive · …", "◎ Working … esc esc
// interrupt", the glyph cycling), the shell and file-write permission
// prompts, the ask_user form, the plan approval (the model presents a
// plan only in plan mode, Shift+Tab), the retried failures, /clear, /new,
// /compact, an /init that asks before writing
// .github/copilot-instructions.md (unless --allow-tool write lets writes
// run, as the real CLI's does), and the exit summary. Its hooks are
// Copilot's camelCase ones, each run as the hook command with the
// event's name as its argument. One read of 32 characters or more, a CR
// counting, or with a newline is a paste there: its CR is dropped, logged
// as a key "enter" with the text "\n" as Codex's newline is. An Esc arms
// the interrupt and a second within a second does it. "limit" ends a
// turn on the 429 of a usage limit, which names no reset; "background"
// is an ordinary turn. Its screens are
// checked against agents/copilot/testdata/screens.
//
// With LookOpenCode (--look opencode) it draws OpenCode 1.18.33: the
// centred start screen ("┃  Ask anything… …" over the agent row and the
// "╹▀▀▀" edge) until the first prompt, then the session view with the
// transcript ("┃" blocks for prompts, tools and errors, the replies, a
// "▣  Build · <model>" footer per turn that gains its time or
// "· interrupted"), the sidebar (title, context, cost) and, at the
// bottom, the composer and the state row, where the 8-cell working bar
// moves while a turn works and a failed call's retries count down. The
// ordinary turn streams a reply without a tool; "permission" runs a
// shell command, which asks first (the "△ Permission required" prompt,
// Enter allows once, Esc rejects) only with --permission ask, as
// OpenCode asks only when its config says so. "error" and "limit" end
// on a 500 and on the 429 of a usage limit, which names no reset, each
// retried five times; OpenCode has no plan approval and the recordings
// show no question tool, so "plan", "question" and "background" are
// ordinary turns. Tab switches Build and Plan; with a slash popup open
// the first Enter completes the command and a second runs it; /new (and
// /clear, which completes to /new) goes back to the start screen, /init
// writes AGENTS.md on screen; Esc twice interrupts; Ctrl+C clears the
// composer or exits. Its hook command runs for the events codeman's
// plugin hands on, with the event's name as its argument and
// {"type", "properties"} on stdin. Its screens are checked against
// agents/opencode/testdata/screens.
//
// # Use
//
// A test binary runs it by dispatching from TestMain, then starts itself in
// a pane:
//
//	func TestMain(m *testing.M) {
//		if os.Getenv("SIM_CLAUDE") == "1" {
//			os.Exit(simclaude.Main(os.Args[1:], os.Stdin, os.Stdout))
//		}
//		os.Exit(m.Run())
//	}
//
//	opts := simclaude.Options{Work: time.Second, LogPath: log, HookCmd: "codeman hook"}
//	cmd := "env SIM_CLAUDE=1 " + os.Args[0] + " " + shellQuote(opts.Args()...)
//	...
//	entries, err := simclaude.ReadLog(log)
//
// # Behaviour
//
// Enter (CR) submits; LF (Ctrl-J) and newlines inside a bracketed paste go
// into the input. A CR inside an unbracketed paste submits, as a key press
// would. A prompt submitted while a turn works is queued and runs after it.
// Escape interrupts a working turn; Ctrl-C twice exits. Scenario keywords in
// a prompt (whole words, any case) choose how the turn ends: plan, question,
// permission, limit, error, background, long; anything else is an ordinary
// turn with one Bash call. /clear, /init, /compact and /exit work like the
// real commands. While a usage limit lasts every turn hits it again; at the
// reset the session continues by itself unless Escape cancelled that.
//
// # Event flow
//
// A reader goroutine passes tty bytes to the loop in Run, which decodes them
// into input events and hands them, with the current time, to the model.
// The model is plain state without goroutines or clocks: it queues hook
// payloads and log entries and reports its next deadline. The loop drains
// those, renders the model into rows and repaints only the rows that
// changed, so an idle session costs nothing and a working one about five
// repaints a second. Hooks run one at a time, in order, on their own
// goroutine, so they never block the screen.
//
// The package owns the simulation only. It must not import respawn, tmux,
// screen, hooks or daemon: it plays the part of Claude Code and knows
// nothing about the program that watches it.
package simclaude
