package respawn

import "time"

// timer names one deadline of the core. The core keeps every deadline in a
// fixed table and reports the earliest; the loop arms one real timer for it.
type timer int

const (
	tNoOutput          timer = iota // silence fallback in watching/confirming_idle
	tPreFilter                      // silence before an AI idle check (AI on only)
	tAutoAccept                     // silence before a plan menu is accepted
	tCompletionConfirm              // silence after a completion line
	tHookConfirm                    // silence after a Stop hook
	tStepDelay                      // pause before a step is typed
	tStepConfirm                    // silence that ends a step
	tClearFallback                  // go on to /init when /clear shows nothing
	tInitGrace                      // monitoring_init grace
	tResume                         // end of a usage-limit or API-error wait
	tStuck                          // stuck watchdog
	tDuration                       // end of a timed run
	tScreenRetry                    // a snapshot failed; try again
	numTimers
)

var timerNames = [numTimers]string{
	tNoOutput:          "no-output-fallback",
	tPreFilter:         "pre-filter",
	tAutoAccept:        "auto-accept",
	tCompletionConfirm: "completion-confirm",
	tHookConfirm:       "hook-confirm",
	tStepDelay:         "step-delay",
	tStepConfirm:       "step-confirm",
	tClearFallback:     "clear-fallback",
	tInitGrace:         "init-grace",
	tResume:            "resume",
	tStuck:             "stuck-watchdog",
	tDuration:          "duration",
	tScreenRetry:       "screen-retry",
}

func (t timer) String() string { return timerNames[t] }

// timers is the deadline table; a zero time means disarmed.
type timers [numTimers]time.Time

func (ts *timers) arm(t timer, at time.Time) { ts[t] = at }
func (ts *timers) stop(t timer)              { ts[t] = time.Time{} }

// next returns the earliest armed deadline and its timer.
func (ts *timers) next() (timer, time.Time, bool) {
	best, found := timer(0), false
	for t := range ts {
		if ts[t].IsZero() {
			continue
		}
		if !found || ts[t].Before(ts[best]) {
			best, found = timer(t), true
		}
	}
	return best, ts[best], found
}

// TimerStatus is one armed deadline, for explain.
type TimerStatus struct {
	Name      string        `json:"name"`
	Remaining time.Duration `json:"remaining"`
}

func (ts *timers) status(now time.Time) []TimerStatus {
	var out []TimerStatus
	for t := range ts {
		if !ts[t].IsZero() {
			out = append(out, TimerStatus{Name: timer(t).String(), Remaining: max(ts[t].Sub(now), 0)})
		}
	}
	return out
}
