package simclaude

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// The Codex look's own turns and commands. They run on the same turn
// machinery as Claude's; Codex asks the model once per step
// (PreModelRequest/PostModelRequest around each) and reports its state
// with OSC 7501 notices.

// codexBashSteps run the read-only command of an ordinary turn.
func (m *model) codexBashSteps(after time.Duration) []step {
	call := toolCall{
		name:     "Bash",
		id:       newCallID(m.rng),
		input:    object{{"command", "ls -a"}},
		response: ".\n..\nREADME.md\n",
	}
	return []step{
		{after: after, run: func(m *model, _ time.Time) {
			m.endRequest("completed", "")
			m.hookPreToolUse(call)
		}},
		{after: toolRun, run: func(m *model, _ time.Time) {
			m.items = append(m.items, codexExplored("ls -a"))
			m.hookPostToolUse(call, 0)
			m.startRequest()
		}},
	}
}

// newCallID returns a call id shaped like the fake API's (call_ + 16 hex).
func newCallID(r interface{ Uint64() uint64 }) string {
	return fmt.Sprintf("call_%016x", r.Uint64())
}

// newChat is /new (source "startup" for the next session) or /clear
// ("clear"): the start screen is back and no hook runs until the next
// prompt opens the new session.
func (m *model) newChat(source string, now time.Time) {
	m.signal("working", "")
	m.session = newUUID(m.rng)
	m.cx = codexState{signals: m.cx.signals, source: source, sessionAt: now}
	m.items = nil
	if m.limit != nil {
		m.limit.item = -1
	}
	m.lastPromptID = ""
	m.signal("idle", "")
}

// codexPrompt starts an ordinary prompt (or a scenario's) in Codex's way.
func (m *model) codexPrompt(text string, announce bool, now time.Time) {
	m.items = append(m.items, codexEcho(text))
	m.openSession()
	turnID := newUUID(m.rng)
	m.beginTurn(text, turnID, now, nil)
	if announce {
		m.hookUserPromptSubmit(turnID, text)
	}
	m.startRequest()
	m.schedule(now, m.scenarioSteps(pickScenario(text, m.limitActive(now)), text)...)
}

// codexInit runs /init: Codex sends its AGENTS.md prompt, and the model
// adds the file with apply_patch (on screen only; no file is touched).
func (m *model) codexInit(command string, now time.Time) {
	m.items = append(m.items, codexEcho(codexInitPrompt))
	m.openSession()
	turnID := newUUID(m.rng)
	m.beginTurn(command, turnID, now, nil)
	m.hookUserPromptSubmit(turnID, codexInitPrompt)
	m.startRequest()
	patch := "*** Begin Patch\n*** Add File: AGENTS.md\n"
	for _, l := range agentsMDLines {
		patch += "+" + l + "\n"
	}
	patch += "*** End Patch\n"
	call := toolCall{
		name:     "apply_patch",
		id:       newCallID(m.rng),
		input:    object{{"command", patch}},
		response: "Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nA AGENTS.md\n",
	}
	w := m.cfg.Work
	steps := []step{
		{after: w / 2, run: func(m *model, _ time.Time) {
			m.streamLine("I'll write a short contributor guide.")
			m.endRequest("completed", "")
			m.hookPreToolUse(call)
		}},
		{after: toolRun, run: func(m *model, _ time.Time) {
			m.items = append(m.items, codexAdded("AGENTS.md", agentsMDLines))
			m.hookPostToolUse(call, 0)
			m.newReply()
			m.startRequest()
		}},
	}
	steps = append(steps, replySteps(w/2, "Created AGENTS.md with the repository guidelines.")...)
	m.schedule(now, append(steps, step{after: streamGap, run: finishTurn})...)
}

// codexCompact is /compact: a summarizing request, then "• Context
// compacted" and the turn's end.
func (m *model) codexCompact(command string, now time.Time) {
	m.beginTurn(command, newUUID(m.rng), now, nil)
	m.emitCodex("PreCompact", []field{{"trigger", "manual"}})
	m.startRequest()
	m.schedule(now, step{after: m.cfg.Work, run: func(m *model, now time.Time) {
		m.endRequest("completed", "")
		m.emitCodex("PostCompact", []field{{"trigger", "manual"}})
		m.items = append(m.items, item{lines: []line{codexBullet("Context compacted · " + codexStatusSeconds(now.Sub(m.turn.started)))}},
			codexCompletion(now.Sub(m.turn.started), now))
		m.bell()
		m.signal("done", "")
		m.endTurn(OutcomeCompacted, now)
	}})
}

// codexAPIError ends the turn on the 500 of the api-error recording.
func (m *model) codexAPIError(now time.Time) {
	m.items = append(m.items, item{lines: []line{codexErrorLine(codexAPIError)}})
	m.endRequest("failed", codexAPIError)
	m.signal("error", "")
	m.endTurn(OutcomeError, now)
}

// codexLimitMessage is Codex's usage-limit line for a reset at t: "9:12
// PM" the same day, "Dec 3rd, 2026 8:42 PM" further out.
func codexLimitMessage(t, now time.Time) string {
	at := t.Format("3:04 PM")
	if y, mo, d := t.Date(); y != now.Year() || mo != now.Month() || d != now.Day() {
		at = t.Format("Jan ") + ordinal(d) + t.Format(", 2006 3:04 PM")
	}
	return "You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit " +
		"https://chatgpt.com/settings/usage to purchase more credits or try again at " + at + "."
}

func ordinal(d int) string {
	suffix := "th"
	switch {
	case d%100 >= 11 && d%100 <= 13:
	case d%10 == 1:
		suffix = "st"
	case d%10 == 2:
		suffix = "nd"
	case d%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprint(d) + suffix
}

// codexHitLimit ends the turn on a usage limit. Codex does not continue
// by itself when it resets: a new prompt is needed.
func (m *model) codexHitLimit(now time.Time) {
	if m.limit == nil {
		m.limit = &usageLimit{resetAt: now.Add(m.cfg.LimitReset)}
	}
	m.limit.auto = false
	msg := codexLimitMessage(m.limit.resetAt, now)
	m.items = append(m.items, item{lines: []line{codexErrorLine(msg)}})
	m.limit.item = len(m.items) - 1
	m.endRequest("failed", msg)
	m.signal("error", "")
	m.endTurn(OutcomeLimit, now)
}

// codexLimitRow is the row right-aligned above the composer while the
// limit lasts.
func (m *model) codexLimitRow(now time.Time, width int) string {
	if !m.limitActive(now) {
		return ""
	}
	s := "⚠ 5h limit: only <1% left · resets at " + m.limit.resetAt.Format("15:04") + " · /status"
	// Codex leaves one column free at the right edge.
	return strings.Repeat(" ", max(width-1-ansi.StringWidth(s), 0)) + fg(codexColorLimit, bold(s))
}

// openApproval ends the approval scenario's work with the prompt of the
// approval recording: Codex asks before a command that wants to run
// outside the sandbox.
func (m *model) openApproval(now time.Time) {
	m.streamLine(codexRiskyIntro)
	m.newReply()
	m.items = append(m.items, item{lines: []line{codexBullet("Running " + codexRiskyCommand)}})
	m.turn.toolItem = len(m.items) - 1
	call := toolCall{name: "Bash", id: newCallID(m.rng), input: object{{"command", codexRiskyCommand}}, response: ""}
	m.endRequest("completed", "")
	m.hookPreToolUse(call)
	m.turn.tool = call
	m.turn.steps, m.turn.due = nil, time.Time{}
	m.dialog = &dialog{kind: dialogPermission, codex: true}
	asked := call
	asked.input = object{{"command", codexRiskyCommand}, {"description", codexRiskyReason}}
	m.hookPermissionRequest(asked)
	m.bell()
	m.signal("blocked", ":kind=permission")
}

// approve is option 1 or 2 (Enter, y, p): the command runs and the turn
// goes on.
func (m *model) approve(now time.Time) {
	m.closeDialog()
	m.signal("working", "")
	m.items[m.turn.toolItem] = item{lines: []line{
		codexBullet("Ran " + codexRiskyCommand),
		raw(dim("  └ (no output)")),
	}}
	m.hookPostToolUse(m.turn.tool, 0)
	m.newReply()
	m.startRequest()
	steps := replySteps(m.cfg.Work/2, "I removed the old build output.")
	m.schedule(now, append(steps, step{after: streamGap, run: finishTurn})...)
}

// decline is option 3 or Esc: the command does not run and the turn is
// interrupted, without PostToolUse.
func (m *model) decline(now time.Time) {
	m.closeDialog()
	m.items[m.turn.toolItem] = item{lines: []line{raw("✗ You canceled the request to run " + codexRiskyCommand)}}
	m.hookInterrupt()
	m.signal("idle", "")
	m.endTurn(OutcomeDenied, now)
}

// codexScenario maps a scenario to what Codex has: no plan mode,
// questions or background agents in these scenarios, so those prompts
// are ordinary turns.
func codexScenario(s scenario) scenario {
	switch s {
	case scenarioPlan, scenarioQuestion, scenarioBackground:
		return scenarioOrdinary
	}
	return s
}

// exitNote is what the session prints on the normal screen as it exits.
func (m *model) exitNote(reason string) string {
	switch {
	case m.copilot():
		return m.copilotExitNote()
	case m.opencode():
		return m.opencodeExitNote()
	case m.codex() && reason == "other" && m.cx.sessionOpen:
		return "To continue this session, run:\n  codex resume " + m.session + "\n"
	case m.claude() && reason == "prompt_input_exit":
		return "Resume this session with:\nclaude --resume " + m.session + "\n"
	}
	return ""
}

// codexQuitKey reports whether key quits Codex: Ctrl+C or Ctrl+D with
// an empty composer and no turn to interrupt quit at once.
func (m *model) codexQuitKey(key string) bool {
	return (key == keyCtrlC || key == keyCtrlD) && len(m.input) == 0 && m.turn == nil
}
