package respawn

import (
	"errors"
	"fmt"
	"time"
)

// startCycle begins a respawn cycle with the update step.
func (c *Core) startCycle(now time.Time, why string) {
	c.cycles++
	c.need.apiErrors = 0 // the turn before ended well
	c.sendAttempts = 0
	c.hooks.stopAt, c.hooks.idlePrompt = time.Time{}, false
	c.enterState(now, SendingUpdate, fmt.Sprintf("idle confirmed: %s; cycle %d starts", why, c.cycles))
}

// stepText is what a sending state types.
func (c *Core) stepText() string {
	switch c.state {
	case SendingUpdate:
		return c.cfg.UpdatePrompt
	case SendingClear:
		return c.agent.Command(StepClear)
	case SendingInit:
		return c.agent.Command(StepInit)
	case SendingKickstart:
		return c.cfg.KickstartPrompt
	}
	return ""
}

// onStepDelay types the step of a sending state, if the screen allows it.
func (c *Core) onStepDelay(now time.Time) {
	if !c.state.sending() || c.sendID != 0 {
		return
	}
	if c.needScreen(tStepDelay) {
		return
	}
	step := stepOf(c.state)
	if c.facts.Working {
		c.enterState(now, Watching, fmt.Sprintf("screen shows %s working before %s was typed; cycle %d abandoned", c.agent.Label(), step, c.cycles))
		return
	}
	if quiet := now.Sub(c.lastWorking); quiet < c.cfg.CompletionConfirm {
		// Never type within completion_confirm of work, whatever path led here.
		c.t.arm(tStepDelay, c.lastWorking.Add(c.cfg.CompletionConfirm))
		return
	}
	reason := c.blocker(now)
	switch {
	case reason != "":
	case !c.facts.PromptBox:
		reason = "no " + c.agent.Label() + " prompt box on screen"
	case c.facts.Input != "":
		// Someone is typing, or an earlier send left its text unsubmitted:
		// typing now would append to it.
		reason = "the prompt box holds typed text: " + clipText(c.facts.Input, 40)
	}
	if reason != "" {
		c.veto(now, fmt.Sprintf("%s not typed: %s", step, reason))
		c.t.arm(tStepDelay, now.Add(max(c.cfg.InterStepDelay, 5*time.Second)))
		return
	}
	c.sendID, c.sendStarted = c.newID(), now
	text := c.stepText()
	c.emit(Action{Kind: ActSubmit, ID: c.sendID, Step: step, Text: text})
	c.record(Decision{At: now, Kind: DecisionSend, Step: step, Text: text, Reason: fmt.Sprintf("cycle %d", c.cycles)})
}

// SendDone reports how typing text or pressing a key went.
func (c *Core) SendDone(now time.Time, id uint64, err error) {
	defer c.updateNeed(now)
	switch id {
	case 0:
		return
	case c.acceptID, c.resumeID:
		if err != nil {
			c.decide(now, DecisionWarn, "send failed: "+err.Error())
		}
		if id == c.resumeID {
			c.resumeID = 0
		} else {
			c.acceptID = 0
		}
		return
	case c.sendID:
	default:
		return
	}
	c.sendID = 0
	if !c.state.sending() {
		return
	}
	step := stepOf(c.state)
	if errors.Is(err, ErrNotAgent) {
		// Not a failed send: the pane's program is not the agent now (it
		// exited to its shell, a pager or an editor runs). Nothing is typed
		// until a turn shows the agent again.
		c.sendAttempts, c.notAgent, c.quietFrom = 0, err.Error(), now
		c.enterState(now, Watching, fmt.Sprintf("%s not typed: %v; cycle %d abandoned", step, err, c.cycles))
		return
	}
	if err != nil && c.paused {
		// The pause cancelled it before its Enter; Submit took its text
		// back. It is typed on resume, and no attempt is lost.
		c.decide(now, DecisionSkip, fmt.Sprintf("typing %s stopped by the pause: %v; it is typed on resume", step, err))
		return
	}
	if err != nil {
		c.sendAttempts++
		if c.sendAttempts < sendRetries {
			c.decide(now, DecisionWarn, fmt.Sprintf("typing %s failed (attempt %d of %d): %v; retrying", step, c.sendAttempts, sendRetries, err))
			c.t.arm(tStepDelay, now.Add(sendRetryDelay))
			return
		}
		c.sendAttempts = 0
		c.need.sendFailed, c.need.sendFailedAt = fmt.Sprintf("typing %s failed %d times: %v", step, sendRetries, err), now
		c.enterState(now, Watching, fmt.Sprintf("typing %s failed %d times: %v; cycle %d abandoned", step, sendRetries, err, c.cycles))
		return
	}
	c.sendAttempts, c.need.sendFailed = 0, ""
	c.stepSentAt = c.sendStarted
	c.det.Reset()
	c.completionAt = time.Time{}
	if !c.stepTurnBegan() || !c.hooks.stopAt.After(c.stepSentAt) {
		// A Stop that came while the step was typed ends the step's turn
		// only when that turn was seen to begin (a loaded machine confirms
		// the Enter late); an older one is the turn before.
		c.hooks.stopAt, c.hooks.idlePrompt = time.Time{}, false
	}
	c.enterState(now, waitingFor[c.state], string(step)+" typed")
	c.clearFinishedEarly(now, "/clear finished (SessionStart hook) before its Enter was confirmed")
	c.Tick(now)
}

// stepTurnBegan reports whether a hook or working output showed the typed
// step's own turn beginning.
func (c *Core) stepTurnBegan() bool {
	return c.hooks.promptAt.After(c.stepSentAt) || c.lastWorking.After(c.stepSentAt)
}

// clearFinishedEarly ends the /clear step when its SessionStart hook came
// before codeman could take it: while the Enter was being confirmed, or
// while paused.
func (c *Core) clearFinishedEarly(now time.Time, why string) {
	if c.state == WaitingClear && !c.paused && c.hooks.clearAt.After(c.stepSentAt) {
		c.stepDone(now, why)
	}
}

// onStepConfirm ends a waiting state after enough silence, if the screen
// shows the step's turn over.
func (c *Core) onStepConfirm(now time.Time) {
	switch c.state {
	case WaitingUpdate, WaitingClear, WaitingInit, WaitingKickstart:
	default:
		return
	}
	if at := c.stepConfirmAt(); now.Before(at) {
		c.t.arm(tStepConfirm, at)
		return
	}
	if c.needScreen(tStepConfirm) {
		return
	}
	step := stepOf(c.state)
	if c.facts.Working {
		c.veto(now, fmt.Sprintf("%s still running: screen shows %s working", step, c.agent.Label()))
		c.t.arm(tStepConfirm, now.Add(c.cfg.CompletionConfirm))
		return
	}
	if b := c.blocker(now); b != "" {
		c.veto(now, fmt.Sprintf("%s waits: %s", step, b))
		return
	}
	c.stepDone(now, fmt.Sprintf("%s finished: %s of silence", step, c.silenceText(now)))
}

// stepDone moves to the next step, or ends the cycle.
func (c *Core) stepDone(now time.Time, why string) {
	c.stepEndedAt = now
	switch c.state {
	case WaitingUpdate:
		switch {
		case c.cfg.SendClear:
			c.enterState(now, SendingClear, why)
		case c.cfg.SendInit:
			c.enterState(now, SendingInit, why+"; /clear skipped (send_clear = false)")
		default:
			c.completeCycle(now, why+"; /clear and /init skipped")
		}
	case WaitingClear:
		if c.cfg.SendInit {
			c.enterState(now, SendingInit, why)
		} else {
			c.completeCycle(now, why+"; /init skipped (send_init = false)")
		}
	case WaitingInit:
		if c.cfg.KickstartPrompt != "" {
			c.enterState(now, MonitoringInit, why)
		} else {
			c.completeCycle(now, why+"; no kickstart prompt")
		}
	case WaitingKickstart:
		c.completeCycle(now, why)
	}
}

func (c *Core) onClearFallback(now time.Time) {
	if c.state == WaitingClear {
		c.stepDone(now, fmt.Sprintf("/clear fallback: nothing confirmed it within %s, proceeding", clearFallback))
	}
}

func (c *Core) onInitGrace(now time.Time) {
	if c.state != MonitoringInit {
		return
	}
	c.enterState(now, SendingKickstart, fmt.Sprintf("/init started no work within %s", initGrace))
}

// completeCycle ends a cycle and goes back to watching.
func (c *Core) completeCycle(now time.Time, why string) {
	c.det.Reset()
	c.completionAt = time.Time{}
	c.hooks.stopAt, c.hooks.idlePrompt = time.Time{}, false
	c.quietFrom = now
	c.enterState(now, Watching, fmt.Sprintf("cycle %d complete: %s", c.cycles, why))
}
