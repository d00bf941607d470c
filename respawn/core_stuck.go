package respawn

import (
	"fmt"
	"time"
)

// onStuck is the watchdog. It counts silence without progress, so long
// work that prints never trips it.
func (c *Core) onStuck(now time.Time) {
	if c.state == Stopped || c.paused {
		return
	}
	if c.wait.active() {
		// Waiting out a limit is not being stuck. Counted from the wait's
		// end, or from now when that has passed: a deadline in the past
		// would fire again at once, for ever.
		c.stuckAt = latest(c.wait.until, now)
		c.armStuck()
		return
	}
	if k := c.need.cur.Kind; k != "" && k != NeedStuck {
		// Waiting for a person is not being stuck; a recovery would only
		// find the same dialog again.
		c.stuckAt = now
		c.armStuck()
		return
	}
	silent := now.Sub(latest(latest(c.lastOutput, c.stateAt), c.stuckAt))
	if !c.stuckWarned {
		if silent >= c.cfg.StuckWarning {
			c.stuckWarned = true
			c.decide(now, DecisionWarn, fmt.Sprintf("no progress for %s in %s", silent.Round(time.Second), c.state))
		}
		c.armStuck()
		return
	}
	if silent < c.cfg.StuckRecovery {
		c.armStuck()
		return
	}
	if c.needScreen(tStuck) {
		return // runs again with a fresh screen
	}
	c.stuckAt = now
	if c.stuckRecoveries >= c.cfg.MaxStuckRecoveries {
		c.need.stuck = fmt.Sprintf("no progress in %s for %s; %d recoveries done", c.state, silent.Round(time.Second), c.stuckRecoveries)
		c.veto(now, fmt.Sprintf("stuck in %s; %d recoveries done, waiting for output or a person", c.state, c.stuckRecoveries))
		c.armStuck()
		return
	}
	c.stuckRecoveries++
	c.decide(now, DecisionWarn, fmt.Sprintf("stuck recovery %d of %d: no progress for %s in %s", c.stuckRecoveries, c.cfg.MaxStuckRecoveries, silent.Round(time.Second), c.state))
	c.cancelChecks()
	switch c.state {
	case Watching, ConfirmingIdle, AIChecking:
		if c.state == AIChecking {
			c.enterState(now, Watching, "stuck recovery")
		}
		c.confirmIdle(now, tStuck, fmt.Sprintf("stuck-state recovery (was %s)", c.state))
	case WaitingUpdate, WaitingClear, WaitingInit, WaitingKickstart, MonitoringInit:
		c.completeCycle(now, "stuck-state recovery")
	default:
		c.sendID = 0
		c.enterState(now, Watching, "stuck-state recovery")
	}
	c.armStuck()
}
