package aicheck

import "time"

// SetKillGrace shortens the SIGTERM-to-SIGKILL grace for tests.
func SetKillGrace(r *Runner, d time.Duration) { r.killGrace = d }

// Queued returns how many checks wait for a slot.
func Queued(r *Runner) int { return int(r.queued.Load()) }
