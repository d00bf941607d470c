package respawn

import (
	"fmt"
	"time"
)

// onAutoAccept: the pane was silent for auto_accept_delay. If the screen
// shows a plan approval menu, and nothing says a person must answer, the
// highlighted option is taken with Enter.
func (c *Core) onAutoAccept(now time.Time) {
	if c.state != Watching || !c.cfg.AutoAcceptPrompts || !c.outputSinceEnter || c.planCheck.id != 0 {
		return
	}
	if c.needScreen(tAutoAccept) {
		return
	}
	if !c.facts.PlanMenu {
		return
	}
	if b := c.blocker(now); b != "" {
		c.veto(now, "plan menu not accepted: "+b)
		return
	}
	if quiet := now.Sub(c.lastChange); quiet < c.cfg.AutoAcceptDelay {
		c.t.arm(tAutoAccept, c.lastChange.Add(c.cfg.AutoAcceptDelay))
		return
	}
	if c.hooks.planAt.After(c.hooks.promptAt) {
		c.accept(now, "plan approval menu on screen, announced by the ExitPlanMode hook")
		return
	}
	if off, reason := c.planGate.off(); off {
		c.accept(now, "plan approval menu on screen ("+reason+")")
		return
	}
	if wait, reason := c.planGate.waiting(now); wait {
		c.veto(now, "plan menu not accepted yet: "+reason)
		c.t.arm(tAutoAccept, c.planGate.until)
		return
	}
	c.planCheck = runningCheck{id: c.newID(), startedAt: now}
	c.emit(Action{Kind: ActCheck, ID: c.planCheck.id, Check: c.checkRequest(PlanCheck, c.cfg.AIPlanCheck)})
	c.decide(now, DecisionCheck, "AI plan check started ("+c.cfg.AIPlanCheck.Model+")")
}

func (c *Core) onPlanCheckDone(now, started time.Time, res CheckResult, err error) {
	if err == nil && res.Verdict != VerdictPlanMode && res.Verdict != VerdictNotPlanMode {
		err = fmt.Errorf("unexpected verdict %q", res.Verdict)
	}
	if err != nil {
		c.decide(now, DecisionCheck, c.checkFailed(now, &c.planGate, err))
		return
	}
	c.decide(now, DecisionCheck, fmt.Sprintf("AI plan check: %s: %s (%s, %s)", res.Verdict, res.Reason, c.cfg.AIPlanCheck.Model, res.Duration.Round(time.Millisecond)))
	switch {
	case res.Verdict == VerdictNotPlanMode:
		c.planGate.negative(now)
	case c.lastOutput.After(started):
		c.decide(now, DecisionSkip, "plan check result discarded: output arrived during the check")
	case c.state != Watching:
		c.decide(now, DecisionSkip, "plan check says PLAN_MODE but state is "+c.state.String()+"; Enter not sent")
	default:
		c.planGate.positive()
		c.accept(now, "plan approval menu on screen, AI plan check agrees")
	}
}

// accept presses Enter on a plan approval menu.
func (c *Core) accept(now time.Time, why string) {
	c.acceptID = c.newID()
	c.outputSinceEnter = false
	c.completionAt = time.Time{}
	c.hooks.planAt = time.Time{}
	c.emit(Action{Kind: ActPress, ID: c.acceptID, Step: StepAutoAccept, Key: KeyEnter})
	c.record(Decision{At: now, Kind: DecisionSend, Step: StepAutoAccept, Key: KeyEnter, Reason: why})
}
