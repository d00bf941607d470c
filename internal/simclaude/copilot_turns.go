package simclaude

import (
	"fmt"
	"strings"
	"time"
)

// The Copilot look's turns and commands. They run on the same turn
// machinery as the other looks'. Copilot's ordinary turn streams a reply
// and runs no tool: even a read-only shell command may ask first.

// Copilot's execution modes, which Shift+Tab cycles.
const (
	copilotInteractive = iota
	copilotPlan
	copilotAutopilot
)

var copilotModes = []string{"Interactive", "Plan", "Autopilot"}

// Copilot's tool names, as its hooks report them.
const (
	copilotToolShell = "bash"
	copilotToolPatch = "apply_patch"
	copilotToolAsk   = "ask_user"
	copilotToolPlan  = "exit_plan_mode"
)

// copilotState is what only the Copilot look keeps.
type copilotState struct {
	now         time.Time // the time hook payloads are stamped with
	started     time.Time // the program's start, for the exit summary
	mode        int
	sessionOpen bool     // sessionStart fired: with a session's first prompt
	source      string   // sessionStart source of the next session
	open        []string // sessions sessionStart opened that no sessionEnd closed
	ended       []string // the sessions the exit ended, to resume
	titled      string   // the session's first prompt, named in the title
	escAt       time.Time
	bytes       int  // reply bytes streamed this turn
	output      bool // something came back this turn
	echo        int  // the running prompt's echo among the items
	toolAt      time.Time
	read        readStats // the read the events under way came in
}

// readStats sum up one read of the terminal: Copilot takes a read of at
// least copilotPasteChars characters (a CR counting), or one with a
// newline, for a paste, and drops its CR.
type readStats struct {
	chars   int
	newline bool
}

func statsOf(events []inputEvent) readStats {
	var r readStats
	for _, ev := range events {
		switch {
		case ev.kind == evText || ev.kind == evPaste:
			r.chars += len([]rune(ev.text))
			r.newline = r.newline || strings.Contains(ev.text, "\n")
		case ev.key == keyEnter:
			r.chars++
		case ev.key == keyNewline:
			r.newline = true
		}
	}
	return r
}

func (r readStats) paste() bool { return r.chars >= copilotPasteChars || r.newline }

// escArmed reports whether a first Esc waits for its second.
func (c *copilotState) escArmed(now time.Time) bool { return armed(c.escAt, now, copilotEscWindow) }

// copilotStartItems are the transcript of a fresh start: the logo, a
// tip and the MCP line.
func copilotStartItems() []item {
	logo := item{}
	for _, l := range copilotLogo {
		color := copilotBlue
		if strings.Contains(l[0], "█") || strings.Contains(l[0], "▔") {
			color = 5
		}
		logo.lines = append(logo.lines, raw(fg(color, l[0])+l[1]))
	}
	tip := item{lines: []line{
		raw(copilotDot(copilotBlue) + "Tip: /app"),
		raw("   └ Prefer a visual workspace? Try out the GitHub Copilot desktop app"),
		raw("     " + nbsp + "\x1b[4m" + fg(copilotCyan, "https://github.com/features/ai/github-app") + "\x1b[24m" + nbsp),
	}}
	return []item{logo, tip, copilotNote(copilotMCP)}
}

func copilotDot(color int) string { return " " + fg(color, "●") + " " }

// copilotNote is " ● text", a line of Copilot's own.
func copilotNote(s string) item { return item{lines: []line{text(copilotDot(copilotBlue), 0, s)}} }

// copilotEcho is a submitted prompt, " ❯ text" with the time at the right;
// the lines of a pasted prompt run together.
func copilotEcho(prompt string, at time.Time) item {
	return item{lines: []line{{lead: " ❯ ", body: strings.ReplaceAll(prompt, "\n", ""), right: at.Format("15:04")}}}
}

// copilotTool is a tool row: " $ Shell Delete the build output" with the
// command under it, or " ● Edit  Create …".
func copilotTool(mark, name, what, detail, right string) line {
	return line{raw: " " + mark + " " + bold(name+" ") + what + detail, right: right}
}

func copilotSeconds(d time.Duration) string { return fmt.Sprintf("%ds", int(d/time.Second)) }

// copilotPrompt starts an ordinary prompt (or a scenario's).
func (m *model) copilotPrompt(text string, announce bool, now time.Time) {
	m.items = append(m.items, copilotEcho(text, now))
	m.copilotBegin(text, announce, text, now)
	m.schedule(now, m.scenarioSteps(pickScenario(text, false), text)...)
}

// copilotBegin opens the session if this is its first prompt and starts
// the turn; sent is what userPromptSubmitted carries.
func (m *model) copilotBegin(text string, announce bool, sent string, now time.Time) {
	m.cp.echo = len(m.items) - 1
	if !m.cp.sessionOpen {
		m.cp.sessionOpen = true
		m.cp.open = append(m.cp.open, m.session)
		m.cp.titled = text
		m.emitCopilot("sessionStart", field{"source", m.cp.source}, field{"initialPrompt", sent})
	}
	m.cp.bytes, m.cp.output, m.cp.escAt = 0, false, time.Time{}
	m.beginTurn(text, newUUID(m.rng), now, nil)
	if announce {
		m.emitCopilot("userPromptSubmitted", field{"prompt", sent})
		m.emitCopilot("userPromptTransformed", field{"prompt", sent},
			field{"transformedPrompt", "<current_datetime>" + now.Format("2006-01-02T15:04:05.000-07:00") + "</current_datetime>\n\n" + sent})
	}
}

// streamedSteps stream a reply in two pieces and finish, running no tool:
// the ordinary turn of the Copilot and OpenCode looks.
func (m *model) streamedSteps(work time.Duration, prompt string) []step {
	steps := replySteps(work*2/5, "I checked the project and took care of it:")
	steps = append(steps, step{after: work * 3 / 5, run: func(m *model, _ time.Time) { m.streamLine(quoteFirstLine(prompt)) }})
	return append(steps, step{after: streamGap, run: finishTurn})
}

// copilotStream adds a piece to the reply: Copilot runs the pieces of a
// message together in one paragraph.
func (m *model) copilotStream(s string) {
	m.cp.bytes += len(s)
	m.cp.output = true
	m.joinReply(s, func(reply string) item { return item{lines: []line{text(copilotDot(copilotText), 0, reply)}} })
}

// copilotText is the default foreground: a reply's bullet is not coloured.
const copilotText = 7

// copilotNewSession is /clear or /reset (the session ends) and /new (it
// stays open until the program exits): the transcript goes, and the next
// prompt opens a session with a new id.
func (m *model) copilotNewSession(note string, end bool) {
	if end {
		m.copilotEndSession(m.session)
	}
	m.session = newUUID(m.rng)
	m.cp.sessionOpen, m.cp.source, m.cp.titled = false, "new", ""
	m.items = []item{copilotNote(note), copilotNote(copilotMCP)}
	m.lastPromptID = ""
}

// copilotEndSession fires sessionEnd for an open session.
func (m *model) copilotEndSession(id string) {
	for i, s := range m.cp.open {
		if s == id {
			m.cp.open = append(m.cp.open[:i], m.cp.open[i+1:]...)
			m.emitCopilotAs(id, "sessionEnd", field{"reason", "user_exit"})
			return
		}
	}
}

// copilotInterrupt is the second Esc: before any output the prompt is
// taken back into the box, after it the turn is cancelled. No hook runs.
func (m *model) copilotInterrupt(now time.Time) {
	m.cp.escAt = time.Time{}
	if !m.cp.output && m.cp.echo >= 0 && m.cp.echo < len(m.items) {
		m.items = append(m.items[:m.cp.echo], m.items[m.cp.echo+1:]...)
		m.input = append([]rune(m.turn.prompt), m.input...)
	} else {
		m.items = append(m.items, copilotNote(copilotCancelled))
	}
	m.endTurn(OutcomeInterrupted, now)
}

// copilotFailSteps are a turn whose model calls all fail: the first
// attempt and five retries, errorOccurred for each, a "Retrying..." row
// per retry when retried shows them, and the "✗" row at the end.
func (m *model) copilotFailSteps(message string, apiError object, retried bool, outcome string) []step {
	gap := m.cfg.Work / 6
	failed := func(m *model) {
		m.emitCopilot("errorOccurred", field{"errorContext", "model_call"}, field{"recoverable", true},
			field{"error", copilotError(apiError)})
	}
	retry := func(m *model, _ int, _ time.Time) {
		failed(m)
		if retried {
			m.items = append(m.items, copilotNote(copilotRetrying))
		}
	}
	fail := func(m *model, now time.Time) {
		failed(m)
		wait := float64(5*gap) / float64(time.Second)
		m.items = append(m.items, item{lines: []line{{lead: " " + fg(copilotRed, "✗") + " ", body: fmt.Sprintf(copilotFailed, wait, message)}}})
		m.endTurn(outcome, now)
	}
	return retrySteps(gap, 5, retry, fail)
}

// copilotError is errorOccurred's error: the API's error JSON as its
// message.
func copilotError(apiError object) object {
	b, _ := apiError.encode() // plain values always encode
	return object{{"message", string(b)}, {"name", "Error"}, {"stack", "Error: " + string(b) + "\n   0: <unknown>"}}
}

func (m *model) copilotAPIErrorSteps() []step {
	body := object{{"code", nil}, {"message", "The server had an error while processing your request (fake)"}, {"param", nil}, {"type", "server_error"}}
	return m.copilotFailSteps(copilotError500, body, true, OutcomeError)
}

// copilotLimitSteps are the 429 of a usage limit: Copilot retries it
// without a row and names no reset.
func (m *model) copilotLimitSteps() []step {
	body := object{{"code", nil}, {"message", "The usage limit has been reached (fake)"}, {"param", nil},
		{"plan_type", "plus"}, {"type", "usage_limit_reached"}}
	return m.copilotFailSteps(copilotError429, body, false, OutcomeLimit)
}

// copilotScenario maps a scenario to what Copilot does: the model can
// present a plan only in plan mode, and a delegated task runs in the
// turn.
func (m *model) copilotScenario(s scenario) scenario {
	switch {
	case s == scenarioPlan && m.cp.mode != copilotPlan, s == scenarioBackground:
		return scenarioOrdinary
	}
	return s
}

// copilotSteps is the script of a Copilot turn.
func (m *model) copilotSteps(s scenario, prompt string) []step {
	w := m.cfg.Work
	switch s {
	case scenarioLong:
		return m.streamedSteps(m.cfg.Long, prompt)
	case scenarioPlan:
		return []step{{after: w, run: (*model).copilotOpenPlan}}
	case scenarioQuestion:
		return []step{{after: w, run: (*model).copilotOpenQuestion}}
	case scenarioPermission:
		return []step{{after: w, run: (*model).copilotOpenShell}}
	case scenarioLimit:
		return m.copilotLimitSteps()
	case scenarioError:
		return m.copilotAPIErrorSteps()
	}
	return m.streamedSteps(w, prompt)
}

// copilotCompact is /compact: preCompact, then "● Compaction completed"
// and the turn's end; the command is not echoed.
func (m *model) copilotCompact(command string, now time.Time) {
	m.beginTurn(command, newUUID(m.rng), now, nil)
	m.cp.bytes, m.cp.output, m.cp.escAt, m.cp.echo = 0, false, time.Time{}, -1
	m.emitCopilot("preCompact", field{"transcriptPath", m.copilotTranscriptPath()}, field{"trigger", "manual"}, field{"customInstructions", ""})
	m.schedule(now, step{after: m.cfg.Work, run: func(m *model, now time.Time) {
		m.items = append(m.items, item{lines: []line{
			raw(copilotDot(copilotBlue) + bold("Compaction completed")),
			raw("   │ A new checkpoint has been added to your session."),
			raw("   └ Use " + fg(copilotCyan, "/session checkpoints 1") + " to view the compaction summary."),
		}})
		m.endTurn(OutcomeCompacted, now)
	}})
}

// copilotExitNote is the summary Copilot prints as it leaves.
func (m *model) copilotExitNote() string {
	rows := [][2]string{{"Changes", "+0 -0"}, {"Duration", FormatDuration(m.cp.now.Sub(m.cp.started))}}
	ids := m.cp.ended
	if len(ids) == 0 {
		ids = []string{m.session}
	}
	for i, id := range ids {
		resume := "copilot --resume=" + id
		if len(ids) > 1 {
			resume = fmt.Sprintf("%d) %s", i+1, resume)
		}
		rows = append(rows, [2]string{"Resume", resume})
	}
	var b strings.Builder
	b.WriteString("\n\n")
	for i := range max(len(rows), len(copilotLogo)) {
		row := ""
		if i < len(copilotLogo) {
			row = copilotLogo[i][0]
		}
		if i < len(rows) {
			row += strings.Repeat(" ", 11-len([]rune(row))) + fmt.Sprintf("%-11s%s", rows[i][0], rows[i][1])
		}
		b.WriteString(row + "\n")
	}
	return b.String()
}

// copilotTitle is "GitHub Copilot", "<first prompt> - GitHub Copilot" once
// the session's first prompt is sent.
func (m *model) copilotTitle() string {
	if m.cp.titled == "" {
		return copilotTitle
	}
	return m.cp.titled + " - " + copilotTitle
}
