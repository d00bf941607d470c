package respawn

import "time"

// Agent is what a controller knows of the coding agent in its pane: how
// its screen and its output stream read, and what a cycle types for the
// steps the config does not spell out. The core decides; an Agent only
// reads and names. Claude Code's agent is its pattern table (*Patterns);
// every other agent is a package of its own (respawn/codex).
type Agent interface {
	// Name is the agent's name in config files and on the command line
	// ("claude", "codex").
	Name() string
	// Label is what the controller's reasons call the agent ("Claude",
	// "Codex"): "screen shows Codex working".
	Label() string
	// Classify reads a rendered screen of the agent.
	Classify(s Screen) ScreenFacts
	// NewStream returns a reader of the pane's raw output, one per core.
	NewStream() Stream
	// Command is what the cycle types for StepClear (a fresh
	// conversation) and StepInit (the agent's project memory file).
	Command(step Step) string
	// FindUsageLimit finds the newest usage-limit message in a screen's
	// text and its reset time after now (zero when none is printed).
	FindUsageLimit(text string, now time.Time) (UsageLimitError, bool)
}

// Stream reads one pane's raw output as it arrives. It is not safe for
// concurrent use: the core that owns it feeds it.
type Stream interface {
	Feed(chunk []byte) ChunkFacts
	// Reset forgets what was seen, after codeman typed into the pane.
	Reset()
}

// ClaudeCode is the name of Claude Code's agent, the default.
const ClaudeCode = "claude"

// Name returns "claude": the pattern table is Claude Code's.
func (p *Patterns) Name() string { return ClaudeCode }

// Label returns "Claude".
func (p *Patterns) Label() string { return "Claude" }

// NewStream returns a StreamDetector using p's stream patterns.
func (p *Patterns) NewStream() Stream { return NewStreamDetector(p) }

// Command returns Claude Code's /clear and /init.
func (p *Patterns) Command(step Step) string {
	switch step {
	case StepClear:
		return "/clear"
	case StepInit:
		return "/init"
	}
	return ""
}

// FindUsageLimit finds Claude Code's usage-limit lines (the package
// function of the same name).
func (p *Patterns) FindUsageLimit(text string, now time.Time) (UsageLimitError, bool) {
	return FindUsageLimit(text, now)
}

// agentOr returns a, or Claude Code's built-in table when a is nil
// (including a nil *Patterns).
func agentOr(a Agent) Agent {
	if p, ok := a.(*Patterns); a == nil || (ok && p == nil) {
		return DefaultPatterns()
	}
	return a
}
