package daemon

import (
	"sync"

	"github.com/codeman-dev/codeman/agents"
	"github.com/codeman-dev/codeman/agents/aicheck"
	"github.com/codeman-dev/codeman/config"
	"github.com/codeman-dev/codeman/respawn"
)

// agentCheckers holds the AI checker of each agent other than the default
// one, set up when the first pane of that agent is attached: a daemon
// whose panes all run the default agent never looks for another CLI.
type agentCheckers struct {
	mu    sync.Mutex
	slots map[string]checkerSlot
}

// checkerSlot is one agent's checker, or why it has none.
type checkerSlot struct {
	checker respawn.Checker
	down    string
}

// checkerFor returns the AI checker of the panes of agent, or nil and why
// there is none.
func (d *Daemon) checkerFor(agent agents.Info) (respawn.Checker, string) {
	if d.opts.Checker != nil {
		return d.opts.Checker, ""
	}
	if agent.Name == agents.Default {
		return d.checker, d.checkerMsg
	}
	d.checkers.mu.Lock()
	defer d.checkers.mu.Unlock()
	if s, ok := d.checkers.slots[agent.Name]; ok {
		return s.checker, s.down
	}
	var s checkerSlot
	if file, err := d.loadConfig(); err != nil {
		s.down = "config: " + err.Error()
	} else if r, err := aicheck.New(d.checkerOptions(agent, file)); err != nil {
		s.down = err.Error()
		d.log.Warn("AI checks unavailable for "+agent.Label+" panes; idle detection goes on without them", "err", err)
	} else {
		s.checker = r
	}
	if d.checkers.slots == nil {
		d.checkers.slots = make(map[string]checkerSlot)
	}
	d.checkers.slots[agent.Name] = s
	return s.checker, s.down
}

// checkerOptions set up the AI checks of agent's panes as the config file
// says: the agent's CLI, at the path the file gives for it.
func (d *Daemon) checkerOptions(agent agents.Info, file *config.File) aicheck.Options {
	return aicheck.Options{CLI: agent.Check, ClaudePath: file.Checks.ClaudePath, CodexPath: file.Checks.CodexPath,
		CopilotPath: file.Checks.CopilotPath, OpenCodePath: file.Checks.OpenCodePath, MaxConcurrent: file.Checks.MaxConcurrent,
		Logger: d.log}
}
