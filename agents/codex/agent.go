package codex

import (
	"strings"
	"time"

	"github.com/codeman-dev/codeman/respawn"
)

// Name is the Codex agent's name in config files and on the command line.
const Name = "codex"

// Agent is the Codex CLI as a controller sees it. It holds no state: every
// pane's core gets its own Stream from NewStream.
type Agent struct{}

// New returns the agent for Codex CLI 0.171.0.
func New() *Agent { return &Agent{} }

var _ respawn.Agent = (*Agent)(nil)

// Name returns "codex".
func (*Agent) Name() string { return Name }

// Label returns "Codex", as the controller's reasons name it.
func (*Agent) Label() string { return "Codex" }

// AutoContinueLabel returns "": Codex does not go on by itself after a
// usage limit resets, and its screen reports no such continue.
func (*Agent) AutoContinueLabel() string { return "" }

// Command names what a cycle types for a step.
//
// StepClear is "/new", not "/clear": both start a fresh conversation, but
// "/clear" also clears the terminal, and with it the pane's scrollback,
// which is the only record a person has of what the unattended session
// did. StepInit is "/init", whose prompt has the model write AGENTS.md.
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

// FindUsageLimit finds the newest usage-limit line in text and its reset
// time after now (see findUsageLimit).
func (*Agent) FindUsageLimit(text string, now time.Time) (respawn.UsageLimitError, bool) {
	return findUsageLimit(text, now)
}

// HookUsageLimit reads the usage limit a failed turn's hook reports:
// Codex's failed PostModelRequest carries the message the screen shows,
// whole and unwrapped, as its error. ok is false for any other failure.
func (*Agent) HookUsageLimit(msg string, now time.Time) (respawn.UsageLimitError, bool) {
	msg = strings.TrimSpace(msg)
	if !isUsageLimit(msg) {
		return respawn.UsageLimitError{}, false
	}
	return respawn.UsageLimitError{Line: msg, ResetAt: ResetAt(msg, now)}, true
}
