package history

import (
	"regexp"
	"strings"

	"github.com/codeman-dev/codeman/respawn"
)

// bucket is where a pane's time goes.
type bucket int

const (
	bucketWorking bucket = iota
	bucketIdle
	bucketLimits
	bucketPerson
	bucketNotControlled
)

// model is what Report knows of a pane at one moment, record by record.
// The rules, in the order bucket applies them:
//
//   - not controlled: after a detach or not-adopted record, or a state
//     decision into stopped; until an attach record or any other state
//     decision. Before a pane's first record nothing is known and no time
//     is counted.
//   - needing a person: from a needs-you record, the controller's wait
//     decision "needs a person: <kind>: <reason>", a hook decision
//     question_pending, permission_prompt or elicitation, or any decision
//     whose reason says "a person must answer"; until a resolved record,
//     the wait decision "no longer needs a person", work (below), a send,
//     a Stop hook, a state decision into a cycle state, or a skip saying a
//     pending dialog is forgotten.
//   - waiting on limits: from a wait decision that starts or extends a
//     wait ("waiting out …", "new usage limit …", Claude Code's own
//     continue armed) until the one that ends it ("<kind> over[: why]").
//   - working: in a cycle state (sending_update … waiting_kickstart: Claude
//     runs the steps codeman typed), or in watching since work was last
//     seen: the controller starting, a hook prompt_submitted,
//     tool_started, tool_finished or question_answered, a send, a state
//     decision or veto whose reason names work or output (a cycle
//     abandoned, "working output during confirmation", "AI check says
//     WORKING", "screen shows Claude working", background agents), a wait
//     decision saying Claude continued by itself or that background tasks
//     run.
//   - idle: the rest: confirming_idle and ai_checking, and watching after
//     an idle sign (a completed cycle, a hook stop, idle_prompt,
//     turn_failed or session_ended, an idle suspicion vetoed for another
//     reason than work, a "no progress" warning) until work is seen again.
//
// A daemon killed without stopping writes no detach: the pane's last
// bucket runs on until the next daemon's records.
type model struct {
	known      bool
	controlled bool
	state      string
	working    bool
	limit      bool
	person     bool
}

func (m *model) bucket() bucket {
	switch {
	case !m.controlled:
		return bucketNotControlled
	case m.person:
		return bucketPerson
	case m.limit:
		return bucketLimits
	case m.working || inCycle(m.state):
		return bucketWorking
	}
	return bucketIdle
}

func (m *model) apply(r Record) {
	switch r.Kind {
	case KindAttach:
		*m = model{known: true, controlled: true, working: true}
	case KindDetach, KindNotAdopted:
		*m = model{known: true}
	case KindNeedsYou:
		m.person = true
	case KindResolved:
		m.person = false
	case KindDecision:
		if r.Decision != nil {
			m.known = true
			m.decision(*r.Decision)
		}
	}
}

func (m *model) decision(d respawn.Decision) {
	if strings.Contains(d.Reason, "a person must answer") {
		m.person = true
	}
	switch d.Kind {
	case respawn.DecisionState:
		m.enter(d)
	case respawn.DecisionSend:
		m.work()
	case respawn.DecisionHook:
		m.hook(strings.TrimPrefix(d.Reason, "hook "))
	case respawn.DecisionWait:
		switch {
		case strings.HasPrefix(d.Reason, needPrefix):
			m.person = true
		case strings.HasPrefix(d.Reason, needGonePrefix):
			m.person = false
		case limitStarts.MatchString(d.Reason):
			m.limit = true
		case limitEnds.MatchString(d.Reason):
			m.limit = false
			if strings.Contains(d.Reason, "continued by itself") {
				m.work()
			}
		case strings.Contains(d.Reason, "background task"):
			m.working = true
		}
	case respawn.DecisionVeto:
		if namesWork(d.Reason) {
			m.work()
		}
	case respawn.DecisionSkip:
		if strings.HasSuffix(d.Reason, "no longer on screen; forgotten") {
			m.person = false
		}
	case respawn.DecisionWarn:
		if strings.HasPrefix(d.Reason, "no progress for") {
			m.working = false
		}
	}
}

// enter applies a state decision.
func (m *model) enter(d respawn.Decision) {
	m.state = d.To
	if d.To == respawn.Stopped.String() {
		*m = model{known: true}
		return
	}
	m.controlled = true
	switch {
	case inCycle(d.To):
		m.person = false
		m.working = true
	case d.To != respawn.Watching.String():
		m.working = false // confirming_idle, ai_checking
	case CompletesCycle(d):
		m.working = false
	case d.From == respawn.Stopped.String() || inCycle(d.From):
		m.working = true // started, or a cycle abandoned: Claude went on
	default:
		m.working = namesWork(d.Reason)
		if m.working {
			m.person = false
		}
	}
}

func (m *model) hook(h string) {
	name, _, _ := strings.Cut(h, " ")
	switch name {
	case "prompt_submitted", "tool_started", "tool_finished", "question_answered":
		m.work()
	case "stop":
		m.working, m.person = false, false
	case "idle_prompt", "turn_failed", "session_ended":
		m.working = false
	case "question_pending", "permission_prompt", "elicitation":
		m.person = true
	}
}

// work: Claude is working, so nothing waits for a person.
func (m *model) work() { m.working, m.person = true, false }

func inCycle(state string) bool {
	s, ok := respawn.ParseState(state)
	return ok && s.InCycle()
}

// The controller's wait decisions that raise and clear a pane's need for
// a person.
const (
	needPrefix     = "needs a person: "
	needGonePrefix = "no longer needs a person"
)

var (
	// cycleComplete is the reason the core gives a cycle's end.
	cycleComplete = regexp.MustCompile(`^cycle \d+ complete`)
	// limitStarts and limitEnds read the core's wait decisions.
	limitStarts = regexp.MustCompile(`^waiting out |^new usage limit|own continue is armed`)
	limitEnds   = regexp.MustCompile(`^[A-Za-z][A-Za-z ]* over(: |$)`)
	workWords   = regexp.MustCompile(`(?i)working|output during|printed since|prompt submitted|started \(hook\)|background`)
)

// CompletesCycle reports whether d ends a respawn cycle: the core's
// "cycle N complete" into watching, or any state decision out of
// waiting_kickstart into watching.
func CompletesCycle(d respawn.Decision) bool {
	return d.Kind == respawn.DecisionState && d.To == respawn.Watching.String() &&
		(cycleComplete.MatchString(d.Reason) || d.From == respawn.WaitingKickstart.String())
}

// namesWork reports whether a reason says Claude works or printed.
func namesWork(reason string) bool {
	return workWords.MatchString(reason) && !strings.Contains(reason, "a person must answer")
}
