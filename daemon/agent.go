package daemon

import (
	"context"
	"fmt"

	"github.com/codeman-dev/codeman/respawn"
	"github.com/codeman-dev/codeman/respawn/agents"
)

// paneAgent is the agent a pane's controller reads, and why it is that one.
type paneAgent struct {
	info   agents.Info
	reader respawn.Agent
	why    string // "set", or the evidence it was recognized by
}

// agentFor picks a pane's agent: the one the config names, else the one
// recognized in the pane (its program, then its screen), else the default.
func agentFor(ctx context.Context, name string, pat *respawn.Patterns, b paneBackend) (paneAgent, error) {
	why := "set in the config"
	if name == agents.Auto || name == "" {
		name, why = recognize(ctx, b)
	}
	info, err := agents.Lookup(name)
	if err != nil {
		return paneAgent{}, err
	}
	return paneAgent{info: info, reader: info.New(pat), why: why}, nil
}

// recognize names the agent in the pane, falling back to the default with
// the reason.
func recognize(ctx context.Context, b paneBackend) (name, why string) {
	ctx, cancel := context.WithTimeout(ctx, liveScreenTimeout)
	defer cancel()
	s, err := b.snapshot(ctx)
	if err != nil {
		s = respawn.Screen{}
	}
	if name, why, ok := agents.Recognize(b.command(), s); ok {
		return name, "recognized: " + why
	}
	if err != nil {
		return agents.Default, fmt.Sprintf("not recognized (screen unreadable: %v); assumed", err)
	}
	return agents.Default, "not recognized; assumed"
}

// adapt fits a pane's config to its agent: the default update prompt
// names Claude Code's memory file, and an agent may read a quick Enter
// after typed text as part of a paste.
func (a paneAgent) adapt(cfg respawn.Config, timing *respawn.SendTiming) respawn.Config {
	if timing != nil {
		timing.Pause = max(timing.Pause, a.info.SendPause)
	}
	return a.info.Adapt(cfg)
}

// describe is the agent for the attach event: "codex (recognized: …)".
func (a paneAgent) describe() string { return a.info.Name + " (" + a.why + ")" }
