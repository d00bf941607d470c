package respawn

import (
	"fmt"
	"time"
)

// checkGate is the status model of one AI checker: ready,
// cooling down after a negative verdict, backing off after errors, paused
// by a usage limit, or disabled. The controller owns it so that the
// Checker stays a plain function and the rules are tested with hand-made
// times.
type checkGate struct {
	kind     CheckKind
	cfg      CheckConfig
	errBase  time.Duration
	until    time.Time // end of a cooldown, backoff or usage-limit pause
	why      string    // what until is for
	errors   int       // consecutive errors
	disabled string    // reason, "" when enabled
}

func newCheckGate(kind CheckKind, cfg CheckConfig, errBase time.Duration) checkGate {
	return checkGate{kind: kind, cfg: cfg, errBase: errBase}
}

// off reports whether checks of this kind are not run at all, so the
// controller decides without them.
func (g *checkGate) off() (bool, string) {
	if !g.cfg.Enabled {
		return true, "AI " + g.kind.String() + " check off"
	}
	if g.disabled != "" {
		return true, "AI " + g.kind.String() + " check disabled: " + g.disabled
	}
	return false, ""
}

// waiting reports whether a check must wait, and why.
func (g *checkGate) waiting(now time.Time) (bool, string) {
	if now.Before(g.until) {
		return true, fmt.Sprintf("AI %s check %s (%s remaining)", g.kind, g.why, g.until.Sub(now).Round(time.Second))
	}
	return false, ""
}

func (g *checkGate) positive() { g.errors = 0 }

func (g *checkGate) negative(now time.Time) {
	g.errors = 0
	g.until, g.why = now.Add(g.cfg.Cooldown), "on cooldown"
}

// fail counts an error; the third in a row disables the checker, the
// others back off exponentially from errBase up to a cap.
func (g *checkGate) fail(now time.Time, err error) string {
	g.errors++
	if g.errors >= maxCheckErrors {
		g.disabled = fmt.Sprintf("%d consecutive errors: %v", g.errors, err)
		return "disabled after " + g.disabled
	}
	backoff := min(g.errBase<<(g.errors-1), checkErrorBackoffCap)
	g.until, g.why = now.Add(backoff), "backing off after an error"
	return fmt.Sprintf("error %d of %d, next check in %s", g.errors, maxCheckErrors, backoff)
}

// limit pauses checks until a usage limit resets; it is not an error.
func (g *checkGate) limit(now, reset time.Time) time.Time {
	if reset.IsZero() || reset.Before(now) {
		reset = now.Add(g.errBase)
	}
	g.until, g.why = reset, "paused by a usage limit"
	return reset
}

func (g *checkGate) disable(reason string) { g.disabled = reason }

// setConfig applies new settings; enabling the check clears errors and
// re-enables a checker that errors had disabled.
func (g *checkGate) setConfig(cfg CheckConfig) {
	if cfg.Enabled {
		g.disabled, g.errors = "", 0
	}
	g.cfg = cfg
}

// GateStatus is an AI checker's state, for status and explain.
type GateStatus struct {
	Enabled  bool      `json:"enabled"`
	Disabled string    `json:"disabled,omitempty"`
	Until    time.Time `json:"until,omitzero"`
	Why      string    `json:"why,omitempty"`
	Errors   int       `json:"errors,omitempty"`
	Running  bool      `json:"running,omitempty"`
}

func (g *checkGate) status(now time.Time, running bool) GateStatus {
	s := GateStatus{Enabled: g.cfg.Enabled, Disabled: g.disabled, Errors: g.errors, Running: running}
	if now.Before(g.until) {
		s.Until, s.Why = g.until, g.why
	}
	return s
}

// runningCheck is a check in flight.
type runningCheck struct {
	id        uint64
	startedAt time.Time
}
