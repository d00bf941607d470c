package opencode

import (
	"time"

	"github.com/codeman-dev/codeman/respawn"
)

// Name is the OpenCode agent's name in config files and on the command
// line.
const Name = "opencode"

// Agent is OpenCode as a controller sees it. It holds no state: every
// pane's core gets its own Stream from NewStream.
type Agent struct{}

// New returns the agent for OpenCode 1.18.33.
func New() *Agent { return &Agent{} }

var _ respawn.Agent = (*Agent)(nil)

// Name returns "opencode".
func (*Agent) Name() string { return Name }

// Label returns "OpenCode", as the controller's reasons name it.
func (*Agent) Label() string { return "OpenCode" }

// AutoContinueLabel returns "": OpenCode does not go on by itself after a
// limit.
func (*Agent) AutoContinueLabel() string { return "" }

// Command names what a cycle types for a step: "/new" starts a fresh
// session ("/clear" is its alias), "/init" has the model create or
// improve AGENTS.md.
func (*Agent) Command(step respawn.Step) string {
	switch step {
	case respawn.StepClear:
		return "/new"
	case respawn.StepInit:
		return "/init"
	}
	return ""
}

// NewStream returns a reader of one pane's raw output.
func (*Agent) NewStream() respawn.Stream { return newStream() }

// FindUsageLimit finds the newest usage-limit message on the screen (see
// findUsageLimit). OpenCode prints no reset time, so ResetAt is zero and
// the controller waits its fallback.
func (*Agent) FindUsageLimit(text string, now time.Time) (respawn.UsageLimitError, bool) {
	return findUsageLimit(text, now)
}

// Recognize reports a screen that only OpenCode draws: its composer's
// agent row over the lower edge "╹▀▀▀".
func (*Agent) Recognize(s respawn.Screen) bool {
	return readLayout(s.Lines).composer >= 0
}
