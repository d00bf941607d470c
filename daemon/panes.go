package daemon

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/codeman-dev/codeman/agents"
	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/respawn"
)

// releaseTimeout bounds the backend work of ending a pane (tmux options,
// the screen state file) when no request's context bounds it.
const releaseTimeout = 5 * time.Second

// pane is one controlled pane and what its backend set up for it. Its
// fields change only under the address lock of addr.
type pane struct {
	addr       string
	target     string
	profile    string
	sets       []string
	attachedAt time.Time
	ctrl       *respawn.Controller
	agent      paneAgent // the controller's, to read a live screen with
	backend    paneBackend
	subscribe  func(fn func(data []byte, at time.Time)) (unsubscribe func())
	streams    bool // output is the terminal's byte stream (tmux), not redraws (screen)
	unsub      func()
	released   bool
	// changedAt is when the pane's program last became one that is
	// neither the agent nor a shell (its backend's liveness check only).
	changedAt time.Time
}

// addrLocks serialises the lifecycle of each pane: attach, detach, toggle,
// adoption and the end of a pane go through the lock of its canonical
// address, held across the slow backend work, so that two requests for one
// pane can never both start a controller. Different panes do not wait for
// each other.
type addrLocks struct {
	mu    sync.Mutex
	locks map[string]*addrLock
}

type addrLock struct {
	ch   chan struct{} // holds one token while locked
	refs int           // holders and waiters, so an idle entry can go
}

func newAddrLocks() *addrLocks { return &addrLocks{locks: make(map[string]*addrLock)} }

// lock takes addr's lock, or gives up when ctx ends. The returned func
// releases it.
func (l *addrLocks) lock(ctx context.Context, addr string) (unlock func(), err error) {
	l.mu.Lock()
	a := l.locks[addr]
	if a == nil {
		a = &addrLock{ch: make(chan struct{}, 1)}
		l.locks[addr] = a
	}
	a.refs++
	l.mu.Unlock()
	select {
	case a.ch <- struct{}{}:
		return func() { <-a.ch; l.drop(addr, a) }, nil
	case <-ctx.Done():
		l.drop(addr, a)
		return nil, ctx.Err()
	}
}

func (l *addrLocks) drop(addr string, a *addrLock) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if a.refs--; a.refs == 0 {
		delete(l.locks, addr)
	}
}

// Attach enables respawn on a pane, or changes the profile and settings of
// a pane already controlled. It is all or nothing: on an error the pane is
// as it was.
func (d *Daemon) Attach(ctx context.Context, req api.AttachRequest) (api.PaneStatus, error) {
	b, addr, err := d.backendFor(req.Pane)
	if err != nil {
		return api.PaneStatus{}, err
	}
	unlock, err := d.locks.lock(ctx, addr)
	if err != nil {
		return api.PaneStatus{}, fmt.Errorf("attach %s: %w", addr, err)
	}
	defer unlock()
	req.Pane = addr
	return d.attachLocked(ctx, b, req, false)
}

// Toggle detaches a pane that is enabled (controlled, or enabled but not
// controlled) and attaches one that is not, as one step: two toggles at
// once end on and off, never on twice.
func (d *Daemon) Toggle(ctx context.Context, req api.AttachRequest) (api.ToggleResult, error) {
	b, addr, err := d.backendFor(req.Pane)
	if err != nil {
		return api.ToggleResult{}, err
	}
	unlock, err := d.locks.lock(ctx, addr)
	if err != nil {
		return api.ToggleResult{}, fmt.Errorf("toggle %s: %w", addr, err)
	}
	defer unlock()
	if d.detachLocked(ctx, b, addr, "toggled off") {
		return api.ToggleResult{Pane: addr}, nil
	}
	req.Pane = addr
	st, err := d.attachLocked(ctx, b, req, false)
	if err != nil {
		return api.ToggleResult{}, err
	}
	return api.ToggleResult{Pane: addr, On: true, Status: &st}, nil
}

// Pause stops a controlled pane's controller from typing anything until it
// is resumed (paused false), under the address lock like every other change
// to a pane, and returns the pane's status after.
func (d *Daemon) Pause(ctx context.Context, addr string, paused bool) (api.PaneStatus, error) {
	verb := "pause"
	if !paused {
		verb = "resume"
	}
	_, addr, err := d.backendFor(addr)
	if err != nil {
		return api.PaneStatus{}, err
	}
	unlock, err := d.locks.lock(ctx, addr)
	if err != nil {
		return api.PaneStatus{}, fmt.Errorf("%s %s: %w", verb, addr, err)
	}
	defer unlock()
	p := d.lookup(addr)
	if p == nil {
		return api.PaneStatus{}, fmt.Errorf("%s %s: %w", verb, addr, api.ErrNotControlled)
	}
	if paused {
		err = p.ctrl.Pause()
	} else {
		err = p.ctrl.Resume()
	}
	if err != nil {
		return api.PaneStatus{}, fmt.Errorf("%s %s: %w", verb, addr, err)
	}
	if err := p.backend.setPaused(ctx, paused); err != nil {
		// The controller is paused or resumed all the same; only a daemon
		// restart would not know.
		d.log.Warn("pause not recorded with the pane", "pane", addr, "paused", paused, "err", err)
	}
	return d.status(p, statusDecisions)
}

// Answer types a person's choice into the dialog a pane's need shows,
// through its controller's press gate (respawn.Controller.Answer), under
// the pane's lock so that no detach or adoption runs meanwhile.
func (d *Daemon) Answer(ctx context.Context, addr string, a respawn.Answer) (respawn.Answered, error) {
	_, addr, err := d.backendFor(addr)
	if err != nil {
		return respawn.Answered{}, err
	}
	unlock, err := d.locks.lock(ctx, addr)
	if err != nil {
		return respawn.Answered{}, fmt.Errorf("answer %s: %w", addr, err)
	}
	defer unlock()
	p := d.lookup(addr)
	if p == nil {
		return respawn.Answered{}, fmt.Errorf("answer %s: %w", addr, api.ErrNotControlled)
	}
	got, err := p.ctrl.Answer(ctx, a)
	if err != nil {
		return got, fmt.Errorf("answer %s: %w", addr, err)
	}
	return got, nil
}

// Detach disables respawn on a pane and forgets it, whether a controller
// runs for it or its adoption failed.
func (d *Daemon) Detach(ctx context.Context, addr, reason string) error {
	b, addr, err := d.backendFor(addr)
	if err != nil {
		return err
	}
	unlock, err := d.locks.lock(ctx, addr)
	if err != nil {
		return fmt.Errorf("detach %s: %w", addr, err)
	}
	defer unlock()
	if !d.detachLocked(ctx, b, addr, reason) {
		return fmt.Errorf("detach %s: %w", addr, api.ErrNotControlled)
	}
	return nil
}

// detachLocked ends the pane's controller or its failed adoption and
// reports whether there was either.
func (d *Daemon) detachLocked(ctx context.Context, b backend, addr, reason string) bool {
	if p := d.lookup(addr); p != nil {
		d.releaseLocked(p, reason, true)
		return true
	}
	d.mu.Lock()
	_, failed := d.failed[addr]
	delete(d.failed, addr)
	d.mu.Unlock()
	if failed {
		b.forget(ctx, addr)
		d.hub.publish(api.Event{At: time.Now(), Pane: addr, Kind: "detach", Reason: reason})
	}
	return failed
}

// attachLocked is Attach under the address lock; req.Pane is canonical.
func (d *Daemon) attachLocked(ctx context.Context, b backend, req api.AttachRequest, adopting bool) (api.PaneStatus, error) {
	file, cfg, pat, err := d.config(req.Profile, req.Sets)
	if err != nil {
		return api.PaneStatus{}, err
	}
	if p := d.lookup(req.Pane); p != nil {
		return d.reconfigure(ctx, p, req, cfg)
	}
	o, err := b.open(ctx, req.Pane, file, adopting)
	if err != nil {
		return api.PaneStatus{}, err
	}
	agent, err := agentFor(ctx, cfg.Agent, pat, o.backend)
	if err != nil {
		o.backend.close()
		return api.PaneStatus{}, err
	}
	cfg = agent.adapt(cfg)
	term := o.backend.terminal(agent.timing(o.timing))
	checker, checkerDown := d.checkerFor(agent.info)
	if err := o.backend.claim(ctx, d.me); err != nil {
		o.backend.close()
		return api.PaneStatus{}, err
	}
	if err := o.backend.persist(ctx, req.Profile, req.Sets); err != nil {
		o.backend.unclaim(ctx)
		o.backend.close()
		return api.PaneStatus{}, err
	}
	p := &pane{addr: req.Pane, target: o.target, profile: req.Profile, sets: req.Sets, attachedAt: time.Now(), agent: agent,
		backend: o.backend, subscribe: o.subscribe, streams: o.streams}
	p.ctrl = respawn.NewController(respawn.ControllerOptions{
		Pane: p.addr, Config: cfg, Agent: agent.reader, Terminal: &ownedTerminal{Terminal: term, d: d, p: p},
		Checker: checker, CheckerDown: checkerDown, Clock: d.opts.Clock, Logger: d.log, OnStatus: o.onStatus,
		OnNeed: d.needHandler(p),
	})
	ctrl := p.ctrl
	p.unsub = o.subscribe(func(data []byte, _ time.Time) { ctrl.Output(data) })
	d.mu.Lock()
	d.panes[p.addr] = p
	delete(d.failed, p.addr)
	d.mu.Unlock()
	decisions, cancel := ctrl.Subscribe()
	ctrl.Start(d.ctx)
	if req.Paused {
		if err := ctrl.Pause(); err != nil {
			d.log.Warn("pane not paused as it was left", "pane", p.addr, "err", err)
		}
	}
	d.controllers.Add(1)
	d.hub.publish(api.Event{At: time.Now(), Pane: p.addr, Kind: "attach", Reason: "profile " + profileName(req.Profile) + ", agent " + agent.describe()})
	d.wg.Add(1)
	go d.follow(p, decisions, cancel)
	return d.status(p, 1)
}

// reconfigure gives a controlled pane a new profile and settings: first
// persisted, then handed to the controller, the record put back when the
// controller refuses them.
func (d *Daemon) reconfigure(ctx context.Context, p *pane, req api.AttachRequest, cfg respawn.Config) (api.PaneStatus, error) {
	if cfg.Agent != agents.Auto && cfg.Agent != p.agent.info.Name {
		return api.PaneStatus{}, fmt.Errorf("attach %s: the pane's controller reads %s; detach it first to change its agent to %s", p.addr, p.agent.info.Name, cfg.Agent)
	}
	cfg = p.agent.adapt(cfg)
	if err := p.backend.persist(ctx, req.Profile, req.Sets); err != nil {
		return api.PaneStatus{}, err
	}
	if err := p.ctrl.SetConfig(cfg); err != nil {
		if undo := p.backend.persist(ctx, p.profile, p.sets); undo != nil {
			d.log.Warn("pane settings not restored", "pane", p.addr, "err", undo)
		}
		return api.PaneStatus{}, err
	}
	p.profile, p.sets = req.Profile, req.Sets
	return d.status(p, 1)
}

// follow forwards a pane's decisions to the event stream and ends the pane
// when its controller stops on its own (duration reached).
func (d *Daemon) follow(p *pane, decisions <-chan respawn.Decision, cancel func()) {
	defer d.wg.Done()
	defer cancel()
	for {
		select {
		case dec := <-decisions:
			d.hub.publish(api.Event{At: dec.At, Pane: p.addr, Kind: "decision", Decision: &dec})
		case <-p.ctrl.Done():
			d.controllers.Add(-1)
			if d.ctx.Err() == nil {
				d.end(p, "controller ended", true)
			}
			return
		}
	}
}

// end releases p from outside a request (its pane closed, its controller
// stopped, another daemon owns it), unless something released it first.
func (d *Daemon) end(p *pane, reason string, forget bool) {
	unlock, _ := d.locks.lock(context.Background(), p.addr) // Background: never fails
	defer unlock()
	d.releaseLocked(p, reason, forget)
}

// releaseLocked stops a pane's controller and frees its backend; forget
// also removes the persisted flag so the next daemon does not adopt it.
// The caller holds p's address lock.
func (d *Daemon) releaseLocked(p *pane, reason string, forget bool) {
	if p.released {
		return
	}
	p.released = true
	d.mu.Lock()
	if d.panes[p.addr] == p {
		delete(d.panes, p.addr)
	}
	d.mu.Unlock()
	d.notes.release(p.addr)
	p.ctrl.Stop()
	p.unsub()
	ctx, cancel := context.WithTimeout(context.Background(), releaseTimeout)
	if forget {
		p.backend.forget(ctx)
	} else {
		p.backend.unclaim(ctx)
	}
	cancel()
	p.backend.close()
	d.log.Info("pane released", "pane", p.addr, "reason", reason)
	d.hub.publish(api.Event{At: time.Now(), Pane: p.addr, Kind: "detach", Reason: reason})
}

// lookup returns the pane controlled at addr, or nil.
func (d *Daemon) lookup(addr string) *pane {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.panes[addr]
}

// current reports whether p is still the pane controlled at its address.
func (d *Daemon) current(p *pane) bool { return d.lookup(p.addr) == p }

// ownedTerminal lets a controller's keys out only while its pane is still
// the daemon's: the pane is current and its owner record names this
// daemon. A pane found owned by someone else, or by nobody (a new server
// behind the same socket, a pane that closed), is released.
type ownedTerminal struct {
	respawn.Terminal
	d *Daemon
	p *pane
}

func (t *ownedTerminal) Submit(ctx context.Context, text string) error {
	if err := t.check(ctx); err != nil {
		return err
	}
	return t.Terminal.Submit(ctx, text)
}

func (t *ownedTerminal) Press(ctx context.Context, key respawn.Key) error {
	if err := t.check(ctx); err != nil {
		return err
	}
	return t.Terminal.Press(ctx, key)
}

func (t *ownedTerminal) check(ctx context.Context) error {
	if !t.d.current(t.p) {
		return fmt.Errorf("send to %s: %w: it was released", t.p.addr, api.ErrNotOwner)
	}
	err := t.p.backend.owned(ctx)
	if errors.Is(err, api.ErrNotOwner) {
		go t.d.end(t.p, err.Error(), false)
	}
	if err != nil {
		return fmt.Errorf("send to %s: %w", t.p.addr, err)
	}
	// Read now, not at the last liveness check: the agent may have exited
	// to its shell a moment ago.
	programs, err := t.p.backend.foreground(ctx)
	if err != nil {
		return fmt.Errorf("send to %s: the pane's program cannot be read: %w", t.p.addr, err)
	}
	if err := t.p.agent.typesInto(programs); err != nil {
		return fmt.Errorf("send to %s: %w", t.p.addr, err)
	}
	return nil
}

// Panes returns the status of every enabled pane, controlled or not,
// sorted by address.
func (d *Daemon) Panes(decisions int) []api.PaneStatus {
	d.mu.Lock()
	panes := make([]*pane, 0, len(d.panes))
	for _, p := range d.panes {
		panes = append(panes, p)
	}
	out := make([]api.PaneStatus, 0, len(panes)+len(d.failed))
	for _, f := range d.failed {
		out = append(out, f.status())
	}
	d.mu.Unlock()
	for _, p := range panes {
		if st, err := d.status(p, decisions); err == nil {
			out = append(out, st)
		}
	}
	slices.SortFunc(out, func(a, b api.PaneStatus) int { return strings.Compare(a.Pane, b.Pane) })
	return out
}

// Pane returns one pane's status with up to decisions of its decisions.
func (d *Daemon) Pane(addr string, decisions int) (api.PaneStatus, error) {
	if _, c, err := d.backendFor(addr); err == nil {
		addr = c
	}
	d.mu.Lock()
	p, f := d.panes[addr], d.failed[addr]
	d.mu.Unlock()
	switch {
	case p != nil:
		return d.status(p, decisions)
	case f != nil:
		return f.status(), nil
	}
	return api.PaneStatus{}, fmt.Errorf("%s: %w", addr, api.ErrNotControlled)
}

// liveScreenTimeout bounds the screen read of an explain.
const liveScreenTimeout = 3 * time.Second

// liveScreen reads the pane's screen now and classifies it with the
// controller's patterns, leaving the controller alone.
func (d *Daemon) liveScreen(ctx context.Context, addr string) *api.LiveScreen {
	p := d.lookup(addr)
	if p == nil {
		return &api.LiveScreen{At: time.Now(), Error: addr + ": " + api.ErrNotControlled.Error()}
	}
	ctx, cancel := context.WithTimeout(ctx, liveScreenTimeout)
	defer cancel()
	s, err := p.backend.snapshot(ctx)
	if err != nil {
		return &api.LiveScreen{At: time.Now(), Error: err.Error()}
	}
	if s.At.IsZero() {
		s.At = time.Now()
	}
	f := p.agent.reader.Classify(s)
	return &api.LiveScreen{
		At: s.At, Working: f.Working, Completion: f.Completion, PromptBox: f.PromptBox, Input: f.Input,
		PlanMenu: f.PlanMenu, Question: f.Question, Permission: f.Permission, Dialog: f.Dialog, Evidence: f.Evidence,
	}
}

func (d *Daemon) status(p *pane, decisions int) (api.PaneStatus, error) {
	st, err := p.ctrl.Status(decisions)
	if err != nil {
		return api.PaneStatus{}, err
	}
	ps := api.PaneStatus{
		Pane: p.addr, Target: p.target, Command: p.backend.command(), Agent: p.agent.info.Name, Profile: p.profile, Sets: p.sets,
		Mode: p.backend.mode(), AttachedAt: p.attachedAt, Status: st, Checker: "available",
	}
	if checker, down := d.checkerFor(p.agent.info); checker == nil {
		ps.Checker = "unavailable (" + strings.TrimPrefix(down, respawn.ErrCheckerUnavailable.Error()+": ") + ")"
	}
	if w := d.hookWatcher(); w != nil {
		ps.HooksActive = w.Active()
		if name, at, ok := w.LastEvent(p.addr); ok {
			ps.LastHook, ps.LastHookAt = name, at
		}
	}
	return ps, nil
}

func profileName(p string) string {
	if p == "" {
		return "default"
	}
	return p
}
