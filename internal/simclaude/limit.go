package simclaude

import (
	"fmt"
	"time"
)

// usageLimit is a 5-hour usage limit (capture 55): every turn fails until
// resetAt, when Claude continues by itself unless Esc cancelled that.
type usageLimit struct {
	resetAt time.Time
	auto    bool // "continuing automatically" is still armed
	item    int  // the prompt echo holding the "You've hit" line; -1 after /clear
}

func (m *model) limitActive(now time.Time) bool {
	return m.limit != nil && now.Before(m.limit.resetAt)
}

// limitClock writes 10:06pm, as the limit lines do.
func limitClock(t time.Time) string { return t.Format("3:04pm") }

// hitLimit ends the turn on the usage limit: no completion line.
func (m *model) hitLimit(now time.Time) {
	if m.codex() {
		m.codexHitLimit(now)
		return
	}
	if m.limit == nil {
		m.limit = &usageLimit{resetAt: now.Add(m.cfg.LimitReset)}
	}
	m.limit.auto = true
	m.limitCancelled = false
	reset := m.limit.resetAt
	msg := fmt.Sprintf("You've hit your 5-hour limit · resets %s (%s)", limitClock(reset), reset.Format("MST"))
	m.appendToLast(resultLine(colorLimit, msg))
	m.limit.item = len(m.items) - 1
	m.items = append(m.items, item{lines: []line{noticeLine(
		fmt.Sprintf("Usage limit reached · continuing automatically at %s · esc to cancel", limitClock(reset)))}})
	m.hookStopFailure("rate_limit", msg)
	m.endTurn(OutcomeLimit, now)
}

// cancelAutoContinue is Esc while the limit waits (capture 56).
func (m *model) cancelAutoContinue() {
	m.limit.auto = false
	m.limitCancelled = true
	if i := m.limit.item; i >= 0 {
		m.items[i].lines = append(m.items[i].lines, text("     ", colorDim, "/upgrade to increase your usage limit."))
	}
	m.items = append(m.items, item{lines: []line{noticeLine("Automatic continue cancelled · /rate-limit-options to re-arm")}})
}

// limitReset lifts the limit and, if still armed, continues the work.
func (m *model) limitReset(now time.Time) {
	auto := m.limit.auto
	m.limit = nil
	if !auto || m.turn != nil {
		return
	}
	m.idleNotifyAt = time.Time{}
	const resume = "continue"
	m.beginTurn(resume, newUUID(m.rng), now, m.ordinarySteps(m.cfg.Work, resume))
}

// limitRows are the two lines under the prompt box while the automatic
// continue is armed.
func (m *model) limitRows() []string {
	if m.limit == nil || !m.limit.auto {
		return nil
	}
	at := limitClock(m.limit.resetAt)
	return []string{
		"  " + fg(colorText, "⚠ Usage limit reached · limit resets "+at),
		"    " + fg(colorText, "Continuing automatically at "+at+" · Esc to cancel"),
	}
}
