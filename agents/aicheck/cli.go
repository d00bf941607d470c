package aicheck

import (
	"fmt"
	"time"

	"github.com/codeman-dev/codeman/respawn"
)

// CLI is the agent CLI a Runner asks. A pane's checks run the CLI of the
// agent in that pane, so that a Codex user needs no Claude Code install.
type CLI int

const (
	// ClaudeCode runs `claude -p`. It is the zero value.
	ClaudeCode CLI = iota
	// Codex runs `codex exec`, the OpenAI Codex CLI.
	Codex
	// Copilot runs `copilot` in prompt mode, the GitHub Copilot CLI.
	Copilot
	// OpenCode runs `opencode run`.
	OpenCode
)

func (c CLI) String() string {
	switch c {
	case Codex:
		return "codex"
	case Copilot:
		return "copilot"
	case OpenCode:
		return "opencode"
	}
	return "claude"
}

// cliSpec is what the checks of one CLI differ in.
type cliSpec struct {
	exe     string // the executable looked up on PATH
	product string // what the install hint names
	pathKey string // the config key of a configured path
	command string // how errors name the check process
	// args are the check's arguments for the request's model.
	args func(model string) []string
	// env finishes the child's environment after the common scrub.
	env func([]string) []string
	// decode turns what the process printed into an answer on stdout and
	// errors on stderr, as classify reads them.
	decode func(output) output
	// findLimit looks for a usage or rate limit in decoded output.
	findLimit func(text string, now time.Time) (respawn.UsageLimitError, bool)
	// prompts are the templates of the idle and the plan check.
	idlePrompt, planPrompt string
}

// spec returns c's description; an unknown CLI is an error of New.
func (c CLI) spec() (*cliSpec, error) {
	switch c {
	case ClaudeCode:
		return &claudeSpec, nil
	case Codex:
		return &codexSpec, nil
	case Copilot:
		return &copilotSpec, nil
	case OpenCode:
		return &openCodeSpec, nil
	}
	return nil, fmt.Errorf("unknown check CLI %d, want aicheck.ClaudeCode, aicheck.Codex, aicheck.Copilot or aicheck.OpenCode", int(c))
}

var claudeSpec = cliSpec{
	exe:        "claude",
	product:    "Claude Code",
	pathKey:    "checks.claude_path",
	command:    "claude -p",
	args:       claudeArgs,
	env:        func(env []string) []string { return env },
	decode:     func(out output) output { return out },
	findLimit:  findUsageLimit,
	idlePrompt: idlePrompt,
	planPrompt: planPrompt,
}
