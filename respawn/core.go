package respawn

import (
	"fmt"
	"time"
)

// ActionKind says what an Action asks the loop to do.
type ActionKind int

const (
	// ActSubmit types Text into the pane and presses Enter (Terminal.Submit).
	ActSubmit ActionKind = iota + 1
	// ActPress presses Key (Terminal.Press).
	ActPress
	// ActCheck runs an AI check (Checker.Check); the answer comes back
	// through Core.CheckDone with the same ID.
	ActCheck
	// ActCancelCheck cancels the check with ID; its result is ignored.
	ActCancelCheck
	// ActSnapshot asks for a fresh screen (Terminal.Snapshot), delivered
	// through Core.Screen or Core.SnapshotFailed.
	ActSnapshot
	// ActStatus publishes a one-line status (tmux @codeman-state).
	ActStatus
	// ActDecision publishes a decision.
	ActDecision
	// ActNeed says the pane's need for a person changed: Need is the new
	// one, its Kind "" when nobody is needed any more.
	ActNeed
	// ActDone says the controller stopped for good (duration reached,
	// pane gone); the loop ends.
	ActDone
)

// Action is one side effect the core asks for. Sends and checks report
// back through SendDone and CheckDone with the action's ID.
type Action struct {
	Kind     ActionKind
	ID       uint64
	Step     Step
	Text     string
	Key      Key
	Check    CheckRequest
	Status   string
	Decision Decision
	Need     Need
}

// Core is the pure controller of one pane: no goroutine, no clock, no I/O
// (after etcd-io/raft). Every input carries the current time; the core
// queues Actions and reports its next deadline. Controller drives it for
// real panes, replay drives it in virtual time.
type Core struct {
	cfg   Config
	agent Agent
	det   Stream
	pane  string

	state   State
	stateAt time.Time
	paused  bool
	cycles  int
	t       timers
	log     decisionLog
	actions []Action
	nextID  uint64
	status  string

	// Evidence from the output stream and the screen.
	startedAt  time.Time
	lastOutput time.Time // the newest output chunk that was not cosmetic
	// lastChange is the newest output known to have changed what the
	// screen shows outside the rows that redraw by themselves (a status
	// line with a clock): lastOutput until a fresh screen's Content shows
	// the output since the screen before changed none of it. Silence
	// counts from here.
	lastChange       time.Time
	content          uint64 // Content of the last fresh screen, 0 if unknown
	outputSinceEnter bool   // output since the last auto-accept Enter (no Enter twice)
	lastWorking      time.Time
	lastTokenChange  time.Time
	tokens           int64
	completionAt     time.Time
	screen           Screen
	facts            ScreenFacts
	snapshotID       uint64          // snapshot in flight, 0 if none
	outputSeq        uint64          // counts output chunks
	snapshotSeq      uint64          // outputSeq when the snapshot in flight was asked for
	screenSeq        uint64          // outputSeq when the current screen was asked for
	waitingScreen    [numTimers]bool // decisions waiting for a fresh screen

	// Evidence from hooks.
	hooks hookFlags

	// The step being typed.
	sendID       uint64
	sendAttempts int
	sendStarted  time.Time // when the step in flight was handed to the terminal
	stepSentAt   time.Time // when the step's typing began (hooks after it may be its turn's)
	stepEndedAt  time.Time // when the last step's turn was taken as over

	// AI checks.
	idleGate, planGate   checkGate
	idleCheck, planCheck runningCheck

	// A usage limit or a failed turn being waited out.
	wait waitState

	// Conditions only a person can resolve.
	need needState

	// notAgent is why the terminal refused the last send (ErrNotAgent),
	// until output or a hook shows the pane doing something again.
	notAgent string

	stuckRecoveries int
	stuckWarned     bool
	stuckAt         time.Time // last watchdog action
	lastVeto        string
	quietFrom       time.Time // silence timers count from here at the earliest: last veto, cycle end or resume
	acceptID        uint64    // auto-accept Enter in flight
	resumeID        uint64    // resume prompt in flight
}

// NewCore returns a stopped core for the pane with the given address and
// the agent that runs in it. It panics without an agent: the core reads
// every screen and every chunk of output through it.
func NewCore(pane string, cfg Config, agent Agent) *Core {
	if agent == nil {
		panic("respawn: NewCore without an Agent: the core reads the pane's screen and output through it")
	}
	c := &Core{cfg: cfg, agent: agent, det: agent.NewStream(), pane: pane, tokens: -1}
	c.idleGate = newCheckGate(IdleCheck, cfg.AIIdleCheck, idleCheckErrorBase)
	c.planGate = newCheckGate(PlanCheck, cfg.AIPlanCheck, planCheckErrorBase)
	return c
}

// State returns the current state.
func (c *Core) State() State { return c.state }

// Cycles returns the number of cycles started.
func (c *Core) Cycles() int { return c.cycles }

// Actions returns and clears the queued actions.
func (c *Core) Actions() []Action {
	a := c.actions
	c.actions = nil
	return a
}

// Deadline returns the earliest time Tick must be called, if any.
func (c *Core) Deadline() (time.Time, bool) {
	_, at, ok := c.t.next()
	return at, ok
}

// Start begins watching. The pane's silence is counted from now.
func (c *Core) Start(now time.Time) {
	if c.state != Stopped {
		return
	}
	c.startedAt, c.lastOutput, c.lastChange = now, now, now
	c.enterState(now, Watching, "started")
	if c.cfg.Duration > 0 {
		c.t.arm(tDuration, now.Add(c.cfg.Duration))
	}
	c.requestSnapshot()
}

// Stop ends the controller; nothing more is sent.
func (c *Core) Stop(now time.Time, reason string) {
	defer c.updateNeed(now)
	if c.state == Stopped {
		return
	}
	c.cancelChecks()
	c.t = timers{}
	c.sendID = 0
	c.enterState(now, Stopped, reason)
	c.emit(Action{Kind: ActDone})
}

// Pause keeps the state but stops every timer; nothing is sent while paused.
func (c *Core) Pause(now time.Time) {
	defer c.updateNeed(now)
	if c.paused || c.state == Stopped {
		return
	}
	c.paused = true
	c.cancelChecks()
	if c.state == AIChecking {
		c.enterState(now, Watching, "paused during AI check")
	}
	duration := c.t[tDuration]
	c.t = timers{}
	c.t[tDuration] = duration
	c.decide(now, DecisionSkip, "paused: nothing is sent until resumed")
	c.setStatus()
}

// Resume re-arms the timers of the current state. A cycle paused before a
// step was typed types that step again.
func (c *Core) Resume(now time.Time) {
	defer c.updateNeed(now)
	if !c.paused {
		return
	}
	c.paused = false
	// Silence and the watchdog count from now: a pause is neither.
	c.quietFrom, c.stuckAt = now, now
	c.decide(now, DecisionSkip, "resumed")
	c.armStateTimers(now)
	c.setStatus()
	c.clearFinishedEarly(now, "/clear finished while paused (SessionStart hook)")
}

// SetConfig replaces the configuration. Running timers keep their
// deadlines; the next ones use the new values. Enabling an AI check
// re-enables a checker that errors had disabled.
func (c *Core) SetConfig(now time.Time, cfg Config) {
	defer c.updateNeed(now)
	c.cfg = cfg
	c.idleGate.setConfig(cfg.AIIdleCheck)
	c.planGate.setConfig(cfg.AIPlanCheck)
	c.decide(now, DecisionSkip, "configuration updated")
}

// maxFiresPerTick bounds the deadlines one Tick fires. A timer that keeps
// re-arming itself at or before now is a bug; it is stopped and said so,
// rather than spinning the loop for ever.
const maxFiresPerTick = 1000

// Tick fires every deadline that is due at now. Every input ends here, so
// the pane's need for a person is brought up to date here too.
func (c *Core) Tick(now time.Time) {
	defer c.updateNeed(now)
	for fires := 0; ; fires++ {
		t, at, ok := c.t.next()
		if !ok || at.After(now) {
			return
		}
		c.t.stop(t)
		if fires >= maxFiresPerTick {
			c.decide(now, DecisionWarn, fmt.Sprintf("bug: timer %s fired %d times at %s; stopped", t, fires, now.Format(time.TimeOnly)))
			return
		}
		c.fire(now, t)
	}
}

// fire runs the decision a timer stands for. While paused only the
// configured duration ends the controller: a decision that waited for a
// screen when the pause came is taken again on resume.
func (c *Core) fire(now time.Time, t timer) {
	if c.paused && t != tDuration {
		return
	}
	switch t {
	case tNoOutput:
		c.onNoOutput(now)
	case tPreFilter:
		c.onPreFilter(now)
	case tAutoAccept:
		c.onAutoAccept(now)
	case tCompletionConfirm:
		c.onCompletionConfirm(now)
	case tHookConfirm:
		c.onHookConfirm(now)
	case tStepDelay:
		c.onStepDelay(now)
	case tStepConfirm:
		c.onStepConfirm(now)
	case tClearFallback:
		c.onClearFallback(now)
	case tInitGrace:
		c.onInitGrace(now)
	case tResume:
		c.onResume(now)
	case tStuck:
		c.onStuck(now)
	case tDuration:
		c.Stop(now, fmt.Sprintf("duration of %s reached", c.cfg.Duration))
	case tScreenRetry:
		c.requestSnapshot()
	}
}

// enterState is the only place the state changes.
func (c *Core) enterState(now time.Time, to State, reason string) {
	from := c.state
	if from == to {
		return
	}
	if !allowed(from, to) {
		panic(fmt.Sprintf("respawn: transition %s -> %s is not allowed (%s)", from, to, reason))
	}
	c.state, c.stateAt = to, now
	c.stuckWarned = false
	c.lastVeto = ""
	for t := range c.waitingScreen {
		c.waitingScreen[t] = false
	}
	c.record(Decision{At: now, Kind: DecisionState, From: from.String(), To: to.String(), Reason: reason})
	c.armStateTimers(now)
	c.setStatus()
}

// armStateTimers arms what the current state waits for, replacing the
// timers of the state left behind.
func (c *Core) armStateTimers(now time.Time) {
	keep := [...]timer{tDuration, tResume, tScreenRetry}
	var saved timers
	for _, t := range keep {
		saved[t] = c.t[t]
	}
	c.t = saved
	if c.paused || c.state == Stopped {
		return
	}
	if c.wait.active() && c.t[tResume].IsZero() {
		// A pause dropped the wait's end; it comes now if it has passed.
		c.t.arm(tResume, latest(now, c.wait.until))
	}
	switch c.state {
	case SendingUpdate, SendingClear, SendingInit, SendingKickstart:
		c.t.arm(tStepDelay, now.Add(c.cfg.InterStepDelay))
	case WaitingClear:
		c.t.arm(tClearFallback, now.Add(clearFallback))
	case MonitoringInit:
		c.t.arm(tInitGrace, now.Add(initGrace))
	}
	c.armSilence()
}

// armSilence arms the timers of the current state that wait for a quiet
// pane. Entering or resuming a state and every output chunk arm them here,
// and each deadline has one formula, which its handler checks again when
// it fires.
func (c *Core) armSilence() {
	switch c.state {
	case Watching:
		c.armSilenceTimers()
	case ConfirmingIdle:
		c.armSilenceTimers()
		c.t.stop(tAutoAccept)
		if c.hooks.stopAt.IsZero() {
			c.t.arm(tCompletionConfirm, c.completionConfirmAt())
		} else {
			c.t.stop(tCompletionConfirm)
			c.t.arm(tHookConfirm, c.hookConfirmAt())
		}
	case WaitingUpdate, WaitingClear, WaitingInit, WaitingKickstart:
		c.t.arm(tStepConfirm, c.stepConfirmAt())
	}
	c.armStuck()
}

// armSilenceTimers arms the watching timers from the last output.
func (c *Core) armSilenceTimers() {
	base := c.silenceBase()
	c.t.arm(tNoOutput, base.Add(c.cfg.NoOutputTimeout))
	if off, _ := c.idleGate.off(); !off {
		c.t.arm(tPreFilter, base.Add(c.cfg.CompletionConfirm))
	}
	if c.cfg.AutoAcceptPrompts {
		c.t.arm(tAutoAccept, base.Add(c.cfg.AutoAcceptDelay))
	}
}

// armStuck arms the watchdog: it measures silence without progress, so a
// pane that keeps printing never trips it.
func (c *Core) armStuck() {
	if !c.cfg.StuckDetection || c.state == Stopped || c.paused {
		return
	}
	since := latest(latest(c.lastOutput, c.stateAt), c.stuckAt)
	if c.stuckWarned {
		c.t.arm(tStuck, since.Add(c.cfg.StuckRecovery))
	} else {
		c.t.arm(tStuck, since.Add(c.cfg.StuckWarning))
	}
}

// silenceBase is where silence starts counting: the last output, or later
// when a veto, a cycle's end or a resume came after it, so a
// condition that holds (a question nobody answers) is looked at again
// later, not in a loop.
func (c *Core) silenceBase() time.Time { return latest(c.lastChange, c.quietFrom) }

// completionConfirmAt is when a completion line has been followed by
// completion_confirm of silence.
func (c *Core) completionConfirmAt() time.Time {
	return c.silenceBase().Add(c.cfg.CompletionConfirm)
}

// hookConfirmAt is when a Stop hook has been followed by the short hook
// silence. idle_prompt comes a minute after the turn ended: it needs none.
func (c *Core) hookConfirmAt() time.Time {
	if c.hooks.idlePrompt {
		return c.hooks.stopAt
	}
	return latest(c.silenceBase(), c.hooks.stopAt).Add(c.hookSilence())
}

// stepConfirmAt is when a typed step's turn has been quiet long enough to
// be over: no output, no working signal and no Stop hook for stepSilence.
func (c *Core) stepConfirmAt() time.Time {
	from := latest(latest(c.silenceBase(), c.stateAt), latest(c.lastWorking, c.hooks.stopAt))
	return from.Add(c.stepSilence())
}

// hookSilence is the silence that confirms a Stop hook: hookConfirmDelay,
// or completion_confirm when that is shorter (the exact signal must not
// wait longer than the screen evidence would).
func (c *Core) hookSilence() time.Duration {
	return min(hookConfirmDelay, c.cfg.CompletionConfirm)
}

func (c *Core) newID() uint64 {
	c.nextID++
	return c.nextID
}

func (c *Core) emit(a Action) { c.actions = append(c.actions, a) }

// record keeps a decision and publishes it.
func (c *Core) record(d Decision) {
	c.log.add(d)
	c.emit(Action{Kind: ActDecision, Decision: d})
}

func (c *Core) decide(now time.Time, kind DecisionKind, reason string) {
	c.record(Decision{At: now, Kind: kind, Reason: reason})
}

// veto records why something was not sent, once per reason and state, so
// a condition that holds for an hour is one line, not thousands.
func (c *Core) veto(now time.Time, reason string) {
	if reason == c.lastVeto {
		return
	}
	c.lastVeto = reason
	c.decide(now, DecisionVeto, reason)
}

func (c *Core) setStatus() {
	s := c.state.String()
	switch {
	case c.need.cur.Kind != "":
		s = "needs you: " + string(c.need.cur.Kind)
	case c.paused:
		s = "paused"
	case c.wait.active():
		s = "waiting: " + c.wait.kind
	case c.state.InCycle():
		s = fmt.Sprintf("cycle %d: %s", c.cycles, c.state)
	}
	if s != c.status {
		c.status = s
		c.emit(Action{Kind: ActStatus, Status: s})
	}
}

func latest(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
