package daemon

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/codeman-dev/codeman/respawn"
)

// ErrNotControlled means no controller runs for the pane.
var ErrNotControlled = errors.New("pane is not controlled by codeman")

// pane is one controlled pane and what its backend set up for it.
type pane struct {
	addr       string
	target     string
	profile    string
	sets       []string
	attachedAt time.Time
	ctrl       *respawn.Controller
	patterns   *respawn.Patterns // the controller's, to read a live screen with
	backend    paneBackend

	once sync.Once
}

// paneBackend is what a multiplexer backend keeps for one pane.
type paneBackend interface {
	// mode says how output is read.
	mode() string
	// command is the program running in the pane, when known.
	command() string
	// snapshot reads the pane's screen now, without the controller.
	snapshot(ctx context.Context) (respawn.Screen, error)
	// forget removes the pane's persisted enabled flag.
	forget(ctx context.Context)
	// close releases the pane's resources.
	close()
}

// Attach enables respawn on a pane, or updates the profile and settings of
// a pane already controlled.
func (d *Daemon) Attach(ctx context.Context, req AttachRequest) (PaneStatus, error) {
	file, cfg, pat, err := d.config(req.Profile, req.Sets)
	if err != nil {
		return PaneStatus{}, err
	}
	d.mu.Lock()
	existing := d.panes[req.Pane]
	d.mu.Unlock()
	if existing != nil {
		if err := existing.ctrl.SetConfig(cfg); err != nil {
			return PaneStatus{}, err
		}
		existing.profile, existing.sets = req.Profile, req.Sets
		if err := d.persist(ctx, existing); err != nil {
			return PaneStatus{}, err
		}
		return d.status(existing, 1)
	}
	var p *pane
	switch {
	case strings.HasPrefix(req.Pane, "tmux:"):
		p, err = d.tmux.attach(ctx, req, file, cfg, pat)
	case strings.HasPrefix(req.Pane, "screen:"):
		p, err = d.scr.attach(ctx, req, file, cfg, pat)
	default:
		err = fmt.Errorf("attach %q: not a pane address (tmux:SOCKET:%%ID or screen:SESSION:WINDOW)", req.Pane)
	}
	if err != nil {
		return PaneStatus{}, err
	}
	p.profile, p.sets, p.attachedAt = req.Profile, req.Sets, time.Now()
	d.mu.Lock()
	d.panes[p.addr] = p
	d.mu.Unlock()
	if err := d.persist(ctx, p); err != nil {
		d.release(p, "persist failed", false)
		return PaneStatus{}, err
	}
	decisions, cancel := p.ctrl.Subscribe()
	p.ctrl.Start(d.ctx)
	d.hub.publish(Event{At: time.Now(), Pane: p.addr, Kind: "attach", Reason: "profile " + profileName(req.Profile)})
	d.wg.Add(1)
	go d.follow(p, decisions, cancel)
	return d.status(p, 1)
}

// follow forwards a pane's decisions to the event stream and cleans up
// when its controller ends on its own (duration reached).
func (d *Daemon) follow(p *pane, decisions <-chan respawn.Decision, cancel func()) {
	defer d.wg.Done()
	defer cancel()
	for {
		select {
		case dec := <-decisions:
			d.hub.publish(Event{At: dec.At, Pane: p.addr, Kind: "decision", Decision: &dec})
		case <-p.ctrl.Done():
			d.mu.Lock()
			current := d.panes[p.addr] == p
			d.mu.Unlock()
			if current && d.ctx.Err() == nil {
				d.release(p, "controller ended", true)
			}
			return
		}
	}
}

// Detach disables respawn on a pane and forgets it.
func (d *Daemon) Detach(ctx context.Context, addr, reason string) error {
	d.mu.Lock()
	p := d.panes[addr]
	d.mu.Unlock()
	if p == nil {
		return fmt.Errorf("detach %s: %w", addr, ErrNotControlled)
	}
	d.release(p, reason, true)
	return nil
}

// release stops a pane's controller and frees its backend; forget also
// removes the persisted flag so the next daemon does not adopt it.
func (d *Daemon) release(p *pane, reason string, forget bool) {
	p.once.Do(func() {
		d.mu.Lock()
		if d.panes[p.addr] == p {
			delete(d.panes, p.addr)
		}
		d.mu.Unlock()
		p.ctrl.Stop()
		if forget {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			p.backend.forget(ctx)
			cancel()
		}
		p.backend.close()
		d.log.Info("pane released", "pane", p.addr, "reason", reason)
		d.hub.publish(Event{At: time.Now(), Pane: p.addr, Kind: "detach", Reason: reason})
	})
}

func (d *Daemon) persist(ctx context.Context, p *pane) error {
	switch {
	case strings.HasPrefix(p.addr, "tmux:"):
		return d.tmux.persist(ctx, p)
	case strings.HasPrefix(p.addr, "screen:"):
		return d.scr.persist(p)
	}
	return nil
}

// Panes returns the status of every controlled pane, sorted by address.
func (d *Daemon) Panes(decisions int) []PaneStatus {
	d.mu.Lock()
	panes := make([]*pane, 0, len(d.panes))
	for _, p := range d.panes {
		panes = append(panes, p)
	}
	d.mu.Unlock()
	out := make([]PaneStatus, 0, len(panes))
	for _, p := range panes {
		if st, err := d.status(p, decisions); err == nil {
			out = append(out, st)
		}
	}
	slices.SortFunc(out, func(a, b PaneStatus) int { return strings.Compare(a.Pane, b.Pane) })
	return out
}

// Pane returns one pane's status with up to decisions of its decisions.
func (d *Daemon) Pane(addr string, decisions int) (PaneStatus, error) {
	d.mu.Lock()
	p := d.panes[addr]
	d.mu.Unlock()
	if p == nil {
		return PaneStatus{}, fmt.Errorf("%s: %w", addr, ErrNotControlled)
	}
	return d.status(p, decisions)
}

// liveScreenTimeout bounds the screen read of an explain.
const liveScreenTimeout = 3 * time.Second

// liveScreen reads the pane's screen now and classifies it with the
// controller's patterns, leaving the controller alone.
func (d *Daemon) liveScreen(ctx context.Context, addr string) *LiveScreen {
	d.mu.Lock()
	p := d.panes[addr]
	d.mu.Unlock()
	if p == nil {
		return &LiveScreen{At: time.Now(), Error: addr + ": " + ErrNotControlled.Error()}
	}
	ctx, cancel := context.WithTimeout(ctx, liveScreenTimeout)
	defer cancel()
	s, err := p.backend.snapshot(ctx)
	if err != nil {
		return &LiveScreen{At: time.Now(), Error: err.Error()}
	}
	if s.At.IsZero() {
		s.At = time.Now()
	}
	pat := p.patterns
	if pat == nil {
		pat = respawn.DefaultPatterns()
	}
	f := pat.Classify(s)
	return &LiveScreen{
		At: s.At, Working: f.Working, Completion: f.Completion, PromptBox: f.PromptBox, Input: f.Input,
		PlanMenu: f.PlanMenu, Question: f.Question, Permission: f.Permission, Dialog: f.Dialog, Evidence: f.Evidence,
	}
}

func (d *Daemon) status(p *pane, decisions int) (PaneStatus, error) {
	st, err := p.ctrl.Status(decisions)
	if err != nil {
		return PaneStatus{}, err
	}
	ps := PaneStatus{
		Pane: p.addr, Target: p.target, Command: p.backend.command(), Profile: p.profile, Sets: p.sets,
		Mode: p.backend.mode(), AttachedAt: p.attachedAt, Status: st, Checker: "available",
	}
	if d.checker == nil {
		ps.Checker = "unavailable (" + strings.TrimPrefix(d.checkerMsg, respawn.ErrCheckerUnavailable.Error()+": ") + ")"
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
