package respawn

import (
	"fmt"
	"time"
)

// DecisionKind classifies a decision of the controller.
type DecisionKind string

const (
	DecisionState DecisionKind = "state" // a state change
	DecisionSend  DecisionKind = "send"  // text typed or a key pressed
	DecisionSkip  DecisionKind = "skip"  // something not done, and why
	DecisionVeto  DecisionKind = "veto"  // evidence stopped a send or a cycle
	DecisionCheck DecisionKind = "check" // an AI check started or answered
	DecisionHook  DecisionKind = "hook"  // a hook signal arrived
	DecisionWait  DecisionKind = "wait"  // waiting on a limit, an error or a person
	DecisionWarn  DecisionKind = "warn"  // something is wrong
)

// Decision is one thing the controller decided, with its reason. Decisions
// are the controller's log: status, explain, the daemon log and the replay
// timeline all show them.
type Decision struct {
	At     time.Time    `json:"at"`
	Kind   DecisionKind `json:"kind"`
	From   string       `json:"from,omitempty"` // state changes
	To     string       `json:"to,omitempty"`
	Step   Step         `json:"step,omitempty"` // sends
	Text   string       `json:"text,omitempty"` // typed text
	Key    Key          `json:"key,omitempty"`  // pressed key
	Reason string       `json:"reason"`
}

func (d Decision) String() string {
	switch d.Kind {
	case DecisionState:
		return fmt.Sprintf("state %s -> %s: %s", d.From, d.To, d.Reason)
	case DecisionSend:
		if d.Key != "" {
			return fmt.Sprintf("send %s key %s: %s", d.Step, d.Key, d.Reason)
		}
		return fmt.Sprintf("send %s %q: %s", d.Step, d.Text, d.Reason)
	}
	return fmt.Sprintf("%s: %s", d.Kind, d.Reason)
}

// DecisionLogSize bounds the decisions a controller keeps.
const DecisionLogSize = 200

// decisionLog is a ring of the newest decisions.
type decisionLog struct {
	buf  [DecisionLogSize]Decision
	next int
	n    int
}

func (l *decisionLog) add(d Decision) {
	l.buf[l.next] = d
	l.next = (l.next + 1) % len(l.buf)
	if l.n < len(l.buf) {
		l.n++
	}
}

// last returns up to n decisions, oldest first.
func (l *decisionLog) last(n int) []Decision {
	if n > l.n {
		n = l.n
	}
	out := make([]Decision, n)
	start := (l.next - n + len(l.buf)) % len(l.buf)
	for i := range out {
		out[i] = l.buf[(start+i)%len(l.buf)]
	}
	return out
}
