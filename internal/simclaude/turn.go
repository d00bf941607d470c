package simclaude

import (
	"strings"
	"time"
)

// step is one scripted moment of a turn, after a delay from the previous one.
type step struct {
	after time.Duration
	run   func(m *model, now time.Time)
}

// turn is the model's work on one prompt.
type turn struct {
	prompt    string
	promptID  string
	started   time.Time
	verb      string // spinner verb, fixed for the turn
	tip       string
	streaming bool // reply text is appearing: the spinner row is gone
	steps     []step
	due       time.Time // when steps[0] runs; zero while a dialog waits
	reply     []string  // assistant text so far, for last_assistant_message
	replyItem int       // index of the item being streamed, -1 before
	toolItem  int       // index of the tool call item a dialog is about
	tool      toolCall  // the tool call a dialog is about
}

// beginTurn starts working on prompt with the given script.
func (m *model) beginTurn(prompt, promptID string, now time.Time, steps []step) {
	m.lastPromptID = promptID
	m.record(now, LogEntry{Kind: LogTurnStart, Text: prompt})
	m.turn = &turn{
		prompt:    prompt,
		promptID:  promptID,
		started:   now,
		verb:      spinnerVerbs[m.rng.IntN(len(spinnerVerbs))],
		tip:       tips[m.rng.IntN(len(tips))],
		replyItem: -1,
		toolItem:  -1,
	}
	if m.codex() && m.cx.titleAt.IsZero() {
		m.cx.titleAt = now.Add(codexTitleAfter)
	}
	m.signal("working", "")
	m.schedule(now, steps...)
}

// schedule replaces the rest of the turn's script; the spinner comes back
// until a step streams text.
func (m *model) schedule(now time.Time, steps ...step) {
	t := m.turn
	t.steps = steps
	t.streaming = false
	t.due = time.Time{}
	if len(steps) > 0 {
		t.due = now.Add(steps[0].after)
	}
}

// runDueStep runs the turn's next step if it is due.
func (m *model) runDueStep(now time.Time) bool {
	t := m.turn
	if t == nil || !due(t.due, now) {
		return false
	}
	s := t.steps[0]
	at := t.due
	t.steps = t.steps[1:]
	t.due = time.Time{}
	if len(t.steps) > 0 {
		t.due = at.Add(t.steps[0].after)
	}
	// Steps run at their scheduled time, so a late loop does not stretch
	// the turn's duration or shift the timers it arms.
	m.cp.now = at
	s.run(m, at)
	return true
}

// endTurn leaves the turn; outcomes that fired Stop or StopFailure start
// the idle period that ends in Notification idle_prompt.
func (m *model) endTurn(outcome string, now time.Time) {
	m.record(now, LogEntry{Kind: LogTurnEnd, Text: m.turn.prompt, Outcome: outcome})
	m.turn = nil
	m.dialog = nil
	switch outcome {
	case OutcomeDone, OutcomeWaiting, OutcomeError, OutcomeLimit, OutcomeCompacted:
		if m.claude() { // Codex has no Notification event, Copilot none for idle
			m.idleNotifyAt = now.Add(m.cfg.IdleNotify)
		}
	}
	m.startQueued(now)
}

// interrupt stops the turn like Escape: no Stop hook, no completion line.
func (m *model) interrupt(now time.Time) {
	if m.codex() {
		m.items = append(m.items, item{lines: []line{codexErrorLine(codexInterrupted)}})
		m.endRequest("cancelled", "")
		m.hookInterrupt()
		m.signal("idle", "")
		m.endTurn(OutcomeInterrupted, now)
		return
	}
	m.appendToLast(resultLine(colorDim, interruptedLine))
	m.endTurn(OutcomeInterrupted, now)
}

// appendToLast adds lines to the last transcript item, the way Claude puts
// a ⎿ result right under the call or prompt it belongs to.
func (m *model) appendToLast(lines ...line) {
	if len(m.items) == 0 {
		m.items = append(m.items, item{})
	}
	last := &m.items[len(m.items)-1]
	last.lines = append(last.lines, lines...)
}

// replySteps streams lines as an assistant message, one line per streamGap,
// the first after a pause of after.
func replySteps(after time.Duration, lines ...string) []step {
	steps := make([]step, len(lines))
	for i, l := range lines {
		steps[i] = step{after: streamGap, run: func(m *model, _ time.Time) { m.streamLine(l) }}
	}
	steps[0].after = after
	return steps
}

// streamLine shows one more line of the reply; while text streams the
// spinner row is gone and only the footer says the turn is busy.
func (m *model) streamLine(s string) {
	switch {
	case m.copilot():
		m.copilotStream(s)
		return
	case m.opencode():
		m.opencodeStream(s)
		return
	}
	t := m.turn
	t.streaming = true
	t.reply = append(t.reply, s)
	if t.replyItem < 0 {
		first := assistantLine(s)
		if m.codex() {
			first = codexBullet(s)
		}
		m.items = append(m.items, item{lines: []line{first}})
		t.replyItem = len(m.items) - 1
		return
	}
	m.items[t.replyItem].lines = append(m.items[t.replyItem].lines, text("  ", 0, s))
}

// newReply makes the next streamed line start a new assistant message;
// until then the spinner is back.
func (m *model) newReply() {
	m.turn.replyItem = -1
	m.turn.reply = nil
	m.turn.streaming = false
}

// finishTurn ends a turn that worked: Stop, then the completion line.
func finishTurn(m *model, now time.Time) {
	m.endRequest("completed", "")
	m.hookStop(strings.Join(m.turn.reply, "\n"), nil)
	switch {
	case m.codex():
		m.items = append(m.items, codexCompletion(now.Sub(m.turn.started), now))
		m.bell()
		m.signal("done", "")
	case m.copilot(): // nothing marks the end but the idle row
	case m.opencode():
		m.opencodeFinish(now)
		return
	default:
		m.items = append(m.items, completionItem(m.completionVerb(), now.Sub(m.turn.started), now))
	}
	m.endTurn(OutcomeDone, now)
}

func (m *model) completionVerb() string {
	return completionVerbs[m.rng.IntN(len(completionVerbs))]
}

// bashSteps run the read-only Bash call of an ordinary turn.
func (m *model) bashSteps(after time.Duration) []step {
	if m.codex() {
		return m.codexBashSteps(after)
	}
	call := toolCall{
		name:  "Bash",
		id:    newToolUseID(m.rng),
		input: object{{"command", bashCommand}, {"description", bashDescription}},
		response: object{
			{"stdout", bashStdout}, {"stderr", ""}, {"interrupted", false},
			{"isImage", false}, {"noOutputExpected", false},
		},
		responseText: bashStdout,
	}
	return []step{
		{after: after, run: func(m *model, _ time.Time) { m.hookPreToolUse(call) }},
		{after: toolRun, run: func(m *model, _ time.Time) {
			m.items = append(m.items, item{lines: []line{collapsedTool("Ran", "1", "shell command")}})
			m.hookPostToolUse(call, int(toolRun/time.Millisecond))
			m.hookPostToolBatch(call)
		}},
	}
}

// joinReply adds a piece to the reply, the pieces of a message run
// together in one paragraph that draw makes the item of.
func (m *model) joinReply(s string, draw func(reply string) item) {
	t := m.turn
	t.streaming = true
	t.reply = append(t.reply, s)
	reply := draw(strings.Join(t.reply, " "))
	if t.replyItem < 0 {
		m.items = append(m.items, reply)
		t.replyItem = len(m.items) - 1
		return
	}
	m.items[t.replyItem] = reply
}

// retrySteps are a model call that fails and is retried retries times, a
// gap apart: retry runs for each failed attempt that is retried (from 1),
// fail for the last.
func retrySteps(gap time.Duration, retries int, retry func(m *model, attempt int, now time.Time), fail func(m *model, now time.Time)) []step {
	var steps []step
	for i := range retries {
		steps = append(steps, step{after: gap, run: func(m *model, now time.Time) { retry(m, i+1, now) }})
	}
	return append(steps, step{after: gap, run: fail})
}

// armed reports whether a first key pressed at at still waits, window
// long, for its second.
func armed(at, now time.Time, window time.Duration) bool {
	return !at.IsZero() && now.Sub(at) < window
}
