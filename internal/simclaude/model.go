package simclaude

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Timing of the screen itself.
const (
	spinnerFrame   = 200 * time.Millisecond // spinner glyph and counter refresh
	streamGap      = 250 * time.Millisecond // between streamed reply lines
	toolRun        = 150 * time.Millisecond // PreToolUse to PostToolUse of a quick tool
	ctrlCWindow    = 2 * time.Second        // second Ctrl-C within this exits
	startNoticeFor = 3 * time.Second        // "◐ medium · /effort" after start
)

// permMode is the permission mode that shift+tab cycles.
type permMode int

const (
	modeManual permMode = iota
	modeAcceptEdits
	modePlan
	modeAuto
)

// payloadName is the permission_mode value of hook payloads.
func (p permMode) payloadName() string {
	return [...]string{"default", "acceptEdits", "plan", "auto"}[p]
}

func (p permMode) next() permMode { return (p + 1) % 4 }

// queuedPrompt waits for the running turn to end. Hidden prompts (a
// background agent's task notification) are not shown in the transcript.
type queuedPrompt struct {
	text   string
	hidden bool
	at     time.Time // when it was submitted
}

// model is the whole simulated session: no goroutines, no clock, no I/O.
// Every method takes the current time; effects pile up in payloads and logs
// for the loop to drain.
type model struct {
	cfg     Options
	rng     *rand.Rand
	home    string
	session string // session_id, new after /clear
	mode    permMode

	items  []item
	input  []rune
	resend bool // input placeholder after an API error
	queue  []queuedPrompt
	turn   *turn
	dialog *dialog
	limit  *usageLimit
	agent  *backgroundAgent

	agentsRan      bool      // footer offers /tasks once a subagent ran
	limitCancelled bool      // notice after Esc cancelled the automatic continue
	ctrlCUntil     time.Time // footer asks for a second Ctrl-C until then
	noticeUntil    time.Time // effort notice after start
	idleNotifyAt   time.Time // Notification idle_prompt, once per idle period
	lastPromptID   string

	cx codexState    // the Codex look's own state
	cp copilotState  // the Copilot look's own state
	oc opencodeState // the OpenCode look's own state

	payloads []hookCall // hook payloads to run, in order
	logs     []LogEntry // log entries to write, in order
	quit     string     // SessionEnd reason once the program should exit
}

func newModel(cfg Options) *model {
	seed := uint64(cfg.Seed)
	if seed == 0 {
		seed = rand.Uint64()
	}
	m := &model{
		cfg:  cfg,
		rng:  rand.New(rand.NewPCG(seed, seed>>1|1)),
		home: os.Getenv("HOME"),
	}
	m.session = newUUID(m.rng)
	return m
}

// start fires SessionStart (Codex: with the first prompt) and submits
// --prompt.
func (m *model) start(now time.Time) {
	m.cp.now = now
	switch {
	case m.codex():
		m.cx.sessionAt, m.cx.source = now, "startup"
		m.signal("idle", "")
	case m.copilot():
		// Copilot too fires sessionStart with the first prompt.
		m.cp.started, m.cp.source = now, "new"
		m.items = copilotStartItems()
	case m.opencode():
		// OpenCode runs no hook at start; its session is made with the
		// first prompt.
		m.session = m.newOpenCodeID("ses")
	default:
		m.noticeUntil = now.Add(startNoticeFor)
		m.hookSessionStart("startup", true)
	}
	if strings.TrimSpace(m.cfg.Prompt) != "" {
		m.startPrompt(m.cfg.Prompt, true, now)
	}
}

// busy reports whether a turn works (spinner or streaming) with no dialog
// open: the footer then says "esc to interrupt".
func (m *model) busy() bool { return m.turn != nil && m.dialog == nil }

func (m *model) dialogName() string {
	if m.dialog == nil {
		return ""
	}
	return m.dialog.kind.String()
}

func (m *model) transcriptPath() string {
	switch {
	case m.codex():
		return m.codexTranscriptPath()
	case m.copilot():
		return m.copilotTranscriptPath()
	}
	return filepath.Join(m.home, ".claude", "projects", projectKey(m.cfg.Cwd), m.session+".jsonl")
}

// record queues a log entry stamped with the state before the event.
func (m *model) record(now time.Time, e LogEntry) {
	e.T = now
	e.Busy = m.busy()
	e.Dialog = m.dialogName()
	m.logs = append(m.logs, e)
}

// onRead handles the events of one read of the terminal: Copilot tells
// a paste by what one read holds.
func (m *model) onRead(events []inputEvent, now time.Time) {
	m.cp.read = statsOf(events)
	for _, ev := range events {
		m.onInput(ev, now)
	}
}

// onInput handles one decoded input event.
func (m *model) onInput(ev inputEvent, now time.Time) {
	m.cp.now = now
	if m.dialog != nil && m.dialog.opencode {
		m.opencodeDialogInput(ev, now)
		return
	}
	if m.dialog != nil && m.dialog.copilot {
		m.copilotDialogInput(ev, now)
		return
	}
	if m.dialog != nil {
		m.dialogInput(ev, now)
		return
	}
	m.promptInput(ev, now)
}

// logInput records an event that does not submit.
func (m *model) logInput(ev inputEvent, now time.Time) {
	switch ev.kind {
	case evText:
		m.record(now, LogEntry{Kind: LogKey, Text: ev.text})
	case evKey:
		m.record(now, LogEntry{Kind: LogKey, Key: ev.key})
	case evPaste:
		m.record(now, LogEntry{Kind: LogPaste, Text: ev.text})
	}
}

// advance runs everything due at now: turn steps and timers.
func (m *model) advance(now time.Time) {
	m.cp.now = now
	for range 1000 { // a bound against a step that reschedules itself at once
		if m.quit != "" || !(m.runDueStep(now) || m.fireTimer(now)) {
			return
		}
	}
}

// fireTimer fires one due timer and reports whether it did. Like steps,
// a timer acts at its own time, not at the loop's.
func (m *model) fireTimer(now time.Time) bool {
	switch {
	case m.dialog != nil && due(m.dialog.notifyAt, now):
		m.dialog.notifyAt = time.Time{}
		m.hookNotification(m.dialog.notifyMessage(), "permission_prompt")
	case due(m.idleNotifyAt, now):
		m.idleNotifyAt = time.Time{}
		m.hookNotification(idleMessage, "idle_prompt")
	case m.agent != nil && due(m.agent.doneAt, now):
		m.agentFinished(m.agent.doneAt)
	case m.limit != nil && due(m.limit.resetAt, now):
		m.limitReset(m.limit.resetAt)
	default:
		return false
	}
	return true
}

func due(at, now time.Time) bool { return !at.IsZero() && !now.Before(at) }

// nextDeadline is when the model next needs advance or a repaint; zero
// means only input can change anything.
func (m *model) nextDeadline(now time.Time) time.Time {
	var next time.Time
	consider := func(t time.Time) {
		if !t.IsZero() && t.After(now) && (next.IsZero() || t.Before(next)) {
			next = t
		}
	}
	if m.turn != nil {
		consider(m.turn.due)
		switch {
		case m.codex() && m.dialog != nil:
			consider(nextTick(m.turn.started, now, codexBlink))
		case m.codex():
			consider(nextTick(m.turn.started, now, codexTitleFrame))
		case m.copilot() && m.dialog == nil:
			consider(nextTick(m.turn.started, now, copilotGlyphFrame))
			if m.cp.escArmed(now) {
				consider(m.cp.escAt.Add(copilotEscWindow))
			}
		case m.opencode() && m.dialog == nil:
			consider(nextTick(m.turn.started, now, opencodeBarFrame))
		case m.spinnerVisible():
			consider(nextTick(m.turn.started, now, spinnerFrame))
		}
	}
	if m.dialog != nil {
		consider(m.dialog.notifyAt)
	}
	if m.agent != nil {
		consider(m.agent.doneAt)
		consider(nextTick(m.agent.started, now, time.Second))
	}
	if m.limit != nil {
		consider(m.limit.resetAt)
	}
	consider(m.idleNotifyAt)
	consider(m.ctrlCUntil)
	consider(m.noticeUntil)
	return next
}

// nextTick is the first from+k*every after now.
func nextTick(from, now time.Time, every time.Duration) time.Time {
	if now.Before(from) {
		return from
	}
	k := now.Sub(from)/every + 1
	return from.Add(k * every)
}
