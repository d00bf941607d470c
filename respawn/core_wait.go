package respawn

import (
	"fmt"
	"time"
)

// waitState is a usage limit or a failed turn being waited out.
type waitState struct {
	kind    string // "usage limit" or "API error"; "" when not waiting
	since   time.Time
	until   time.Time
	resetAt time.Time // a usage limit's reset, as read (until less usage_limit_margin)
	line    string    // what the screen or hook said
	waited  string    // the last line waited out, so an old line on screen does not start a new wait
}

// autoContinueGrace is how long after a usage limit's reset (or after the
// wait began, when that is later) codeman leaves the resume to Claude
// Code's own continue while the screen says it is armed. Claude Code sends
// it 30 to 90 s after the reset (a random delay of its own), and when it
// hits the limit again at least 1, then 5 minutes after the last try. A
// prompt typed before disarms it, so typing while it is armed would race
// it; past the grace it is taken as lost, and the resume prompt, which
// disarms it, is typed.
const autoContinueGrace = 6 * time.Minute

// waitUsageLimit is the kind of a usage limit's wait; Claude Code's own
// continue only ever ends this kind.
const waitUsageLimit = "usage limit"

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
	failed := c.hooks.turnFailedAt.After(c.hooks.promptAt) && c.hooks.turnFailedAt.After(c.stepSentAt)
	if failed && c.facts.UsageLimit == c.wait.waited {
		// A failed turn since the last prompt makes the line news although
		// it reads as the one waited out before: Claude Code continued by
		// itself (its prompt is not echoed) and hit the same limit again.
		c.wait.waited = ""
	}
	if line := c.facts.UsageLimit; line != "" && line != c.wait.waited {
		reset := now.Add(time.Hour) // no reset time given
		if ul, ok := c.agent.FindUsageLimit(c.screen.Text(), now); ok && !ul.ResetAt.IsZero() {
			reset = ul.ResetAt
		}
		c.startWait(now, waitUsageLimit, reset.Add(c.cfg.UsageLimitMargin), line)
		c.wait.resetAt = reset
		return true
	}
	if line := c.facts.APIError; failed || (line != "" && line != c.wait.waited) {
		if line == "" {
			line = "turn failed: " + c.hooks.turnFailed
		}
		c.hooks.turnFailedAt = time.Time{}
		if c.need.apiErrors >= maxAPIErrorWaits {
			c.need.gaveUp, c.need.gaveUpAt = fmt.Sprintf("turns failed after %d backoffs: %s", c.need.apiErrors, line), now
			c.wait.waited = line
			c.vetoIdle(now, c.need.gaveUp+"; nothing is typed until a person takes over")
			return true
		}
		c.need.apiErrors++
		c.startWait(now, "API error", now.Add(c.cfg.APIErrorBackoff), line)
		return true
	}
	return false
}

func (c *Core) startWait(now time.Time, kind string, until time.Time, line string) {
	c.wait = waitState{kind: kind, since: now, until: until, line: line, waited: line}
	c.hooks.turnFailedAt = time.Time{}
	c.t.arm(tResume, until)
	c.record(Decision{At: now, Kind: DecisionWait, Reason: c.wait.describe() + "; no cycle"})
	c.vetoIdle(now, c.wait.describe())
	c.setStatus()
}

// onResume: a wait is over. If Claude has not continued by itself, the
// resume prompt is typed once; while Claude Code's own continue is armed,
// it is left to that until autoContinueGrace after the reset.
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
		c.endWait(now, kind+" over: "+c.agent.Label()+" continued by itself")
		return
	case c.facts.AutoContinue == AutoContinueFired && kind == waitUsageLimit:
		c.endWait(now, kind+" over: Claude continued by itself (Claude Code's own continue)")
		return
	case c.blocker(now) != "":
		c.veto(now, kind+" over, but "+c.blocker(now))
		c.t.arm(tResume, now.Add(c.cfg.NoOutputTimeout))
		return
	case now.Sub(c.lastWorking) < c.cfg.CompletionConfirm:
		// Never type within completion_confirm of work, whatever path led here.
		c.t.arm(tResume, c.lastWorking.Add(c.cfg.CompletionConfirm))
		return
	case kind == waitUsageLimit && c.facts.UsageLimit == "" && c.facts.PromptBox:
		// A prompt was echoed after the limit's lines (or /clear took
		// them): someone went on, with no hook to say so.
		c.endWait(now, kind+" over: the limit is no longer in the latest turn; the session went on")
		return
	}
	if ul, ok := c.agent.FindUsageLimit(c.screen.Text(), now); ok && kind == "usage limit" && ul.Line != c.wait.line && ul.ResetAt.After(now) {
		c.wait.line = ul.Line
		c.wait.until = ul.ResetAt.Add(c.cfg.UsageLimitMargin)
		c.t.arm(tResume, c.wait.until)
		c.decide(now, DecisionWait, "new usage limit: "+c.wait.describe())
		return
	}
	if kind == waitUsageLimit && c.facts.AutoContinue == AutoContinueArmed {
		if grace := latest(c.wait.resetAt, c.wait.since).Add(autoContinueGrace); now.Before(grace) {
			c.wait.until = grace
			c.t.arm(tResume, grace)
			c.decide(now, DecisionWait, "usage limit over, but Claude Code's own continue is armed: "+
				"it continues by itself; typing nothing before "+grace.Format("15:04:05"))
			return
		}
		c.decide(now, DecisionWait, fmt.Sprintf("Claude Code's own continue is still armed %s after the reset: taken as lost",
			now.Sub(c.wait.resetAt).Round(time.Second)))
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

// continuedByItself ends a wait when Claude worked after it began (at is
// when the evidence was made): Claude Code continued on its own, or a
// person did, and a resume prompt now would be a second one.
func (c *Core) continuedByItself(now, at time.Time, why string) {
	if !c.wait.active() || !at.After(c.wait.since) {
		return
	}
	c.endWait(now, c.wait.kind+" over: "+c.agent.Label()+" continued by itself ("+why+")")
}
