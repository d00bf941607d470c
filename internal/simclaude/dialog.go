package simclaude

import (
	"strings"
	"time"
	"unicode"
)

// dialogKind names the dialogs a scenario opens.
type dialogKind int

const (
	dialogPlan dialogKind = iota + 1
	dialogQuestion
	dialogPermission
)

func (k dialogKind) String() string {
	switch k {
	case dialogPlan:
		return "plan"
	case dialogQuestion:
		return "question"
	case dialogPermission:
		return "permission"
	}
	return ""
}

// dialog is an open menu that waits for a person. The prompt box is hidden
// while it shows.
type dialog struct {
	kind     dialogKind
	cursor   int       // highlighted option, 0-based
	typing   bool      // the free-text option has the keyboard
	text     []rune    // what was typed into it
	notifyAt time.Time // Notification permission_prompt if still open then
	codex    bool      // Codex's approval prompt
	copilot  bool      // one of Copilot's dialogs
	opencode bool      // OpenCode's permission prompt
}

// options is how many numbered options the dialog has.
func (d *dialog) options() int {
	switch d.kind {
	case dialogPlan:
		return len(planOptions)
	case dialogQuestion:
		return len(questionOptions) + 2 // "Type something." and "Chat about this"
	}
	if d.codex {
		return 3 // Codex's approval: yes, yes and remember, no
	}
	return 4
}

// textOption is the option that takes typed text, or -1.
func (d *dialog) textOption() int {
	switch d.kind {
	case dialogPlan:
		return 2 // "Tell Claude what to change"
	case dialogQuestion:
		return len(questionOptions) // "Type something."
	}
	return -1
}

func (d *dialog) notifyMessage() string {
	if d.kind == dialogPlan {
		return planMessage
	}
	return permissionMessage
}

// openDialog shows a dialog and pauses the turn's script until it is
// answered; PermissionRequest fires the moment it is drawn.
func (m *model) openDialog(kind dialogKind, call toolCall, now time.Time) {
	m.turn.tool = call
	m.turn.steps = nil
	m.turn.due = time.Time{}
	m.dialog = &dialog{kind: kind, notifyAt: now.Add(m.cfg.PermissionNotify)}
	m.hookPermissionRequest(call)
}

// closeDialog hides the dialog; the prompt box returns.
func (m *model) closeDialog() { m.dialog = nil }

// dialogInput handles one input event while a dialog is open.
func (m *model) dialogInput(ev inputEvent, now time.Time) {
	d := m.dialog
	if s := strings.TrimSpace(string(d.text)); d.typing && ev.key == keyEnter && s != "" {
		m.record(now, LogEntry{Kind: LogSubmit, Text: s})
		m.answerText(s, now)
		return
	}
	m.logInput(ev, now)
	if d.typing {
		m.dialogTyping(ev)
		return
	}
	switch {
	case ev.kind == evText && d.codex && (ev.text[0] == 'y' || ev.text[0] == 'p'):
		// Codex's approval takes y and p as its first two options.
		m.choose(map[byte]int{'y': 0, 'p': 1}[ev.text[0]], now)
	case ev.kind == evText:
		if r := []rune(ev.text); unicode.IsDigit(r[0]) {
			// A digit picks its option at once; the rest of the text is lost.
			if n := int(r[0] - '0'); n >= 1 && n <= d.options() {
				m.choose(n-1, now)
			}
		}
	case ev.key == keyEnter:
		m.choose(d.cursor, now)
	case ev.key == keyUp:
		d.cursor = (d.cursor + d.options() - 1) % d.options()
	case ev.key == keyDown, ev.key == keyTab:
		d.cursor = (d.cursor + 1) % d.options()
	case ev.key == keyEscape:
		m.dismiss(now)
	}
}

// dialogTyping edits the free-text option.
func (m *model) dialogTyping(ev inputEvent) {
	d := m.dialog
	switch {
	case ev.kind == evText || ev.kind == evPaste:
		d.text = append(d.text, []rune(ev.text)...)
	case ev.key == keyBackspace && len(d.text) > 0:
		d.text = d.text[:len(d.text)-1]
	case ev.key == keyCtrlU:
		d.text = nil
	case ev.key == keyEscape:
		d.typing = false
	}
}

// choose takes option i (0-based).
func (m *model) choose(i int, now time.Time) {
	d := m.dialog
	d.cursor = i
	if i == d.textOption() {
		d.typing = true
		return
	}
	switch d.kind {
	case dialogPlan:
		m.acceptPlan(i, now)
	case dialogQuestion:
		if i < len(questionOptions) {
			m.answerQuestion(questionOptions[i].label, now)
			return
		}
		m.dismiss(now) // "Chat about this"
	case dialogPermission:
		switch {
		case d.codex && i < 2:
			m.approve(now)
		case i < 3 && !d.codex:
			m.allowCommand(i, now)
		default:
			m.dismiss(now) // "No"
		}
	}
}

// answerText sends what was typed into the free-text option.
func (m *model) answerText(s string, now time.Time) {
	switch m.dialog.kind {
	case dialogPlan:
		m.revisePlan(s, now)
	case dialogQuestion:
		m.answerQuestion(s, now)
	}
}

// dismiss is Esc (or the option that declines): the turn ends without Stop.
func (m *model) dismiss(now time.Time) {
	if m.dialog.codex {
		m.decline(now)
		return
	}
	kind := m.dialog.kind
	m.closeDialog()
	switch kind {
	case dialogPlan:
		m.appendToLast(resultLine(0, "Rejected Claude's plan:"))
		m.appendToLast(planBox()...)
		m.endTurn(OutcomeRejected, now)
	case dialogQuestion:
		m.appendToLast(resultLine(colorDim, "User declined to answer questions"))
		m.endTurn(OutcomeDeclined, now)
	case dialogPermission:
		m.items[m.turn.toolItem] = item{lines: []line{
			raw("  " + fg(colorDim, "Did not run 1 call")),
			resultLine(colorDim, "$ "+riskyCommand),
			resultLine(colorDim, interruptedLine),
		}}
		m.endTurn(OutcomeDenied, now)
	}
}
