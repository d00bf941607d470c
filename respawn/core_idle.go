package respawn

import (
	"errors"
	"fmt"
	"time"
)

// onNoOutput: the pane has been silent for no_output_timeout.
func (c *Core) onNoOutput(now time.Time) {
	if c.state != Watching && c.state != ConfirmingIdle {
		return
	}
	if at := c.silenceBase().Add(c.cfg.NoOutputTimeout); now.Before(at) {
		// A fresh screen showed that output changed what it shows.
		c.t.arm(tNoOutput, at)
		return
	}
	why := "no output for " + c.silenceText(now)
	if off, reason := c.idleGate.off(); off {
		c.confirmIdle(now, tNoOutput, why+" ("+reason+")")
		return
	}
	c.tryIdleCheck(now, tNoOutput, why)
}

// onPreFilter: a short silence in watching; an AI check is worth it only
// when output, working patterns and the token counter all rested.
func (c *Core) onPreFilter(now time.Time) {
	if c.state != Watching {
		return
	}
	if off, _ := c.idleGate.off(); off {
		return // the pre-filter only leads to AI checks; no-output decides alone
	}
	confirm := c.cfg.CompletionConfirm
	if now.Sub(c.lastWorking) < workingAbsence || now.Sub(c.lastTokenChange) < confirm {
		return
	}
	if at := c.lastChange.Add(confirm); now.Before(at) {
		c.t.arm(tPreFilter, at)
		return
	}
	c.tryIdleCheck(now, tPreFilter, fmt.Sprintf("pre-filter: %s silence, no working pattern for %s, tokens stable", confirm, workingAbsence))
}

// onCompletionConfirm: a completion line was followed by silence.
func (c *Core) onCompletionConfirm(now time.Time) {
	if c.state != ConfirmingIdle {
		return
	}
	if at := c.completionConfirmAt(); now.Before(at) {
		c.t.arm(tCompletionConfirm, at)
		return
	}
	c.tryIdleCheck(now, tCompletionConfirm, fmt.Sprintf("completion line and %s of silence", c.cfg.CompletionConfirm))
}

// onHookConfirm: a Stop (or idle_prompt) hook was followed by a short
// silence. The hook is exact, so no AI check is asked.
func (c *Core) onHookConfirm(now time.Time) {
	if c.state != ConfirmingIdle || c.hooks.stopAt.IsZero() {
		return
	}
	if at := c.hookConfirmAt(); now.Before(at) {
		c.t.arm(tHookConfirm, at)
		return
	}
	why := fmt.Sprintf("Stop hook and %s of silence", c.hookSilence())
	if c.hooks.idlePrompt {
		why = "idle_prompt hook"
	}
	c.confirmIdle(now, tHookConfirm, why)
}

// tryIdleCheck asks the AI idle check, or confirms idle directly when
// checks are off.
func (c *Core) tryIdleCheck(now time.Time, t timer, why string) {
	if c.wait.active() {
		// The wait decides when the pane goes on; a check would be a paid
		// model call with nothing to decide.
		c.vetoIdle(now, c.wait.describe())
		return
	}
	if off, reason := c.idleGate.off(); off {
		c.confirmIdle(now, t, why+" ("+reason+")")
		return
	}
	if wait, reason := c.idleGate.waiting(now); wait {
		c.veto(now, reason)
		if c.state == ConfirmingIdle {
			c.enterState(now, Watching, reason)
		}
		c.t.arm(tPreFilter, c.idleGate.until)
		return
	}
	if c.needScreen(t) {
		return
	}
	if reason := c.idleVeto(now); reason != "" {
		c.vetoIdle(now, reason)
		return
	}
	if c.startWaitIfLimited(now) {
		return // the screen or a hook says why the turn ended: no check needed
	}
	c.enterState(now, AIChecking, why)
	c.idleCheck = runningCheck{id: c.newID(), startedAt: now}
	c.emit(Action{Kind: ActCheck, ID: c.idleCheck.id, Check: c.checkRequest(IdleCheck, c.cfg.AIIdleCheck)})
	c.decide(now, DecisionCheck, "AI idle check started ("+c.cfg.AIIdleCheck.Model+")")
}

func (c *Core) checkRequest(kind CheckKind, cfg CheckConfig) CheckRequest {
	return CheckRequest{Kind: kind, Model: cfg.Model, Text: tailRunes(c.screen.Text(), cfg.MaxContext), Limit: cfg.Timeout, PaneID: c.pane}
}

// confirmIdle is the last gate before a cycle: the screen must agree.
func (c *Core) confirmIdle(now time.Time, t timer, why string) {
	if c.needScreen(t) {
		return
	}
	if reason := c.idleVeto(now); reason != "" {
		c.vetoIdle(now, reason)
		return
	}
	if c.startWaitIfLimited(now) {
		return
	}
	if c.wait.active() {
		c.vetoIdle(now, c.wait.describe())
		return
	}
	c.startCycle(now, why)
}

// idleVeto returns why the pane is not idle now, from the screen and the
// hooks, or "" when nothing speaks against idle.
func (c *Core) idleVeto(now time.Time) string {
	f := &c.facts
	switch {
	case f.Working:
		return "screen shows " + c.agent.Label() + " working" + evidenceSuffix(f.Evidence)
	}
	if b := c.blocker(now); b != "" {
		return b
	}
	switch {
	case f.PlanMenu:
		return "plan approval menu on screen: auto-accept handles it"
	case f.BackgroundWait > 0:
		return fmt.Sprintf("%d background agent(s) still running", f.BackgroundWait)
	case c.hooks.background > 0:
		return fmt.Sprintf("Stop hook reported %d background task(s) running", c.hooks.background)
	case !f.PromptBox:
		return "no " + c.agent.Label() + " prompt box on screen"
	case f.Input != "":
		return "the prompt box holds typed text: " + clipText(f.Input, 40)
	case c.need.gaveUp != "":
		return c.need.gaveUp + "; nothing is typed until a person takes over"
	case c.notAgent != "":
		return c.notAgent
	}
	return ""
}

// silenceText says how long the pane has been silent, and that rows which
// redraw by themselves were left out when they printed since.
func (c *Core) silenceText(now time.Time) string {
	quiet := now.Sub(c.lastChange).Round(time.Second).String()
	if c.lastOutput.After(c.lastChange) {
		quiet += " (but for rows that redraw by themselves)"
	}
	return quiet
}

func clipText(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// blocker returns why a person must answer before anything is typed. A
// dialog a hook announced counts until the screen shows none and
// hookDialogExpiry has passed (an answer with Esc leaves no hook behind);
// it is then forgotten, with a decision.
func (c *Core) blocker(now time.Time) string {
	if c.hooks.exited != "" {
		// Whatever the screen shows, the pane runs a shell or nothing now.
		return c.agent.Label() + " exited (" + c.hooks.exited + "); nothing is typed until it runs again"
	}
	return c.findBlocker(now, true)
}

// findBlocker is blocker; only when forget is set does it forget expired
// dialogs (status and explain look without changing anything).
func (c *Core) findBlocker(now time.Time, forget bool) string {
	if b := c.facts.Blocker(); b != "" {
		return "a person must answer: " + b
	}
	for _, p := range []struct {
		since *time.Time
		what  string
	}{
		{&c.hooks.question, "AskUserQuestion pending (hook)"},
		{&c.hooks.permission, "permission prompt pending (hook)"},
		{&c.hooks.elicitation, "elicitation dialog pending (hook)"},
	} {
		if p.since.IsZero() {
			continue
		}
		if c.hookDialogExpired(now, *p.since) {
			if forget {
				c.decide(now, DecisionSkip, p.what+" no longer on screen; forgotten")
				*p.since = time.Time{}
			}
			continue
		}
		return "a person must answer: " + p.what
	}
	return ""
}

// hookDialogExpired reports whether a dialog a hook announced at since is
// taken as answered: a fresh screen shows the prompt box again, and
// either a screen showed the dialog after the hook (it came and went) or
// hookDialogExpiry has passed (the hook may come before its dialog is
// drawn, and an answer with Esc leaves no hook behind).
func (c *Core) hookDialogExpired(now, since time.Time) bool {
	if !c.screenFresh() || !c.facts.PromptBox || c.facts.Blocker() != "" {
		return false
	}
	return !c.hooks.dialogSeen.Before(since) || now.Sub(since) >= hookDialogExpiry
}

// vetoIdle records why idle was not confirmed and goes back to watching;
// the silence timers count from now so the question is asked again later,
// not in a loop.
func (c *Core) vetoIdle(now time.Time, reason string) {
	c.veto(now, reason)
	c.hooks.stopAt, c.hooks.idlePrompt = time.Time{}, false
	c.quietFrom = now
	if c.state != Watching {
		c.enterState(now, Watching, reason)
		return
	}
	c.armSilenceTimers()
}

func evidenceSuffix(ev []string) string {
	if len(ev) == 0 {
		return ""
	}
	return " (" + ev[0] + ")"
}

// tailRunes returns the last n characters of s.
func tailRunes(s string, n int) string {
	if n <= 0 || len(s) <= n {
		return s
	}
	count := 0
	for i := len(s); i > 0; {
		i--
		if s[i]&0xC0 != 0x80 {
			count++
			if count == n {
				return s[i:]
			}
		}
	}
	return s
}

// CheckDone delivers the result of an AI check.
func (c *Core) CheckDone(now time.Time, id uint64, res CheckResult, err error) {
	defer c.updateNeed(now)
	switch id {
	case c.idleCheck.id:
		c.idleCheck = runningCheck{}
		c.onIdleCheckDone(now, res, err)
	case c.planCheck.id:
		started := c.planCheck.startedAt
		c.planCheck = runningCheck{}
		c.onPlanCheckDone(now, started, res, err)
	default:
		return // cancelled: its answer is stale
	}
	c.Tick(now)
}

func (c *Core) onIdleCheckDone(now time.Time, res CheckResult, err error) {
	if c.state != AIChecking {
		c.decide(now, DecisionSkip, "AI check result ignored (state is now "+c.state.String()+")")
		return
	}
	if err == nil && res.Verdict != VerdictIdle && res.Verdict != VerdictWorking {
		err = fmt.Errorf("unexpected verdict %q", res.Verdict)
	}
	if err != nil {
		reason := c.checkFailed(now, &c.idleGate, err)
		c.enterState(now, Watching, reason)
		return
	}
	c.decide(now, DecisionCheck, fmt.Sprintf("AI idle check: %s: %s (%s, %s)", res.Verdict, res.Reason, c.cfg.AIIdleCheck.Model, res.Duration.Round(time.Millisecond)))
	if res.Verdict == VerdictWorking {
		c.idleGate.negative(now)
		c.enterState(now, Watching, "AI check says WORKING")
		c.t.arm(tPreFilter, c.idleGate.until)
		return
	}
	c.idleGate.positive()
	if !c.screenFresh() {
		c.enterState(now, Watching, "AI check says IDLE but the pane printed since; watching again")
		return
	}
	c.confirmIdle(now, tPreFilter, "AI check says IDLE")
}

// checkFailed applies an error to a gate and returns the reason to log.
func (c *Core) checkFailed(now time.Time, g *checkGate, err error) string {
	var limit *UsageLimitError
	switch {
	case asUsageLimit(err, &limit):
		until := g.limit(now, limit.ResetAt)
		return fmt.Sprintf("AI %s check hit a usage limit (%s); checks paused until %s", g.kind, limit.Line, until.Format(time.Kitchen))
	case isUnavailable(err):
		g.disable(err.Error())
		return fmt.Sprintf("AI %s check unavailable: %v", g.kind, err)
	}
	return fmt.Sprintf("AI %s check failed: %v (%s)", g.kind, err, g.fail(now, err))
}

func (c *Core) cancelIdleCheck() {
	if c.idleCheck.id != 0 {
		c.emit(Action{Kind: ActCancelCheck, ID: c.idleCheck.id})
		c.idleCheck = runningCheck{}
	}
}

func (c *Core) cancelPlanCheck(now time.Time, why string) {
	if c.planCheck.id != 0 {
		c.emit(Action{Kind: ActCancelCheck, ID: c.planCheck.id})
		c.planCheck = runningCheck{}
		c.decide(now, DecisionSkip, "plan check cancelled: "+why)
	}
}

func (c *Core) cancelChecks() {
	c.cancelIdleCheck()
	if c.planCheck.id != 0 {
		c.emit(Action{Kind: ActCancelCheck, ID: c.planCheck.id})
		c.planCheck = runningCheck{}
	}
}

func asUsageLimit(err error, target **UsageLimitError) bool { return errors.As(err, target) }

func isUnavailable(err error) bool { return errors.Is(err, ErrCheckerUnavailable) }
