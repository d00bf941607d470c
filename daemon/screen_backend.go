package daemon

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/codeman-dev/codeman/respawn"
	"github.com/codeman-dev/codeman/screen"
)

// screenBackend runs one hardcopy poller per GNU screen window and keeps
// the enabled windows in a state file, since screen has no user options.
type screenBackend struct {
	d  *Daemon
	mu sync.Mutex // serialises state file updates
}

// screenPane is the backend half of a controlled screen window.
type screenPane struct {
	b        *screenBackend
	w        screen.Window
	poller   *screen.Poller
	unsub    func()
	interval time.Duration
}

func newScreenBackend(d *Daemon) *screenBackend { return &screenBackend{d: d} }

func (b *screenBackend) attach(ctx context.Context, req AttachRequest, file *respawn.File, cfg respawn.Config, pat *respawn.Patterns) (*pane, error) {
	w, err := screen.ParseAddress(req.Pane)
	if err != nil {
		return nil, err
	}
	poller := screen.NewPoller(w, screen.PollerOptions{PollInterval: file.Screen.PollInterval, Logger: b.d.log})
	if err := poller.Start(b.d.ctx); err != nil {
		return nil, err
	}
	sp := &screenPane{b: b, w: w, poller: poller, interval: file.Screen.PollInterval}
	pause, retries := sendTiming(file.Tmux)
	term := screen.NewWindowTerminal(w, screen.TerminalOptions{SendPause: pause, EnterRetries: retries})
	ctrl := respawn.NewController(respawn.ControllerOptions{
		Pane: w.Address(), Config: cfg, Patterns: pat, Terminal: term, Checker: b.d.checker, CheckerDown: b.d.checkerMsg,
		Clock: b.d.opts.Clock, Logger: b.d.log,
	})
	sp.unsub = poller.Subscribe(func(data []byte, _ time.Time) { ctrl.Output(data) })
	p := &pane{addr: w.Address(), target: fmt.Sprintf("screen %s:%s", w.Session, w.Window), ctrl: ctrl, patterns: pat, backend: sp}
	b.d.wg.Add(1)
	go b.watch(p, poller)
	return p, nil
}

// watch ends the controller when the window closes or its session ends.
func (b *screenBackend) watch(p *pane, poller *screen.Poller) {
	defer b.d.wg.Done()
	select {
	case <-b.d.ctx.Done():
	case <-poller.Done():
		if b.d.ctx.Err() == nil {
			reason := "screen window gone"
			if err := poller.Err(); err != nil {
				reason = err.Error()
			}
			b.d.release(p, reason, true)
		}
	}
}

func (p *screenPane) mode() string {
	return fmt.Sprintf("hardcopy every %s", p.interval)
}

func (p *screenPane) command() string { return "" }

// snapshot returns the poller's newest hardcopy, at most a poll interval
// old: a hardcopy of its own would race the poller's.
func (p *screenPane) snapshot(context.Context) (respawn.Screen, error) {
	s, ok := p.poller.Snapshot()
	if !ok {
		return respawn.Screen{}, fmt.Errorf("no hardcopy of %s yet", p.w.Address())
	}
	return s, nil
}

func (p *screenPane) forget(context.Context) {
	p.b.mu.Lock()
	defer p.b.mu.Unlock()
	path := p.b.d.opts.Paths.ScreenState
	state, err := screen.LoadState(path)
	if err != nil {
		p.b.d.log.Warn("screen state not updated", "err", err)
		return
	}
	if state.Remove(p.w.Address()) {
		if err := state.Save(path); err != nil {
			p.b.d.log.Warn("screen state not updated", "err", err)
		}
	}
}

func (p *screenPane) close() {
	p.unsub()
	p.poller.Close()
}

// persist records the window, its profile and settings in the state file.
func (b *screenBackend) persist(p *pane) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	path := b.d.opts.Paths.ScreenState
	state, err := screen.LoadState(path)
	if err != nil {
		return err
	}
	if err := state.Add(screen.EnabledWindow{Address: p.addr, Profile: p.profile, Sets: p.sets, EnabledAt: p.attachedAt}); err != nil {
		return err
	}
	return state.Save(path)
}

// enabledWindows lists the windows of the state file, for adoption.
func (b *screenBackend) enabledWindows() []AttachRequest {
	state, err := screen.LoadState(b.d.opts.Paths.ScreenState)
	if err != nil {
		b.d.log.Warn("screen windows not adopted", "err", err)
		return nil
	}
	reqs := make([]AttachRequest, 0, len(state.Windows))
	for _, w := range state.Windows {
		reqs = append(reqs, AttachRequest{Pane: w.Address, Profile: w.Profile, Sets: w.Sets})
	}
	return reqs
}
