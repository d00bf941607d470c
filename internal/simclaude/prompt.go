package simclaude

import (
	"strings"
	"time"
)

// promptInput handles a key, text or paste while no dialog is open.
func (m *model) promptInput(ev inputEvent, now time.Time) {
	switch ev.kind {
	case evText, evPaste:
		m.logInput(ev, now)
		m.typeText(ev.text)
		if m.codex() && ev.kind == evText {
			m.notePasteBurst(ev.text, now)
		}
	case evKey:
		if m.codex() && ev.key == keyEnter && m.inPasteBurst(now) {
			// Codex takes it for a newline of the paste.
			m.record(now, LogEntry{Kind: LogKey, Key: keyEnter, Text: "\n"})
			m.input = append(m.input, '\n')
			m.cx.burstAt = now
			return
		}
		if m.copilot() && ev.key == keyEnter && m.cp.read.paste() {
			// Copilot drops the CR of a paste; it is logged as Codex's
			// newline is, an Enter taken into a paste.
			m.record(now, LogEntry{Kind: LogKey, Key: keyEnter, Text: "\n"})
			return
		}
		if m.opencode() && ev.key == keyEnter && m.opencodeComplete(now) {
			return
		}
		if ev.key == keyEnter && m.submittable() != "" {
			m.submit(m.submittable(), now)
			return
		}
		m.logInput(ev, now)
		m.promptKey(ev.key, now)
	}
}

func (m *model) typeText(s string) {
	m.input = append(m.input, []rune(s)...)
	m.ctrlCUntil = time.Time{}
}

// promptKey handles a named key that does not submit.
func (m *model) promptKey(key string, now time.Time) {
	if key != keyCtrlC {
		m.ctrlCUntil = time.Time{}
	}
	if m.copilot() && m.copilotKey(key, now) {
		return
	}
	if m.opencode() && m.opencodeKey(key, now) {
		return
	}
	switch key {
	case keyNewline:
		m.input = append(m.input, '\n')
	case keyBackspace:
		if n := len(m.input); n > 0 {
			m.input = m.input[:n-1]
		}
	case keyCtrlU:
		// Claude's ctrl+u deletes back to the start of the current line.
		i := strings.LastIndex(string(m.input), "\n")
		m.input = []rune(string(m.input)[:i+1])
	case keyEscape:
		m.escape(now)
	case keyCtrlC, keyCtrlD:
		if m.codex() {
			m.codexCtrlC(key, now)
			return
		}
		if key == keyCtrlC {
			m.ctrlC(now)
		}
	case keyShiftTab:
		m.mode = m.mode.next()
	case keyUp:
		m.editQueued()
	}
}

// submittable is the prompt that Enter would submit, or "". With the slash
// menu open, Enter takes the highlighted command.
func (m *model) submittable() string {
	text := strings.TrimSpace(string(m.input))
	if cmds := slashMatches(m.commands(), string(m.input)); len(cmds) > 0 {
		return cmds[0].name
	}
	return text
}

func (m *model) escape(now time.Time) {
	switch {
	case m.busy():
		m.interrupt(now)
	case m.limit != nil && m.limit.auto && len(m.input) == 0:
		m.cancelAutoContinue()
	}
}

func (m *model) ctrlC(now time.Time) {
	switch {
	case len(m.input) > 0:
		m.input = nil
	case now.Before(m.ctrlCUntil):
		m.exit("prompt_input_exit")
	default:
		m.ctrlCUntil = now.Add(ctrlCWindow)
	}
}

// editQueued pulls queued prompts back into the input, as Up does when the
// placeholder says "Press up to edit queued messages".
func (m *model) editQueued() {
	if len(m.input) > 0 {
		return
	}
	var texts []string
	var keep []queuedPrompt
	for _, q := range m.queue {
		if q.hidden {
			keep = append(keep, q)
			continue
		}
		texts = append(texts, q.text)
	}
	m.queue = keep
	m.input = []rune(strings.Join(texts, "\n"))
}

// exit ends the program with SessionEnd reason.
func (m *model) exit(reason string) {
	m.hookSessionEnd(reason)
	m.signal("clear", "")
	m.quit = reason
}

// submit sends a prompt: it runs now, or queues while a turn works.
func (m *model) submit(text string, now time.Time) {
	m.input = nil
	m.resend = false
	m.limitCancelled = false
	m.ctrlCUntil = time.Time{}
	m.noticeUntil = time.Time{}
	m.idleNotifyAt = time.Time{}
	if m.turn != nil {
		m.record(now, LogEntry{Kind: LogQueued, Text: text})
		m.queue = append(m.queue, queuedPrompt{text: text, at: now})
		// Claude fires UserPromptSubmit for a queued prompt when it is
		// queued, Codex when it runs.
		if m.claude() {
			m.hookUserPromptSubmit(newUUID(m.rng), text)
		}
		return
	}
	m.record(now, LogEntry{Kind: LogSubmit, Text: text})
	m.startPrompt(text, true, now)
}

// startPrompt runs a prompt or slash command now. announce fires
// UserPromptSubmit (Claude's queued prompts fired it when they were queued).
func (m *model) startPrompt(text string, announce bool, now time.Time) {
	m.noticeUntil = time.Time{}
	m.idleNotifyAt = time.Time{}
	switch {
	case m.codex():
		m.codexStartPrompt(text, announce, now)
		return
	case m.copilot():
		m.copilotStartPrompt(text, announce, now)
		return
	case m.opencode():
		m.opencodeStartPrompt(text, now)
		return
	}
	switch firstWord(text) {
	case "/clear":
		m.clear(now)
	case "/exit", "/quit":
		m.exit("prompt_input_exit")
	case "/compact":
		m.compact(text, now)
	case "/init":
		m.initProject(text, announce, now)
	default:
		m.items = append(m.items, promptEcho(text))
		promptID := newUUID(m.rng)
		if announce {
			m.hookUserPromptSubmit(promptID, text)
		}
		m.beginTurn(text, promptID, now, m.scenarioSteps(pickScenario(text, m.limitActive(now)), text))
	}
}

func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}

// clear resets the transcript and starts a new session, like /clear.
func (m *model) clear(now time.Time) {
	m.hookSessionEnd("clear")
	m.session = newUUID(m.rng)
	m.hookSessionStart("clear", false)
	m.items = []item{promptEcho("/clear")}
	if m.limit != nil {
		m.limit.item = -1 // its line went with the transcript
	}
	m.resend = false
	m.lastPromptID = ""
}

// startQueued runs what waited for the previous turn: visible prompts go
// together as one prompt, as Claude sends them; a hidden one runs alone.
func (m *model) startQueued(now time.Time) {
	if len(m.queue) == 0 || m.turn != nil || m.quit != "" {
		return
	}
	if m.queue[0].hidden {
		q := m.queue[0]
		m.queue = m.queue[1:]
		m.taskNotificationTurn(q.text, now)
		return
	}
	var texts []string
	var keep []queuedPrompt
	for _, q := range m.queue {
		if q.hidden {
			keep = append(keep, q)
			continue
		}
		texts = append(texts, q.text)
	}
	m.queue = keep
	m.startPrompt(strings.Join(texts, "\n"), !m.claude(), now)
}

// slashCommand is one entry of the menu that typing "/" opens.
type slashCommand struct{ name, description string }

var slashCommands = []slashCommand{
	{"/clear", "Start a new session with empty context; previous session stays on disk (resumable with /resume)"},
	{"/compact", "Clear conversation history but keep a summary in context. Optional: /compact [instructions for summarization]"},
	{"/exit", "Exit the REPL"},
	{"/init", "Initialize a new CLAUDE.md file with codebase documentation"},
}

// slashMatches lists the commands of cmds the menu shows for input: only
// while the input is a single word starting with "/".
func slashMatches(cmds []slashCommand, input string) []slashCommand {
	if !strings.HasPrefix(input, "/") || strings.ContainsAny(input, " \n") {
		return nil
	}
	var out []slashCommand
	for _, c := range cmds {
		if strings.HasPrefix(c.name, input) {
			out = append(out, c)
		}
	}
	return out
}
