package claude

import (
	"time"

	"github.com/codeman-dev/codeman/respawn"
)

// Name is Claude Code's agent name in config files and on the command
// line ("claude"), the default agent.
const Name = "claude"

// A pattern table is Claude Code's reader.
var _ respawn.Agent = (*Patterns)(nil)

// Name returns "claude": the pattern table is Claude Code's.
func (p *Patterns) Name() string { return Name }

// Label returns "Claude".
func (p *Patterns) Label() string { return "Claude" }

// AutoContinueLabel returns "Claude Code's own continue": the CLI sends a
// turn of its own once a usage limit resets (its setting
// autoContinueAtUsageLimit), which the screen reports.
func (p *Patterns) AutoContinueLabel() string { return "Claude Code's own continue" }

// NewStream returns a StreamDetector using p's stream patterns.
func (p *Patterns) NewStream() respawn.Stream { return NewStreamDetector(p) }

// Command returns Claude Code's /clear and /init.
func (p *Patterns) Command(step respawn.Step) string {
	switch step {
	case respawn.StepClear:
		return "/clear"
	case respawn.StepInit:
		return "/init"
	}
	return ""
}

// FindUsageLimit finds Claude Code's usage-limit lines (the package
// function of the same name).
func (p *Patterns) FindUsageLimit(text string, now time.Time) (respawn.UsageLimitError, bool) {
	return FindUsageLimit(text, now)
}
