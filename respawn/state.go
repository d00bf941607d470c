package respawn

// State is where a controller is in its watch-and-cycle loop. The thirteen
// states are those of the original controller (docs/ARCHITECTURE.md).
type State int

const (
	Stopped State = iota
	Watching
	ConfirmingIdle
	AIChecking
	SendingUpdate
	WaitingUpdate
	SendingClear
	WaitingClear
	SendingInit
	WaitingInit
	MonitoringInit
	SendingKickstart
	WaitingKickstart
	numStates
)

var stateNames = [numStates]string{
	Stopped:          "stopped",
	Watching:         "watching",
	ConfirmingIdle:   "confirming_idle",
	AIChecking:       "ai_checking",
	SendingUpdate:    "sending_update",
	WaitingUpdate:    "waiting_update",
	SendingClear:     "sending_clear",
	WaitingClear:     "waiting_clear",
	SendingInit:      "sending_init",
	WaitingInit:      "waiting_init",
	MonitoringInit:   "monitoring_init",
	SendingKickstart: "sending_kickstart",
	WaitingKickstart: "waiting_kickstart",
}

func (s State) String() string {
	if s >= 0 && s < numStates {
		return stateNames[s]
	}
	return "invalid"
}

// ParseState is the inverse of String.
func ParseState(name string) (State, bool) {
	for s, n := range stateNames {
		if n == name {
			return State(s), true
		}
	}
	return 0, false
}

// InCycle reports whether s is one of the states of a respawn cycle.
func (s State) InCycle() bool { return s >= SendingUpdate }

// sending reports whether s waits to type a step.
func (s State) sending() bool {
	switch s {
	case SendingUpdate, SendingClear, SendingInit, SendingKickstart:
		return true
	}
	return false
}

// Step is one input a cycle types, or the Enter of a plan acceptance.
type Step string

const (
	StepUpdate     Step = "update"
	StepClear      Step = "clear"
	StepInit       Step = "init"
	StepKickstart  Step = "kickstart"
	StepAutoAccept Step = "auto-accept"
	StepResume     Step = "resume"
)

// stepOf maps a sending or waiting state to its step.
func stepOf(s State) Step {
	switch s {
	case SendingUpdate, WaitingUpdate:
		return StepUpdate
	case SendingClear, WaitingClear:
		return StepClear
	case SendingInit, WaitingInit, MonitoringInit:
		return StepInit
	case SendingKickstart, WaitingKickstart:
		return StepKickstart
	}
	return ""
}

// waitingFor maps a sending state to the state that waits for its step.
var waitingFor = map[State]State{
	SendingUpdate:    WaitingUpdate,
	SendingClear:     WaitingClear,
	SendingInit:      WaitingInit,
	SendingKickstart: WaitingKickstart,
}

// transitions lists every allowed from -> to pair; anything else is a bug
// and panics in enterState. Every state may go to Stopped and Watching.
var transitions = map[State][]State{
	Stopped:          {Watching},
	Watching:         {ConfirmingIdle, AIChecking, SendingUpdate},
	ConfirmingIdle:   {AIChecking, SendingUpdate},
	AIChecking:       {ConfirmingIdle, SendingUpdate},
	SendingUpdate:    {WaitingUpdate},
	WaitingUpdate:    {SendingClear, SendingInit},
	SendingClear:     {WaitingClear},
	WaitingClear:     {SendingInit},
	SendingInit:      {WaitingInit},
	WaitingInit:      {MonitoringInit},
	MonitoringInit:   {SendingKickstart},
	SendingKickstart: {WaitingKickstart},
	WaitingKickstart: {},
}

func allowed(from, to State) bool {
	if to == Stopped || (to == Watching && from != Watching) {
		return true
	}
	for _, s := range transitions[from] {
		if s == to {
			return true
		}
	}
	return false
}
