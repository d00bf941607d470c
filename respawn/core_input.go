package respawn

import (
	"fmt"
	"time"
)

// hookFlags is what hooks have told about the pane.
type hookFlags struct {
	stopAt      time.Time // a Stop not yet confirmed
	idlePrompt  bool      // the pending confirmation came from idle_prompt
	question    time.Time // AskUserQuestion pending since
	permission  time.Time // a permission prompt pending since
	elicitation time.Time // an elicitation dialog pending since
	// dialogSeen is when a fresh screen last showed a dialog a person
	// must answer: a hook's dialog the screen showed and then no longer
	// shows was answered, with Esc too, which runs no hook.
	dialogSeen time.Time

	questionText, permissionText, elicitationText string    // what the dialogs ask, for a person
	planAt                                        time.Time // ExitPlanMode approval announced
	background                                    int       // background tasks running at the last Stop
	turnFailedAt                                  time.Time // StopFailure
	turnFailed                                    string
	promptAt                                      time.Time // last UserPromptSubmit
	stoppedAt                                     time.Time // last Stop: a turn that ended well
	clearAt                                       time.Time // last SessionStart after /clear
	exited                                        string    // the SessionEnd hook's reason, until the agent's next hook
	last                                          Hook
}

// clearDialogs forgets pending dialogs: the turn went on, so they were answered.
func (h *hookFlags) clearDialogs() {
	h.question, h.permission, h.elicitation = time.Time{}, time.Time{}, time.Time{}
}

// Output feeds one chunk of the pane's output, received at now.
func (c *Core) Output(now time.Time, chunk []byte) {
	if c.state == Stopped || len(chunk) == 0 {
		return
	}
	f := c.det.Feed(chunk)
	if f.Cosmetic {
		return
	}
	c.outputSeq++
	c.lastOutput = now
	c.notAgent = ""
	if c.content == 0 || f.Working || f.Completion {
		// Work is never a status line's redraw, and without a screen to
		// compare every chunk counts. Other output waits for a screen.
		c.lastChange = now
	}
	c.outputSinceEnter = true
	c.stuckRecoveries, c.need.stuck = 0, ""
	if f.Tokens >= 0 && f.Tokens != c.tokens {
		c.tokens, c.lastTokenChange = f.Tokens, now
	}
	switch {
	case f.Completion:
		c.onCompletion(now)
	case f.Working:
		// No evidence that Claude continued after a limit: the stream's
		// window still holds the failed turn's spinner, and a redraw of
		// the limit's own rows reports it again. The screen decides.
		c.onWorking(now, "working output")
	case f.Visible > 2:
		c.onActivity(now)
	}
	if f.Completion && c.content != 0 {
		// The turn's last rows are drawn: the screen now is what the
		// silence that follows is compared with.
		c.requestSnapshot()
	}
	if c.need.cur.Kind != "" && c.screenSeq != c.outputSeq {
		// A person may be answering: the screen tells when it is done.
		c.requestSnapshot()
	}
	c.rearmOnOutput()
	c.Tick(now)
}

// rearmOnOutput restarts the silence timers of the current state.
func (c *Core) rearmOnOutput() {
	if c.paused || c.state == Stopped {
		return
	}
	c.armSilence()
}

// stepSilence is the silence that ends a step: completion_confirm, or the
// short hook window once Claude's Stop hook said the step's turn ended.
func (c *Core) stepSilence() time.Duration {
	if !c.hooks.stopAt.IsZero() && c.hooks.stopAt.After(c.stepSentAt) {
		return c.hookSilence()
	}
	return c.cfg.CompletionConfirm
}

func (c *Core) onCompletion(now time.Time) {
	c.completionAt = now
	if c.state == Watching && !c.paused {
		c.enterState(now, ConfirmingIdle, "completion line in the output")
	}
}

// onWorking handles evidence from the output or the screen that Claude is
// working.
func (c *Core) onWorking(now time.Time, why string) { c.onWork(now, why, false) }

// onWork handles evidence that Claude is working; byHook when a hook said
// a turn or a tool started, which no frame of an earlier step can fake.
func (c *Core) onWork(now time.Time, why string, byHook bool) {
	c.lastWorking = latest(c.lastWorking, now)
	if now.Sub(c.hooks.stopAt) >= c.hookSilence() {
		// Right after Stop the status line still shows "running Stop
		// hook"; only later work makes the Stop stale.
		c.hooks.stopAt, c.hooks.idlePrompt = time.Time{}, false
	}
	c.hooks.elicitation = time.Time{}
	c.completionAt = time.Time{}
	if now.After(c.need.sendFailedAt) {
		c.need.sendFailed = ""
	}
	if c.need.gaveUp != "" && now.After(c.need.gaveUpAt) {
		// Turns failed past the backoffs and codeman typed nothing since:
		// a person took over. Their turns get a fresh set of backoffs.
		c.need.gaveUp, c.need.apiErrors = "", 0
	}
	c.cancelPlanCheck(now, "working during plan check")
	if c.paused {
		return // the state waits for the resume; the evidence is kept
	}
	switch {
	case c.state.sending() && c.sendID == 0 && now.Sub(c.stepEndedAt) < stepSettle && !byHook:
		// The step before ended moments ago (its hook can beat its last
		// frames, "running SessionEnd hooks…" after /clear): this is its
		// output, not new work. The next step waits completion_confirm
		// after it, and the screen read before typing has the last word.
		c.decide(now, DecisionSkip, fmt.Sprintf("%s %s after the step before ended: taken as its last frames", why, now.Sub(c.stepEndedAt).Round(time.Millisecond)))
	case c.state == ConfirmingIdle:
		c.enterState(now, Watching, why+" during confirmation")
	case c.state == AIChecking:
		c.cancelIdleCheck()
		c.enterState(now, Watching, why+" during AI check; its answer would be stale")
	case c.state.sending() && c.sendID == 0:
		c.enterState(now, Watching, fmt.Sprintf("%s before %s was typed; cycle %d abandoned", why, stepOf(c.state), c.cycles))
	case c.state == MonitoringInit:
		c.completeCycle(now, "/init started work, kickstart skipped")
	case c.state == WaitingUpdate || c.state == WaitingInit || c.state == WaitingKickstart:
		c.t.arm(tStepConfirm, c.stepConfirmAt())
	}
}

// onActivity handles visible output that is neither work nor a completion.
func (c *Core) onActivity(now time.Time) {
	c.cancelPlanCheck(now, "new output during plan check")
	if c.state == AIChecking {
		c.cancelIdleCheck()
		c.enterState(now, Watching, "output during AI check; its answer would be stale")
	}
}

// Screen delivers a rendered screen. Decisions that waited for a fresh
// screen run now.
func (c *Core) Screen(now time.Time, s Screen) {
	if s.At.IsZero() {
		s.At = now
	}
	c.snapshotID = 0
	c.t.stop(tScreenRetry)
	if c.state == Stopped {
		return
	}
	c.screen, c.facts, c.screenSeq = s, c.agent.Classify(s), c.snapshotSeq
	c.settleContent()
	if c.screenFresh() && c.facts.Blocker() != "" {
		c.hooks.dialogSeen = now
	}
	if t := c.facts.Tokens; t >= 0 && t != c.tokens {
		// Claude redraws only changed cells, so the counter is read
		// from the screen more reliably than from the stream.
		c.tokens, c.lastTokenChange = t, now
	}
	if c.facts.Working && c.screenFresh() {
		why := "screen shows " + c.agent.Label() + " working"
		c.onWorking(now, why)
		c.continuedByItself(now, now, why)
	}
	if c.facts.AutoContinue == AutoContinueFired && c.wait.kind == waitUsageLimit {
		c.continuedByItself(now, s.At, "screen shows "+c.agent.AutoContinueLabel())
	}
	for t, waiting := range c.waitingScreen {
		if waiting {
			c.waitingScreen[t] = false
			c.fire(now, timer(t))
		}
	}
	c.Tick(now)
}

// settleContent compares a fresh screen with the one before: when its
// Content is the same, the output in between only redrew rows that change
// by themselves (a status line's clock, a usage meter), and the pane's
// silence goes on; otherwise it ended at the last output. A screen with
// output after it tells nothing.
func (c *Core) settleContent() {
	if !c.screenFresh() {
		return
	}
	f := c.facts.Content
	changed := f == 0 || f != c.content
	c.content = f
	if changed && c.lastOutput.After(c.lastChange) {
		c.lastChange = c.lastOutput
		c.rearmOnOutput()
	}
}

// SnapshotFailed reports that the screen could not be read.
func (c *Core) SnapshotFailed(now time.Time, err error) {
	defer c.updateNeed(now)
	c.snapshotID = 0
	if c.state == Stopped {
		return
	}
	c.veto(now, "cannot read the screen: "+err.Error())
	c.t.arm(tScreenRetry, now.Add(sendRetryDelay))
}

// screenFresh reports whether no output arrived since the current screen
// was asked for. Counting chunks rather than comparing times keeps this
// exact when output and snapshot share a timestamp.
func (c *Core) screenFresh() bool {
	return !c.screen.At.IsZero() && c.screenSeq == c.outputSeq
}

// needScreen reports whether timer t's decision must wait for a fresh
// screen; the decision then runs again when it arrives.
func (c *Core) needScreen(t timer) bool {
	if c.screenFresh() {
		return false
	}
	c.waitingScreen[t] = true
	c.requestSnapshot()
	return true
}

func (c *Core) requestSnapshot() {
	if c.snapshotID != 0 || c.state == Stopped {
		return
	}
	c.snapshotID, c.snapshotSeq = c.newID(), c.outputSeq
	c.emit(Action{Kind: ActSnapshot, ID: c.snapshotID})
}

// Hook delivers an interpreted Claude Code hook signal.
func (c *Core) Hook(now time.Time, h Hook) {
	defer c.updateNeed(now)
	if c.state == Stopped {
		return
	}
	if h.At.IsZero() {
		h.At = now
	}
	c.hooks.last = h
	reason := "hook " + h.Kind.String()
	if h.Tool != "" {
		reason += " (" + h.Tool + ")"
	}
	if (h.Kind == HookStop || h.Kind == HookIdlePrompt) && c.lastWorking.After(h.At) {
		c.decide(now, DecisionSkip, reason+" is stale: "+c.agent.Label()+" worked after it")
		return
	}
	c.decide(now, DecisionHook, reason)
	if h.Kind != HookSessionEnded {
		c.hooks.exited, c.notAgent = "", "" // the agent runs: its hook came
	}
	c.applyHook(now, h)
	c.Tick(now)
}

func (c *Core) applyHook(now time.Time, h Hook) {
	switch h.Kind {
	case HookStop:
		c.hooks.clearDialogs()
		c.hooks.stoppedAt = h.At
		c.continuedByItself(now, h.At, "Stop hook")
		if h.Background > 0 {
			c.hooks.background = h.Background
			c.decide(now, DecisionWait, fmt.Sprintf("Stop with %d background task(s) running: %s goes on when they report", h.Background, c.agent.Label()))
			return
		}
		c.hooks.background = 0
		c.hooks.stopAt, c.hooks.idlePrompt = h.At, false
		c.onIdleHook(now, "Stop hook")
	case HookIdlePrompt:
		c.hooks.stopAt, c.hooks.idlePrompt = h.At, true
		c.onIdleHook(now, "idle_prompt hook")
	case HookPromptSubmitted:
		c.hooks.clearDialogs()
		c.hooks.background, c.hooks.promptAt = 0, h.At
		c.onWork(now, "prompt submitted (hook)", true)
		c.continuedByItself(now, h.At, "prompt submitted (hook "+h.Event+")")
	case HookToolStarted:
		c.hooks.clearDialogs()
		c.onWork(now, "tool "+h.Tool+" started (hook)", true)
		c.continuedByItself(now, h.At, "tool "+h.Tool+" started (hook)")
	case HookToolFinished:
		c.hooks.permission = time.Time{}
		c.lastWorking = latest(c.lastWorking, now)
	case HookQuestionPending:
		c.hooks.question, c.hooks.questionText = now, h.Detail
	case HookQuestionAnswered:
		c.hooks.question, c.hooks.permission = time.Time{}, time.Time{}
		c.lastWorking = latest(c.lastWorking, now)
	case HookPlanApproval:
		c.hooks.planAt = now
	case HookPermissionPrompt:
		if text := joinNonEmpty(": ", h.Tool, h.Detail); text != "" || c.hooks.permission.IsZero() {
			// Claude's reminder a few seconds later names no tool.
			c.hooks.permissionText = text
		}
		c.hooks.permission = now
	case HookElicitation:
		c.hooks.elicitation, c.hooks.elicitationText = now, joinNonEmpty(": ", h.Detail, h.Message)
	case HookClearFinished:
		c.hooks.clearAt = h.At
		if c.state == WaitingClear && !c.paused {
			c.stepDone(now, "/clear finished (SessionStart hook)")
		}
	case HookTurnFailed:
		c.hooks.turnFailedAt, c.hooks.turnFailed = h.At, h.Error
	case HookSessionEnded:
		c.hooks.exited = h.Message
		if c.hooks.exited == "" {
			c.hooks.exited = "SessionEnd hook"
		}
		c.decide(now, DecisionWarn, c.agent.Label()+" exited ("+c.hooks.exited+"); nothing is typed until it runs again")
	case HookInterrupted:
		// A declined approval ends the turn without a PostToolUse: the
		// dialog it announced is answered.
		c.hooks.clearDialogs()
	}
}

// limitQuoted reports whether a usage limit the screen shows is text of a
// reply that quotes one: the turn since the last prompt ended with a plain
// Stop hook, later than any hook that said a turn failed. A turn that hits
// a limit ends with StopFailure and no Stop. Without hooks the screen
// alone decides (Claude Code's classifier, agents/claude, counts only the
// limit rows Claude Code draws itself).
func (c *Core) limitQuoted(now time.Time) bool {
	prompt := latest(c.hooks.promptAt, c.stepSentAt)
	if !c.hooks.stoppedAt.After(prompt) || !c.hooks.stoppedAt.After(c.hooks.turnFailedAt) {
		return false
	}
	c.veto(now, "usage-limit text on screen is part of a reply: the turn ended with a Stop hook, not a failure")
	return true
}

// onIdleHook starts the short confirmation that follows a Stop or
// idle_prompt hook.
func (c *Core) onIdleHook(now time.Time, why string) {
	if c.paused {
		return
	}
	switch c.state {
	case Watching:
		c.enterState(now, ConfirmingIdle, why)
	case AIChecking:
		c.cancelIdleCheck()
		c.enterState(now, ConfirmingIdle, why+" during AI check")
	case ConfirmingIdle:
		c.armSilence()
	case WaitingUpdate, WaitingInit, WaitingKickstart, WaitingClear:
		if !c.stepTurnBegan() {
			// Nothing shows the step's own turn began: this hook is
			// about the turn before it.
			c.hooks.stopAt, c.hooks.idlePrompt = time.Time{}, false
			c.decide(now, DecisionSkip, why+" ignored: it predates the "+string(stepOf(c.state))+" step's turn")
			return
		}
		c.t.arm(tStepConfirm, c.stepConfirmAt())
	}
}
