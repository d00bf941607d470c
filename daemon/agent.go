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
	why    string // "set in the config", or the evidence it was recognized by
	// recognized: the config left the agent to codeman ("auto").
	recognized bool
}

// agentFor picks a pane's agent: the one the config names, else the one
// recognized in the pane (its program, then its screen), else the default.
func agentFor(ctx context.Context, name string, pat *respawn.Patterns, b paneBackend) (paneAgent, error) {
	why, recognized := "set in the config", name == agents.Auto || name == ""
	if recognized {
		name, why = recognize(ctx, b)
	}
	info, err := agents.Lookup(name)
	if err != nil {
		return paneAgent{}, err
	}
	return paneAgent{info: info, reader: info.New(pat), why: why, recognized: recognized}, nil
}

// switchedTo names the agent a pane's program now is, when it is another
// agent's CLI than the one recognized in the pane: a person quit one CLI
// and started the other. An agent set in the config stays.
func (a paneAgent) switchedTo(command string) (string, bool) {
	name, ok := agents.ByProgram(command)
	if !a.recognized || !ok || name == a.info.Name {
		return "", false
	}
	return name, true
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
		// Submit reads the prompt box with the pane's agent before and
		// after it types.
		timing.Prompt = respawn.NewPromptReader(a.reader.Classify)
	}
	return a.info.Adapt(cfg)
}

// reattach attaches a controlled pane again as it was enabled (profile,
// settings, paused or not), for a controller that reads the agent now
// running in it. A pane that cannot be attached again is listed with the
// reason, as a failed adoption is.
func (d *Daemon) reattach(ctx context.Context, p *pane, why string) {
	unlock, err := d.locks.lock(ctx, p.addr)
	if err != nil {
		return
	}
	defer unlock()
	if !d.current(p) {
		return // detached or attached again since
	}
	st, err := p.ctrl.Status(0)
	req := AttachRequest{Pane: p.addr, Profile: p.profile, Sets: p.sets, Paused: err == nil && st.Paused}
	b, _, err := d.backendFor(p.addr)
	if err != nil {
		return
	}
	d.releaseLocked(p, why, false)
	d.adoptLocked(ctx, b, adoptable{req: req})
}

// describe is the agent for the attach event: "codex (recognized: …)".
func (a paneAgent) describe() string { return a.info.Name + " (" + a.why + ")" }
