package daemon

import (
	"context"
	"fmt"
	"time"

	"github.com/codeman-dev/codeman/agents"
	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/respawn"
)

// paneAgent is the agent a pane's controller reads, and why it is that one.
type paneAgent struct {
	info   agents.Info
	reader respawn.Agent
	why    string // "set in the config", or the evidence it was recognized by
	// recognized: the config left the agent to codeman ("auto").
	recognized bool
	// program is the runtime the agent's CLI ran as when it was
	// recognized (node), when that is not one of its CLI's own names;
	// "" otherwise.
	program string
}

// agentFor picks a pane's agent: the one the config names, else the one
// recognized in the pane (its program, then its screen), else the default.
func agentFor(ctx context.Context, name string, pat []respawn.PatternSpec, b paneBackend) (paneAgent, error) {
	why, recognized, seen := "set in the config", name == agents.Auto || name == "", false
	if recognized {
		name, why, seen = recognize(ctx, b)
	}
	info, err := agents.Lookup(name)
	if err != nil {
		return paneAgent{}, err
	}
	reader, err := info.New(pat)
	if err != nil {
		return paneAgent{}, err
	}
	a := paneAgent{info: info, reader: reader, why: why, recognized: recognized}
	if command := b.command(); (seen || !recognized) && isRuntime(command) {
		// The agent's CLI runs under its runtime's name here (an npm
		// install runs as node): keys may go to that program.
		a.program = programName(command)
	}
	return a, nil
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

// recognizeFor is how long after a pane's program became a runtime that is
// not the agent's its screen is read at each liveness
// check for an agent started under another name: Codex from npm runs as
// node. A program that draws no agent's screen by then is left alone.
const recognizeFor = 30 * time.Second

// relaunched says why a pane whose program went from prev to now runs its
// agent anew: the agent came back after a shell or another program, so
// it is a new session, whose controller starts afresh.
func (a paneAgent) relaunched(prev, now string) (string, bool) {
	if prev == "" || a.runsAgent(prev) || !a.runsAgent(now) {
		return "", false
	}
	return fmt.Sprintf("the pane runs %s again after %s: a new session", programName(now), programName(prev)), true
}

// mayBeRelaunched reports whether a pane's program now is worth reading
// the screen for: a runtime an agent's CLI may run under that is not the
// agent's yet, in a pane whose agent codeman recognized. Any other program
// (a pager over a transcript, an editor) is never taken for the agent,
// whatever its screen shows.
func (a paneAgent) mayBeRelaunched(now string) bool {
	return a.recognized && isRuntime(now) && !a.runsAgent(now)
}

// recognizedAgain reads the pane's screen for an agent's prompt box: an
// agent started under a program name that is not its CLI's.
func recognizedAgain(ctx context.Context, p *pane) (string, bool) {
	ctx, cancel := context.WithTimeout(ctx, liveScreenTimeout)
	defer cancel()
	s, err := p.backend.snapshot(ctx)
	if err != nil {
		return "", false
	}
	name, why, ok := agents.Recognize("", s)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("the pane now runs %s, and %s: its controller reads %s", programName(p.backend.command()), why, name), true
}

// recognize names the agent in the pane, falling back to the default with
// the reason; seen is false for the fallback.
func recognize(ctx context.Context, b paneBackend) (name, why string, seen bool) {
	ctx, cancel := context.WithTimeout(ctx, liveScreenTimeout)
	defer cancel()
	s, err := b.snapshot(ctx)
	if err != nil {
		s = respawn.Screen{}
	}
	if name, why, ok := agents.Recognize(b.command(), s); ok {
		return name, "recognized: " + why, true
	}
	if err != nil {
		return agents.Default, fmt.Sprintf("not recognized (screen unreadable: %v); assumed", err), false
	}
	return agents.Default, "not recognized; assumed", false
}

// adapt fits a pane's config to its agent: the default update prompt
// names Claude Code's memory file.
func (a paneAgent) adapt(cfg respawn.Config) respawn.Config { return a.info.Adapt(cfg) }

// timing fits the config's send timing to the agent, for the pane's
// terminal: an agent may read a quick Enter after typed text as part of a
// paste.
func (a paneAgent) timing(t respawn.SendTiming) respawn.SendTiming {
	t.Pause = max(t.Pause, a.info.SendPause)
	// Submit reads the prompt box with the pane's agent before and after
	// it types.
	t.Prompt = respawn.NewPromptReader(a.reader.Classify)
	return t
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
	req := api.AttachRequest{Pane: p.addr, Profile: p.profile, Sets: p.sets, Paused: err == nil && st.Paused}
	b, _, err := d.backendFor(p.addr)
	if err != nil {
		return
	}
	d.releaseLocked(p, why, false)
	d.adoptLocked(ctx, b, adoptable{req: req})
}

// ran attaches again, as they were enabled, the panes whose program
// became another agent's CLI, or the agent again after a shell or another
// program, or a runtime that now draws an agent's screen.
func (d *Daemon) ran(ctx context.Context, panes []ranPane) {
	var switched, unknown []*pane
	var switchedWhy []string
	d.mu.Lock()
	for _, r := range panes {
		p := d.panes[r.addr]
		if p == nil || p.backend != r.backend {
			continue
		}
		if name, ok := p.agent.switchedTo(r.now); ok {
			switched = append(switched, p)
			switchedWhy = append(switchedWhy, fmt.Sprintf("the pane now runs %s: its controller reads %s instead of %s", r.now, name, p.agent.info.Name))
		} else if why, ok := p.agent.relaunched(r.prev, r.now); ok {
			switched, switchedWhy = append(switched, p), append(switchedWhy, why)
		} else if p.agent.mayBeRelaunched(r.now) {
			if r.prev != r.now {
				p.changedAt = time.Now()
			}
			if time.Since(p.changedAt) < recognizeFor {
				unknown = append(unknown, p)
			}
		}
	}
	d.mu.Unlock()
	for i, p := range switched {
		d.reattach(ctx, p, switchedWhy[i])
	}
	for _, p := range unknown {
		if why, ok := recognizedAgain(ctx, p); ok {
			d.reattach(ctx, p, why)
		}
	}
}

// describe is the agent for the attach event: "codex (recognized: …)".
func (a paneAgent) describe() string { return a.info.Name + " (" + a.why + ")" }
