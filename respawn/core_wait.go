package respawn

import (
	"fmt"
	"strings"
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
	// hookLine is the usage limit the failed turn's hook reported when
	// the wait began (hookUsageLimits), "" if none: its reset time counts
	// when the screen shows none.
	hookLine string
	// fallback is how long a usage limit that names no reset time is
	// waited out; 0 when the reset is known.
	fallback time.Duration
	// resumed: the resume prompt was typed at the end of this wait; after
	// a fallback wait, a limit in the latest turn afterwards is the
	// resume's turn meeting it again, although it reads as the line waited
	// out.
	resumed bool
	// retries counts the resume prompts typed into retryLine, a usage
	// limit that named no reset time, that met it again. It outlives a
	// wait, so that the fallback grows; a turn without a limit forgets it.
	retries   int
	retryLine string
}

// hookUsageLimits is an Agent whose failed turn's hook carries the usage
// limit's message whole, unwrapped (Codex's failed PostModelRequest): its
// reset time counts when the screen's rows give none.
type hookUsageLimits interface {
	HookUsageLimit(msg string, now time.Time) (UsageLimitError, bool)
}

// A usage limit that names no reset time is waited out for
// usageLimitFallback, doubled for each resume prompt that met the same
// limit again, up to usageLimitFallbackMax: a prompt every hour into a
// session that stays limited for days (a weekly limit) would only fail
// each time.
const (
	usageLimitFallback    = time.Hour
	usageLimitFallbackMax = 8 * time.Hour
)

// fallbackFor returns how long a usage limit without a reset time is
// waited out, after w.retries resume prompts met it again.
func (w *waitState) fallbackFor(line string) time.Duration {
	if !sameLimit(w.retryLine, line) {
		w.retries, w.retryLine = 0, ""
	}
	d := usageLimitFallback
	for i := 0; i < w.retries && i < 8; i++ {
		d *= 2
	}
	return min(d, usageLimitFallbackMax)
}

// sameLimit reports whether two usage-limit messages are the same, blanks
// aside: the screen's is joined from wrapped rows, the hook's is whole.
func sameLimit(a, b string) bool {
	return a != "" && strings.Join(strings.Fields(a), "") == strings.Join(strings.Fields(b), "")
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
	hook, hookLimit := c.hookUsageLimit(now)
	hookLimit = hookLimit && failed
	if c.facts.UsageLimit == "" && !hookLimit {
		c.wait.retries, c.wait.retryLine = 0, "" // a turn without a limit
	}
	if failed && c.facts.UsageLimit == c.wait.waited {
		// A failed turn since the last prompt makes the line news although
		// it reads as the one waited out before: Claude Code continued by
		// itself (its prompt is not echoed) and hit the same limit again.
		c.wait.waited = ""
	}
	if c.wait.resumed && c.wait.fallback > 0 && c.facts.UsageLimit == c.wait.waited {
		// The resume prompt typed into a limit that named no reset time
		// met it again: its line reads as the one waited out, and without
		// a hook nothing else says so. (A limit with a reset time is not
		// news this way: a resume the screen does not show yet would start
		// one wait after another.)
		c.wait.waited = ""
	}
	if line := c.facts.UsageLimit; line != "" && line != c.wait.waited && !c.limitQuoted(now) {
		var reset time.Time
		if ul, ok := c.agent.FindUsageLimit(c.screen.Text(), now); ok && !ul.ResetAt.IsZero() {
			reset = ul.ResetAt
		}
		if !hookLimit {
			hook = UsageLimitError{}
		}
		c.startLimitWait(now, line, reset, hook)
		return true
	}
	if hookLimit {
		// The failed turn's hook names a usage limit the screen does not
		// show (yet): its whole message is the limit's line.
		c.startLimitWait(now, hook.Line, time.Time{}, hook)
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

// hookUsageLimit reads the failed turn's hook as a usage limit, when the
// agent's hooks carry one (hookUsageLimits).
func (c *Core) hookUsageLimit(now time.Time) (UsageLimitError, bool) {
	if r, ok := c.agent.(hookUsageLimits); ok && c.hooks.turnFailed != "" {
		return r.HookUsageLimit(c.hooks.turnFailed, now)
	}
	return UsageLimitError{}, false
}

// startLimitWait waits out a usage limit until reset, the screen's reset
// time; without one until the hook's, and without either for the
// fallback (fallbackFor), which the decision says.
func (c *Core) startLimitWait(now time.Time, line string, reset time.Time, hook UsageLimitError) {
	fromHook := reset.IsZero() && !hook.ResetAt.IsZero()
	if fromHook {
		reset = hook.ResetAt
	}
	var fallback time.Duration
	if reset.IsZero() {
		fallback = c.wait.fallbackFor(line)
		reset = now.Add(fallback)
	} else {
		c.wait.retries, c.wait.retryLine = 0, ""
	}
	c.startWait(now, waitUsageLimit, reset.Add(c.cfg.UsageLimitMargin), line)
	c.wait.resetAt, c.wait.hookLine, c.wait.fallback = reset, hook.Line, fallback
	switch {
	case fromHook:
		c.decide(now, DecisionWait, "the usage limit's reset time is the failed turn's hook's: "+hook.Line)
	case fallback > 0:
		c.decide(now, DecisionWait, fmt.Sprintf("the usage limit names no reset time: waiting %s, "+
			"after %d resume prompts that met it again (doubled each time, at most %s)", fallback, c.wait.retries, usageLimitFallbackMax))
	}
}

func (c *Core) startWait(now time.Time, kind string, until time.Time, line string) {
	c.wait = waitState{kind: kind, since: now, until: until, line: line, waited: line, retries: c.wait.retries, retryLine: c.wait.retryLine}
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
		c.endWait(now, kind+" over: "+c.agent.Label()+" continued by itself ("+c.agent.AutoContinueLabel()+")")
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
		c.wait.resetAt, c.wait.fallback = ul.ResetAt, 0
		c.t.arm(tResume, c.wait.until)
		c.decide(now, DecisionWait, "new usage limit: "+c.wait.describe())
		return
	}
	if reset := c.limitReset(); kind == waitUsageLimit && c.facts.UsageLimit != "" && now.Before(reset.Add(c.cfg.UsageLimitMargin)) {
		// The limit is still the latest turn's and its reset, read now
		// (the screen redrawn, the hook's message), lies ahead: a resume
		// prompt would only meet it again.
		c.wait.until, c.wait.resetAt, c.wait.fallback = reset.Add(c.cfg.UsageLimitMargin), reset, 0
		c.t.arm(tResume, c.wait.until)
		c.decide(now, DecisionWait, "usage limit still in the latest turn, its reset at "+reset.Format("15:04:05")+
			" still ahead: "+c.wait.describe()+"; nothing is typed into a session still limited")
		return
	}
	if kind == waitUsageLimit && c.facts.AutoContinue == AutoContinueArmed {
		if grace := latest(c.wait.resetAt, c.wait.since).Add(autoContinueGrace); now.Before(grace) {
			c.wait.until = grace
			c.t.arm(tResume, grace)
			c.decide(now, DecisionWait, "usage limit over, but "+c.agent.AutoContinueLabel()+" is armed: "+
				"it continues by itself; typing nothing before "+grace.Format("15:04:05"))
			return
		}
		c.decide(now, DecisionWait, fmt.Sprintf("%s is still armed %s after the reset: taken as lost",
			c.agent.AutoContinueLabel(), now.Sub(c.wait.resetAt).Round(time.Second)))
	}
	c.endWait(now, kind+" over")
	// A failed turn a hook reported during the wait is the one waited out,
	// not news for the next idle.
	c.hooks.turnFailedAt = time.Time{}
	if c.cfg.ResumePrompt == "" || c.state != Watching || !c.facts.PromptBox || c.facts.Input != "" {
		return
	}
	reason := "resume after " + kind
	if c.wait.fallback > 0 {
		// Nothing says when the limit resets: this prompt tries, and
		// should it meet the limit again the next wait is longer.
		c.wait.retries, c.wait.retryLine = c.wait.retries+1, c.wait.line
		reason += fmt.Sprintf(" that named no reset time, after %s; should it still hold, the next wait is %s",
			c.wait.fallback, c.wait.fallbackFor(c.wait.line))
	}
	c.wait.resumed = true
	c.resumeID = c.newID()
	c.quietFrom = now
	c.armSilenceTimers()
	c.emit(Action{Kind: ActSubmit, ID: c.resumeID, Step: StepResume, Text: c.cfg.ResumePrompt})
	c.record(Decision{At: now, Kind: DecisionSend, Step: StepResume, Text: c.cfg.ResumePrompt, Reason: reason})
}

// limitReset is the reset time of the usage limit waited out as read
// now, seen from when the wait began (a bare "9:12 PM" is the one after
// that): the screen's, else that of the failed turn's hook; zero when
// neither names one.
func (c *Core) limitReset() time.Time {
	if ul, ok := c.agent.FindUsageLimit(c.screen.Text(), c.wait.since); ok && !ul.ResetAt.IsZero() {
		return ul.ResetAt
	}
	line := c.wait.hookLine
	if line == "" && !c.hooks.turnFailedAt.IsZero() {
		line = c.hooks.turnFailed // the hook came after the wait began
	}
	if r, ok := c.agent.(hookUsageLimits); ok && line != "" {
		if ul, ok := r.HookUsageLimit(line, c.wait.since); ok {
			return ul.ResetAt
		}
	}
	return time.Time{}
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
