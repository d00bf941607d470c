package copilot

import (
	"time"

	"github.com/codeman-dev/codeman/respawn"
)

// Name is the Copilot agent's name in config files and on the command
// line.
const Name = "copilot"

// Agent is the GitHub Copilot CLI as a controller sees it. It holds no
// state: every pane's core gets its own Stream from NewStream.
type Agent struct{}

// New returns the agent for Copilot CLI 1.0.102.
func New() *Agent { return &Agent{} }

var _ respawn.Agent = (*Agent)(nil)

// Name returns "copilot".
func (*Agent) Name() string { return Name }

// Label returns "GitHub Copilot", as the controller's reasons name it.
func (*Agent) Label() string { return "GitHub Copilot" }

// AutoContinueLabel returns "": Copilot does not go on by itself after a
// limit, and its screen reports no such continue.
func (*Agent) AutoContinueLabel() string { return "" }

// Command names what a cycle types for a step.
//
// StepClear is "/clear", not "/new": both start a fresh conversation on
// a screen that keeps nothing of the old one, but "/new" leaves the old
// session open (listed for resuming, and ended only when Copilot exits),
// so a night of cycles would pile up open sessions. "/clear" ends it.
// StepInit is "/init", whose prompt has the model write
// .github/copilot-instructions.md.
func (*Agent) Command(step respawn.Step) string {
	switch step {
	case respawn.StepClear:
		return "/clear"
	case respawn.StepInit:
		return "/init"
	}
	return ""
}

// NewStream returns a reader of one pane's raw output.
func (*Agent) NewStream() respawn.Stream { return newStream() }

// FindUsageLimit finds the newest usage-limit message in text (see
// findUsageLimit). Copilot names no reset time for a limit of a custom
// provider, so ResetAt is zero and the controller waits its fallback.
func (*Agent) FindUsageLimit(text string, now time.Time) (respawn.UsageLimitError, bool) {
	return findUsageLimit(text, now)
}

// Recognize reports a screen that only Copilot draws: its footer, idle
// ("← open sidebar · …") or at work ("◎ Working … esc"), under its
// prompt box.
func (a *Agent) Recognize(s respawn.Screen) bool {
	l := readLayout(s.Lines)
	return l.box >= 0
}
