package history

import (
	"time"

	"github.com/codeman-dev/codeman/respawn"
)

// Version is the version of the records Write writes.
const Version = 1

// Record kinds. Other kinds are written and read as they come.
const (
	KindDecision   = "decision"    // a controller's decision
	KindAttach     = "attach"      // a controller started
	KindDetach     = "detach"      // a controller ended
	KindNotAdopted = "not-adopted" // an enabled pane the daemon could not control
	KindNeedsYou   = "needs-you"   // a person must answer; Reason is "<kind>: <reason>"
	KindResolved   = "resolved"    // what needed a person is gone
)

// Record is one line of a pane's history.
type Record struct {
	V        int               `json:"v"`
	At       time.Time         `json:"at"`
	Pane     string            `json:"pane"`
	Kind     string            `json:"kind"`
	Decision *respawn.Decision `json:"decision,omitempty"`
	State    string            `json:"state,omitempty"`
	Reason   string            `json:"reason,omitempty"`
}

// String is the record as codeman log prints it: a decision's own line,
// else the kind and the reason.
func (r Record) String() string {
	switch {
	case r.Decision != nil:
		return r.Decision.String()
	case r.Reason != "":
		return r.Kind + ": " + r.Reason
	}
	return r.Kind
}
