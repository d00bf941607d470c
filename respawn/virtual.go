package respawn

import (
	"fmt"
	"time"
)

// Virtual drives a Core in virtual time, the way the core tests and
// replay do: no goroutine and no clock, each deadline fired at its own
// time and the actions it leads to carried out at once. Controller is the
// real-time driver; Virtual is the other one (after etcd-io/raft's
// RawNode, which hands a driver the pure state machine and nothing else).
type Virtual struct {
	Core *Core
	Now  time.Time
	// Do carries out one action at Now. It may feed the core (a screen, a
	// send's result); Perform goes on until no action is left.
	Do func(Action)
}

// maxSameDeadline bounds how often one deadline may fire without time
// moving before AdvanceTo calls it a bug.
const maxSameDeadline = 10000

// Perform hands the core's actions to Do until there are none.
func (v *Virtual) Perform() {
	for {
		actions := v.Core.Actions()
		if len(actions) == 0 {
			return
		}
		for _, a := range actions {
			v.Do(a)
		}
	}
}

// AdvanceTo moves Now to t, firing every deadline on the way at its exact
// time and performing what each leads to. It fails when one deadline keeps
// firing at the same time.
func (v *Virtual) AdvanceTo(t time.Time) error {
	var last time.Time
	for same := 0; ; same++ {
		at, ok := v.Core.Deadline()
		if !ok || at.After(t) {
			break
		}
		if !at.Equal(last) {
			last, same = at, 0
		}
		if same > maxSameDeadline {
			return fmt.Errorf("a deadline at %s fires again and again", at.Format(time.TimeOnly))
		}
		if at.After(v.Now) {
			v.Now = at
		}
		v.Core.Tick(v.Now)
		v.Perform()
	}
	if t.After(v.Now) {
		v.Now = t
	}
	return nil
}
