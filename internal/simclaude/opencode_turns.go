package simclaude

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// The OpenCode look's turns, commands and keys. They run on the same turn
// machinery as the other looks'. OpenCode's ordinary turn streams a reply
// and runs no tool; the permission scenario runs a shell command, which
// asks first only with Options.Permission "ask", as OpenCode asks only
// when its config says so. OpenCode has no plan approval and the
// recordings show no question tool: those scenarios are ordinary turns.

// The values of Options.Permission: OpenCode's permission config for its
// bash and edit tools.
const (
	PermissionAllow = "allow" // the default: nothing asks
	PermissionAsk   = "ask"   // "permission": {"bash": "ask", "edit": "ask"}
)

// opencodeState is what only the OpenCode look keeps.
type opencodeState struct {
	agent     int       // index into opencodeAgents, Tab switches
	session   bool      // the session has messages: the session view shows
	tip       bool      // the start screen shows a tip, as after /new
	completed bool      // Enter completed the popup's command into the composer
	tokens    int       // the context of the last reply, 0 before one
	cents     int       // what the session spent
	escAt     time.Time // a first Esc waits for its second
	// last is the last event passed on, a status by its type; ended is
	// why the turn ended, as session.idle will say.
	last, ended string
	tool        *opencodeTool
	retry       opencodeRetry
}

// opencodeTool is the tool call a turn runs: what its row names (the
// command, the file), its arguments, and for a write the file's lines.
type opencodeTool struct {
	name, what string
	lines      []string
	started    time.Time
}

// pending is the tool's row while it waits on the permission prompt.
func (t *opencodeTool) pending() string {
	if t.name == "bash" {
		return "$ " + t.what
	}
	return "← Write " + t.what
}

// opencodeRetry is a failed model call waiting for its retry.
type opencodeRetry struct {
	attempt int
	message string
	next    time.Time
}

func (m *model) opencode() bool { return m.cfg.Look == LookOpenCode }

func (m *model) opencodeAgentLabel() string { return opencodeAgents[m.oc.agent] }

// newOpenCodeID is an id in OpenCode's shape: ses_, msg_, prt_, per_ and
// 26 characters.
func (m *model) newOpenCodeID(prefix string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s_%012x", prefix, m.rng.Uint64()>>16)
	for range 14 {
		b.WriteByte(base62[m.rng.IntN(len(base62))])
	}
	return b.String()
}

// emitOpenCode queues an event as codeman's plugin
// (agents/opencode/opencodehooks/plugin.js) hands it to the hook command:
// its type as the argument, {"type", "properties"} on stdin, the
// properties cut to what the plugin keeps. Like the plugin it passes on
// a busy status or a session.idle only when the session's last event
// was another, and it tells session.idle why the turn ended when an
// error or a rejected permission said so before.
func (m *model) emitOpenCode(event string, props ...field) {
	key := event
	switch event {
	case "session.status":
		key = props[0].value.(object).get("type").(string)
		m.oc.ended = ""
	case "chat.message":
		m.oc.ended = ""
	case "session.idle":
		if m.oc.ended != "" {
			props = append(props, field{"ended", m.oc.ended})
		}
	}
	if (key == "busy" || key == "session.idle") && m.oc.last == key {
		return
	}
	m.oc.last = key
	p := append(object{{"sessionID", m.session}}, props...)
	m.payloads = append(m.payloads, hookCall{arg: event, payload: object{{"type", event}, {"properties", p}}})
}

// opencodeBusy is session.status busy: OpenCode sends it as a turn starts
// and at each model call.
func (m *model) opencodeBusy() {
	m.emitOpenCode("session.status", field{"status", object{{"type", "busy"}}})
}

// opencodeIdle is a turn's last event, session.idle, which OpenCode sends
// twice after an error (the plugin passes it on once); its idle status
// the plugin does not pass on.
func (m *model) opencodeIdle() { m.emitOpenCode("session.idle") }

// opencodeError is session.error with the error's name and message; the
// turn's session.idle names it as why the turn ended.
func (m *model) opencodeError(name, message string) {
	m.emitOpenCode("session.error", field{"error", object{{"name", name}, {"data", object{{"message", message}}}}})
	m.oc.ended = name
}

// opencodeStartPrompt runs a prompt or one of OpenCode's commands now.
func (m *model) opencodeStartPrompt(text string, now time.Time) {
	m.oc.completed = false
	switch firstWord(text) {
	case "/new", "/clear":
		m.opencodeNewSession()
	case "/init":
		m.opencodeInit(text, now)
	default:
		m.opencodeBegin(text, text, now)
		m.schedule(now, m.scenarioSteps(pickScenario(text, false), text)...)
	}
}

// opencodeBegin echoes sent and starts the turn on prompt: the session
// view from the first message on, chat.message and busy.
func (m *model) opencodeBegin(prompt, sent string, now time.Time) {
	m.oc.session, m.oc.tip = true, false
	m.items = append(m.items, opencodeEcho(sent))
	m.oc.escAt, m.oc.tool, m.oc.retry = time.Time{}, nil, opencodeRetry{}
	m.beginTurn(prompt, m.newOpenCodeID("msg"), now, nil)
	m.emitOpenCode("chat.message")
	m.opencodeBusy()
}

// opencodeNewSession is /new: back to the start screen with a tip; the
// next prompt opens a session with a new id. No event says so.
func (m *model) opencodeNewSession() {
	m.session = m.newOpenCodeID("ses")
	m.items = nil
	m.oc.session, m.oc.tip, m.oc.tokens, m.oc.cents, m.oc.last = false, true, 0, 0, ""
	m.lastPromptID = ""
}

// opencodeStream adds a piece to the reply: OpenCode runs the pieces of
// a message together in one paragraph.
func (m *model) opencodeStream(s string) { m.joinReply(s, opencodeReply) }

// opencodeScenario maps a scenario to what OpenCode does.
func opencodeScenario(s scenario) scenario {
	switch s {
	case scenarioPlan, scenarioQuestion, scenarioBackground:
		return scenarioOrdinary
	}
	return s
}

// opencodeSteps is the script of an OpenCode turn.
func (m *model) opencodeSteps(s scenario, prompt string) []step {
	w := m.cfg.Work
	switch s {
	case scenarioLong:
		return m.streamedSteps(m.cfg.Long, prompt)
	case scenarioPermission:
		return []step{{after: w * 2 / 5, run: func(m *model, now time.Time) {
			m.opencodeCall(&opencodeTool{name: "bash", what: opencodeCommand}, "Running it.", now)
		}}}
	case scenarioLimit:
		return m.opencodeFailSteps(opencodeErrorLimit, 429)
	case scenarioError:
		return m.opencodeFailSteps(opencodeError500, 500)
	}
	return m.streamedSteps(w, prompt)
}

// opencodeCall streams intro and calls tool: tool.execute.before, then
// the permission prompt when the config asks, else the tool runs.
func (m *model) opencodeCall(tool *opencodeTool, intro string, now time.Time) {
	m.streamLine(intro)
	m.newReply()
	m.oc.tool = tool
	m.emitOpenCode("tool.execute.before", field{"tool", tool.name})
	if m.cfg.Permission != PermissionAsk {
		m.opencodeRun(now)
		return
	}
	m.turn.steps, m.turn.due = nil, time.Time{}
	m.dialog = &dialog{kind: dialogPermission, opencode: true}
	perm, patterns, meta := "bash", []string{"sleep 6", "echo slow done"}, object{{"command", tool.what}}
	if tool.name != "bash" {
		path := filepath.Join(m.cfg.Cwd, tool.what)
		perm, patterns, meta = "edit", []string{strings.TrimPrefix(path, "/")}, object{{"filepath", path}}
	}
	m.emitOpenCode("permission.asked", field{"permission", perm}, field{"metadata", meta}, field{"patterns", patterns})
}

// opencodeRun runs the turn's tool: a shell command shows its spinner for
// a while, a write is done at once; then the block with its output,
// tool.execute.after, and the model's answer.
func (m *model) opencodeRun(now time.Time) {
	tool := m.oc.tool
	tool.started = now
	done := func(m *model, now time.Time) {
		m.oc.tool = nil
		reply := "The slow command finished."
		if tool.name == "bash" {
			m.items = append(m.items, opencodeBlock(opencodeBlue, "$ "+tool.what, "", opencodeCommandOut))
		} else {
			m.items = append(m.items, opencodeBlock(opencodeBlue, append([]string{"# Wrote " + tool.what, ""}, opencodeNumbered(tool.lines)...)...))
			reply = tool.what + " is written."
		}
		m.emitOpenCode("tool.execute.after", field{"tool", tool.name})
		m.opencodeBusy()
		steps := replySteps(m.cfg.Work/5, reply)
		m.schedule(now, append(steps, step{after: streamGap, run: finishTurn})...)
	}
	if tool.name != "bash" {
		done(m, now)
		return
	}
	m.schedule(now, step{after: m.cfg.Work * 2 / 5, run: done})
}

// opencodeInit is /init: OpenCode sends its prompt, and the model writes
// AGENTS.md (on screen only; no file is touched), asking first when the
// config asks for edits.
func (m *model) opencodeInit(command string, now time.Time) {
	prompt := fmt.Sprintf(opencodeInitPrompt, m.cfg.Cwd)
	m.opencodeBegin(command, prompt, now)
	m.schedule(now, step{after: m.cfg.Work / 2, run: func(m *model, now time.Time) {
		m.opencodeCall(&opencodeTool{name: "write", what: opencodeAgentsFile, lines: opencodeAgentsLines}, "Writing "+opencodeAgentsFile+".", now)
	}})
}

// opencodeFailSteps are a turn whose model calls all fail with status:
// OpenCode retries five times, the state row saying when, then the error
// ends the turn in a "┃" block.
func (m *model) opencodeFailSteps(message string, status int) []step {
	gap := m.cfg.Work / 6
	retry := func(m *model, attempt int, now time.Time) {
		if attempt > 1 {
			m.opencodeBusy()
		}
		m.oc.retry = opencodeRetry{attempt: attempt, message: message, next: now.Add(gap)}
		m.emitOpenCode("session.status", field{"status", object{{"type", "retry"}, {"message", message}}})
	}
	fail := func(m *model, now time.Time) {
		m.opencodeBusy()
		m.oc.retry = opencodeRetry{}
		m.opencodeError("APIError", message)
		m.items = append(m.items, opencodeBlock(opencodeBlue, message))
		outcome := OutcomeError
		if status == 429 {
			outcome = OutcomeLimit
		}
		m.opencodeEnd("", outcome, now)
	}
	return retrySteps(gap, opencodeRetries, retry, fail)
}

// opencodeEnd ends the turn: its footer with suffix, then the idle
// events.
func (m *model) opencodeEnd(suffix, outcome string, now time.Time) {
	if tool := m.oc.tool; tool != nil && m.dialog != nil {
		m.items = append(m.items, item{lines: []line{raw("     " + tool.pending())}})
	}
	m.items = append(m.items, opencodeFooter(m.opencodeAgentLabel(), suffix))
	m.oc.tool, m.oc.retry, m.oc.escAt = nil, opencodeRetry{}, time.Time{}
	m.opencodeIdle()
	m.endTurn(outcome, now)
}

// opencodeFinish ends a turn that worked: the footer gains its time, the
// context and the cost grow.
func (m *model) opencodeFinish(now time.Time) {
	m.oc.tokens = max(m.oc.tokens, 8000) + 60
	m.oc.cents += 2
	m.opencodeEnd(" · "+opencodeTook(now.Sub(m.turn.started)), OutcomeDone, now)
}

// opencodeKey handles OpenCode's own keys at the composer and reports
// whether key was one: Ctrl+C clears the text, or exits on an empty
// composer; Esc twice interrupts a working turn; Tab switches the agent.
func (m *model) opencodeKey(key string, now time.Time) bool {
	switch key {
	case keyCtrlC:
		if len(m.input) == 0 {
			m.exit("user_exit")
		}
		m.input = nil
	case keyEscape:
		if !m.busy() {
			return true
		}
		if armed(m.oc.escAt, now, opencodeEscWindow) {
			m.opencodeError("MessageAbortedError", "Aborted")
			m.opencodeEnd(" · interrupted", OutcomeInterrupted, now)
			return true
		}
		m.oc.escAt = now
	case keyTab:
		m.oc.agent = (m.oc.agent + 1) % len(opencodeAgents)
	default:
		return false
	}
	return true
}

// opencodeComplete is Enter while the slash popup is open: it completes
// the highlighted command into the composer; a second Enter runs it. A
// command typed whole that is its popup's first entry, /new, runs at the
// first Enter (recorded: clear-init-1.18.33.cast), /init does not.
func (m *model) opencodeComplete(now time.Time) bool {
	entries, ok := opencodePopups[string(m.input)]
	if !ok || m.oc.completed || opencodeRunsAtOnce[string(m.input)] {
		return false
	}
	m.record(now, LogEntry{Kind: LogKey, Key: keyEnter})
	m.input = []rune(entries[0][0] + " ")
	m.oc.completed = true
	return true
}

// opencodeDialogInput handles one input event on the permission prompt:
// Left and Right move the highlight, Enter confirms it, Esc rejects.
// "Allow always" asks more than this look models, so Enter on it does
// nothing.
func (m *model) opencodeDialogInput(ev inputEvent, now time.Time) {
	m.logInput(ev, now)
	d := m.dialog
	switch ev.key {
	case keyLeft:
		d.cursor = (d.cursor + 2) % 3
	case keyRight, keyTab:
		d.cursor = (d.cursor + 1) % 3
	case keyEnter:
		switch d.cursor {
		case 0:
			m.opencodeReply("once")
			m.closeDialog()
			m.opencodeRun(now)
		case 2:
			m.opencodeReject(now)
		}
	case keyEscape:
		m.opencodeReject(now)
	}
}

func (m *model) opencodeReply(reply string) {
	m.emitOpenCode("permission.replied", field{"reply", reply})
	if reply == "reject" {
		m.oc.ended = "rejected"
	}
}

// opencodeReject is Esc on the prompt: the tool does not run and the
// turn is over, without an error.
func (m *model) opencodeReject(now time.Time) {
	m.opencodeReply("reject")
	m.opencodeEnd("", OutcomeDenied, now)
}

// opencodeExitNote is what OpenCode prints as it leaves: the logo, the
// session's title and how to continue it.
func (m *model) opencodeExitNote() string {
	if !m.oc.session {
		return ""
	}
	var b strings.Builder
	for _, l := range opencodeLogo {
		b.WriteString("  " + l + "\n")
	}
	fmt.Fprintf(&b, "\n  Session   %s\n  Continue  opencode -s %s\n\n", opencodeTitle, m.session)
	return b.String()
}
