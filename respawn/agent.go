package respawn

import "time"

// Agent is what a controller knows of the coding agent in its pane: how
// its screen and its output stream read, and what a cycle types for the
// steps the config does not spell out. The core decides; an Agent only
// reads and names. A core needs one (NewCore panics without it). Each
// agent is a package of its own (agents/claude, agents/codex), and
// package agents lists them.
type Agent interface {
	// Name is the agent's name in config files and on the command line
	// ("claude", "codex").
	Name() string
	// Label is what the controller's reasons call the agent ("Claude",
	// "Codex"): "screen shows Codex working".
	Label() string
	// AutoContinueLabel is what the controller's reasons call the agent's
	// own continue at a usage limit, the one ScreenFacts.AutoContinue
	// reports ("Claude Code's own continue"): "usage limit over, but
	// Claude Code's own continue is armed". An agent whose screen never
	// reports one returns "".
	AutoContinueLabel() string
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
