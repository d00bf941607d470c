package respawn

import (
	"fmt"
	"time"
)

// waitState is a usage limit or a failed turn being waited out.
type waitState struct {
	kind   string // "usage limit" or "API error"; "" when not waiting
	until  time.Time
	line   string // what the screen or hook said
	waited string // the last line waited out, so an old line on screen does not start a new wait
}

func (w *waitState) active() bool { return w.kind != "" }

func (w *waitState) describe() string {
	return fmt.Sprintf("waiting out %s until %s: %s", w.kind, w.until.Format("15:04:05"), w.line)
}

// startWaitIfLimited starts a wait instead of a cycle when the turn ended
// on a usage limit or an API error: cycling would only hit it again.
func (c *Core) startWaitIfLimited(now time.Time) bool {
	if c.wait.active() {
		return false
	}
	if line := c.facts.UsageLimit; line != "" && line != c.wait.waited {
		until := now.Add(time.Hour) // no reset time given
		if ul, ok := FindUsageLimit(c.screen.Text(), now); ok && !ul.ResetAt.IsZero() {
			until = ul.ResetAt
		}
		c.startWait(now, "usage limit", until.Add(c.cfg.UsageLimitMargin), line)
		return true
	}
	failed := c.hooks.turnFailedAt.After(c.hooks.promptAt) && c.hooks.turnFailedAt.After(c.stepSentAt)
	if line := c.facts.APIError; failed || (line != "" && line != c.wait.waited) {
		if line == "" {
			line = "turn failed: " + c.hooks.turnFailed
		}
		c.hooks.turnFailedAt = time.Time{}
		c.startWait(now, "API error", now.Add(c.cfg.APIErrorBackoff), line)
		return true
	}
	return false
}

func (c *Core) startWait(now time.Time, kind string, until time.Time, line string) {
	c.wait = waitState{kind: kind, until: until, line: line, waited: line}
	c.hooks.turnFailedAt = time.Time{}
	c.t.arm(tResume, until)
	c.record(Decision{At: now, Kind: DecisionWait, Reason: c.wait.describe() + "; no cycle"})
	c.vetoIdle(now, c.wait.describe())
	c.setStatus()
}

// onResume: a wait is over. If Claude has not continued by itself, the
// resume prompt is typed once.
func (c *Core) onResume(now time.Time) {
	if !c.wait.active() {
		return
	}
	if c.needScreen(tResume) {
		return
	}
	kind := c.wait.kind
	switch {
	case c.facts.Working:
		c.endWait(now, kind+" over: Claude continued by itself")
		return
	case c.blocker(now) != "":
		c.veto(now, kind+" over, but "+c.blocker(now))
		c.t.arm(tResume, now.Add(c.cfg.NoOutputTimeout))
		return
	case now.Sub(c.lastWorking) < c.cfg.CompletionConfirm:
		// Never type within completion_confirm of work, whatever path led here.
		c.t.arm(tResume, c.lastWorking.Add(c.cfg.CompletionConfirm))
		return
	}
	if ul, ok := FindUsageLimit(c.screen.Text(), now); ok && kind == "usage limit" && ul.Line != c.wait.line && ul.ResetAt.After(now) {
		c.wait.line = ul.Line
		c.wait.until = ul.ResetAt.Add(c.cfg.UsageLimitMargin)
		c.t.arm(tResume, c.wait.until)
		c.decide(now, DecisionWait, "new usage limit: "+c.wait.describe())
		return
	}
	c.endWait(now, kind+" over")
	if c.cfg.ResumePrompt == "" || c.state != Watching || !c.facts.PromptBox || c.facts.Input != "" {
		return
	}
	c.resumeID = c.newID()
	c.quietFrom = now
	c.armSilenceTimers()
	c.emit(Action{Kind: ActSubmit, ID: c.resumeID, Step: StepResume, Text: c.cfg.ResumePrompt})
	c.record(Decision{At: now, Kind: DecisionSend, Step: StepResume, Text: c.cfg.ResumePrompt, Reason: "resume after " + kind})
}

func (c *Core) endWait(now time.Time, why string) {
	c.wait.kind, c.wait.until = "", time.Time{}
	c.t.stop(tResume)
	c.decide(now, DecisionWait, why)
	c.setStatus()
}
