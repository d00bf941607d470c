package respawn

import "time"

// Status is a controller's state and the evidence behind it, for
// `codeman status` and `codeman explain`.
type Status struct {
	Pane      string        `json:"pane"`
	State     string        `json:"state"`
	Line      string        `json:"status"` // the one-line status of @codeman-state
	Paused    bool          `json:"paused,omitempty"`
	NeedsYou  *Need         `json:"needs_you,omitempty"` // why a person is needed, if one is
	Cycles    int           `json:"cycles"`
	Since     time.Time     `json:"since"` // when the state was entered
	Evidence  Evidence      `json:"evidence"`
	Timers    []TimerStatus `json:"timers,omitempty"`
	IdleCheck GateStatus    `json:"ai_idle_check"`
	PlanCheck GateStatus    `json:"ai_plan_check"`
	Wait      string        `json:"wait,omitempty"`
	Decisions []Decision    `json:"decisions,omitempty"` // oldest first
}

// Evidence is what the controller currently knows about the pane.
type Evidence struct {
	Silence        time.Duration `json:"silence"`                   // since the last output
	SinceWorking   time.Duration `json:"since_working,omitempty"`   // since the last working evidence; 0 if never
	Tokens         int64         `json:"tokens"`                    // last token counter, -1 if none
	TokensStable   time.Duration `json:"tokens_stable,omitempty"`   // since it last changed
	Completion     bool          `json:"completion"`                // a completion line since the last cycle
	ScreenAge      time.Duration `json:"screen_age"`                // age of the screen the facts come from
	Screen         []string      `json:"screen,omitempty"`          // what the screen patterns matched
	Working        bool          `json:"working"`                   // the screen shows Claude working
	PromptBox      bool          `json:"prompt_box"`                // Claude's input box is visible
	PlanMenu       bool          `json:"plan_menu,omitempty"`       // a plan approval menu is visible
	Blocker        string        `json:"blocker,omitempty"`         // why a person must answer
	BackgroundWait int           `json:"background_wait,omitempty"` // background agents Claude waits for
	LastHook       string        `json:"last_hook,omitempty"`
	LastHookAt     time.Time     `json:"last_hook_at,omitzero"`
}

// Status returns the controller's state with up to decisions of its newest decisions.
func (c *Core) Status(now time.Time, decisions int) Status {
	st := Status{
		Pane:      c.pane,
		State:     c.state.String(),
		Line:      c.status,
		Paused:    c.paused,
		Cycles:    c.cycles,
		Since:     c.stateAt,
		Timers:    c.t.status(now),
		IdleCheck: c.idleGate.status(now, c.idleCheck.id != 0),
		PlanCheck: c.planGate.status(now, c.planCheck.id != 0),
		Decisions: c.log.last(decisions),
	}
	if c.wait.active() {
		st.Wait = c.wait.describe()
	}
	if n := c.need.cur; n.Kind != "" {
		st.NeedsYou = &n
	}
	f := c.facts
	ev := Evidence{
		Silence:        now.Sub(c.lastOutput),
		Tokens:         c.tokens,
		Completion:     !c.completionAt.IsZero(),
		Screen:         f.Evidence,
		Working:        f.Working,
		PromptBox:      f.PromptBox,
		PlanMenu:       f.PlanMenu,
		BackgroundWait: f.BackgroundWait,
		LastHook:       c.hooks.last.Kind.String(),
		LastHookAt:     c.hooks.last.At,
	}
	if c.hooks.last.Kind == 0 {
		ev.LastHook = ""
	}
	if !c.lastWorking.IsZero() {
		ev.SinceWorking = now.Sub(c.lastWorking)
	}
	if !c.lastTokenChange.IsZero() {
		ev.TokensStable = now.Sub(c.lastTokenChange)
	}
	if !c.screen.At.IsZero() {
		ev.ScreenAge = now.Sub(c.screen.At)
	}
	if c.state != Stopped {
		ev.Blocker = c.findBlocker(now, false)
	}
	st.Evidence = ev
	return st
}
