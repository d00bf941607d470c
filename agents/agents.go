// Package agents is the list of coding agents codeman can drive, and how
// one is recognized in a pane. Each agent is a respawn.Agent (its screen
// and stream readers and its commands) plus every other fact codeman
// keeps of it: its hooks installer, the CLI its AI checks run, the
// releases it is tested with, its send pause and update prompt, and how
// the simulated session plays it. The commands, the daemon and the doctor
// loop over this list; adding an agent is one entry here and the packages
// of its home (docs/ARCHITECTURE.md, "Adding an agent").
package agents

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/codeman-dev/codeman/agents/aicheck"
	"github.com/codeman-dev/codeman/agents/claude"
	"github.com/codeman-dev/codeman/agents/claude/claudehooks"
	"github.com/codeman-dev/codeman/agents/codex"
	"github.com/codeman-dev/codeman/agents/codex/codexhooks"
	"github.com/codeman-dev/codeman/agents/copilot"
	"github.com/codeman-dev/codeman/agents/copilot/copilothooks"
	"github.com/codeman-dev/codeman/agents/opencode"
	"github.com/codeman-dev/codeman/agents/opencode/opencodehooks"
	"github.com/codeman-dev/codeman/hooks"
	"github.com/codeman-dev/codeman/internal/simclaude"
	"github.com/codeman-dev/codeman/respawn"
)

// Auto, as an agent's name, asks for the agent to be recognized in the
// pane when it is attached.
const Auto = "auto"

// Info describes one agent.
type Info struct {
	// Name is the agent's name in config files and on the command line.
	Name string
	// Label is what a person calls it ("Claude Code").
	Label string
	// New returns the agent's reader, built with the config file's
	// extra patterns ([[pattern]]): Claude Code's table is extended by
	// them, and an error names a pattern that does not compile; Codex's
	// reader has no table and ignores them.
	New func(extra []respawn.PatternSpec) (respawn.Agent, error)
	// Programs are the names the CLI's process runs as, which a pane's
	// current command shows.
	Programs []string
	// SendPause is the least pause between typed text and its Enter: an
	// Enter that follows the text sooner may be read as part of a paste.
	SendPause time.Duration
	// Check is the CLI its panes' AI checks run.
	Check aicheck.CLI
	// UpdatePrompt replaces respawn.DefaultUpdatePrompt for this agent,
	// when it differs (the default names Claude Code's memory file).
	UpdatePrompt string
	// Hooks installs codeman's hooks into the agent's settings, for
	// `codeman hooks --agent NAME` and the doctor.
	Hooks hooks.Installer
	// Release says which releases of the CLI codeman is tested with.
	Release Release
	// Sim is how the simulated session plays this agent in the demo.
	Sim Sim
}

// Sim is how the simulated session (internal/simclaude) plays an agent,
// and what the demo types into it.
type Sim struct {
	Look   string // the simulated session's --look
	Prompt string // the demo's first prompt
	Ready  string // on its screen once it takes input
	// Args are extra arguments of the simulated session, the real CLI's
	// flags a person starts it with for unattended work; Why tells the
	// demo's story what they do.
	Args []string
	Why  string
}

var list = []Info{
	{
		Name:     claude.Name,
		Label:    "Claude Code",
		New:      newClaude,
		Programs: []string{"claude"},
		Check:    aicheck.ClaudeCode,
		Hooks:    claudehooks.Installer{},
		Release: Release{
			Tested:  []string{"2.1.328", "2.1.332"},
			Package: "@anthropic-ai/claude-code",
			Version: firstFieldVersion,
		},
		// The demo's turn makes a plan, so that it shows a plan approval
		// accepted as well as a cycle.
		Sim: Sim{Look: simclaude.LookClaude, Prompt: "make a plan to add a greeting to the project, then build it", Ready: "❯"},
	},
	{
		Name:     codex.Name,
		Label:    "Codex",
		New:      func([]respawn.PatternSpec) (respawn.Agent, error) { return codex.New(), nil },
		Programs: []string{"codex"},
		// Codex takes an Enter less than 120 ms after a burst of keys for
		// a newline in the pasted text.
		SendPause:    250 * time.Millisecond,
		Check:        aicheck.Codex,
		UpdatePrompt: agentsMDUpdatePrompt,
		Hooks:        codexhooks.Installer{},
		Release: Release{
			Tested:   []string{"0.171.0"},
			Package:  "@openai/codex",
			Version:  codexVersion,
			Optional: true,
		},
		// Codex has no plan approval for codeman to accept: an ordinary
		// turn.
		Sim: Sim{Look: simclaude.LookCodex, Prompt: "add a greeting to the project, then build it", Ready: "Ask Codex to do anything"},
	},
	{
		Name:  copilot.Name,
		Label: "GitHub Copilot CLI",
		New:   func([]respawn.PatternSpec) (respawn.Agent, error) { return copilot.New(), nil },
		// The native binary; started through npm's shim, the pane shows
		// node, and the screen tells.
		Programs: []string{"copilot"},
		// No send pause: Copilot takes an Enter of its own read as a
		// submit however soon it follows the text; only one in the same
		// read as 32 characters or more is part of a paste.
		Check:        aicheck.Copilot,
		UpdatePrompt: copilotUpdatePrompt,
		Hooks:        copilothooks.Installer{},
		Release: Release{
			Tested:   []string{"1.0.102"},
			Package:  "@github/copilot",
			Version:  copilotVersion,
			Optional: true,
		},
		// Copilot's plan approval comes only in plan mode, which a
		// person enters: an ordinary turn. /init's write asks first, and
		// codeman answers no permission prompt.
		Sim: Sim{
			Look: simclaude.LookCopilot, Prompt: "add a greeting to the project, then build it", Ready: "open sidebar",
			Args: []string{"--allow-tool", "write"},
			Why:  "lets Copilot write files without asking, as a person allows it for unattended work (codeman answers no permission prompt), so /init writes .github/copilot-instructions.md",
		},
	},
	{
		Name:  opencode.Name,
		Label: "OpenCode",
		New:   func([]respawn.PatternSpec) (respawn.Agent, error) { return opencode.New(), nil },
		// The native binary, also under the name npm's package links.
		// No send pause: OpenCode takes text and Enter even in one read.
		Programs:     []string{"opencode", "opencode.exe"},
		Check:        aicheck.OpenCode,
		UpdatePrompt: agentsMDUpdatePrompt,
		Hooks:        opencodehooks.Installer{},
		Release: Release{
			Tested:   []string{"1.18.33"},
			Package:  "opencode-ai",
			Version:  firstFieldVersion,
			Optional: true,
		},
		// OpenCode has no plan approval: an ordinary turn. Its default
		// permissions let /init write AGENTS.md without asking.
		Sim: Sim{Look: simclaude.LookOpenCode, Prompt: "add a greeting to the project, then build it", Ready: "ctrl+p commands"},
	},
}

// copilotUpdatePrompt is respawn.DefaultUpdatePrompt for the Copilot CLI,
// whose project instructions (the file its /init writes) are
// .github/copilot-instructions.md.
const copilotUpdatePrompt = "write a brief progress summary to .github/copilot-instructions.md noting what you accomplished, then continue working."

// agentsMDUpdatePrompt is respawn.DefaultUpdatePrompt for Codex and
// OpenCode, whose project memory is AGENTS.md (the file their /init
// writes).
const agentsMDUpdatePrompt = "write a brief progress summary to AGENTS.md noting what you accomplished, then continue working."

// newClaude returns Claude Code's pattern table extended by extra.
func newClaude(extra []respawn.PatternSpec) (respawn.Agent, error) {
	p, err := claude.CompilePatterns(extra)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Adapt fits a config to the agent: the default update prompt names
// Claude Code's memory file, which another agent may call otherwise.
func (a Info) Adapt(cfg respawn.Config) respawn.Config {
	if a.UpdatePrompt != "" && cfg.UpdatePrompt == respawn.DefaultUpdatePrompt {
		cfg.UpdatePrompt = a.UpdatePrompt
	}
	return cfg
}

// Default is the agent of a pane nothing else is known of.
const Default = claude.Name

// List returns every agent, the default first.
func List() []Info { return slices.Clone(list) }

// Names returns the agents' names, the default first.
func Names() []string {
	names := make([]string, len(list))
	for i, a := range list {
		names[i] = a.Name
	}
	return names
}

// Lookup returns the agent called name.
func Lookup(name string) (Info, error) {
	for _, a := range list {
		if a.Name == name {
			return a, nil
		}
	}
	return Info{}, fmt.Errorf("unknown agent %q (want %s or %s)", name, strings.Join(Names(), ", "), Auto)
}

// Valid reports whether name is an agent's name or Auto, as a config
// value's error.
func Valid(name string) error {
	if name == Auto {
		return nil
	}
	_, err := Lookup(name)
	return err
}

// ByProgram names the agent whose CLI runs as command (a process name or
// path), if any.
func ByProgram(command string) (string, bool) {
	if command == "" {
		return "", false
	}
	base := filepath.Base(command)
	for _, a := range list {
		if slices.Contains(a.Programs, base) {
			return a.Name, true
		}
	}
	return "", false
}

// Recognize names the agent running in a pane from the pane's current
// command (its process name, "" when unknown) and its screen, with the
// evidence as a phrase. ok is false when neither tells: the caller falls
// back to Default and says so.
func Recognize(command string, s respawn.Screen) (name, why string, ok bool) {
	if name, ok := ByProgram(command); ok {
		return name, fmt.Sprintf("the pane runs %q", filepath.Base(command)), true
	}
	readers := make([]respawn.Agent, len(list))
	for i, a := range list {
		readers[i], _ = a.New(nil)
	}
	// A reader that knows its agent's screen by marks of its own goes
	// first: prompt boxes look alike.
	for i, r := range readers {
		if k, ok := r.(screenRecognizer); ok && k.Recognize(s) {
			return list[i].Name, list[i].Label + "'s screen is on the pane", true
		}
	}
	for i, r := range readers {
		if r != nil && r.Classify(s).PromptBox {
			return list[i].Name, list[i].Label + "'s prompt box is on screen", true
		}
	}
	return "", "", false
}

// screenRecognizer is a reader that tells its agent's screen by marks no
// other agent draws.
type screenRecognizer interface {
	Recognize(s respawn.Screen) bool
}
