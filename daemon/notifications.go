package daemon

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/config"
	"github.com/codeman-dev/codeman/notify"
	"github.com/codeman-dev/codeman/respawn"
)

// needHandler returns what a pane's controller calls, on its loop
// goroutine, when the pane's need for a person changes. It must not
// block: the event stream drops for slow readers, the backend writes in
// the background.
func (d *Daemon) needHandler(p *pane) func(respawn.Need) {
	d.notes.attached(p.addr)
	var last respawn.Need
	var prev chan struct{} // closed once the last update was passed on
	return func(n respawn.Need) {
		e := api.Event{At: time.Now(), Pane: p.addr, Kind: api.EventNeedsYou, Reason: n.String()}
		if n.Kind == "" {
			e.Kind, e.Reason = api.EventResolved, last.String()
		}
		// The same need with its dialog's options read is no news to the
		// event stream; the notifications take its buttons.
		if n.String() != last.String() {
			d.hub.publish(e)
			p.backend.showNeed(string(n.Kind))
		}
		last = n
		// Where the pane is takes a round trip to the multiplexer, which
		// the controller's loop must not wait for. Each update waits for
		// the one before, so a clear never overtakes its raise.
		wait, done := prev, make(chan struct{})
		prev = done
		d.wg.Add(1)
		go func() {
			defer d.wg.Done()
			defer close(done)
			var pl place
			if n.Kind != "" {
				ctx, cancel := context.WithTimeout(d.ctx, 2*time.Second)
				pl = p.backend.place(ctx)
				cancel()
			}
			if wait != nil {
				<-wait
			}
			d.notes.need(p, n, pl)
		}()
	}
}

// notifications tells people that a pane needs them: the channels of the
// config's [notify] table, and the status line of the pane's multiplexer
// (the paneChannel). The notifier is rebuilt when the config file changes:
// the old one hands what it sent to the new one and the holds it had are
// raised on it, so that none is told again as new. What was sent is kept
// in the notified file too, for a daemon started again.
type notifications struct {
	d *Daemon

	mu       sync.Mutex
	n        *notify.Notifier // nil until started, and after close
	file     *config.File     // the config it was built from; nil when unreadable
	problem  string           // why the configured channels could not be built
	holds    map[string]notify.Hold
	released map[string]bool               // panes whose controller is going: their clears are no news
	retired  map[*notify.Notifier]struct{} // handed off: their last messages go out
	keeper   *sentKeeper                   // nil until started, and without a state dir
	started  bool                          // load ran once
	closed   bool                          // close ran: load starts nothing

	wg sync.WaitGroup // the retired notifiers' drains
}

func newNotifications(d *Daemon) *notifications {
	return &notifications{d: d, holds: make(map[string]notify.Hold), released: make(map[string]bool),
		retired: make(map[*notify.Notifier]struct{})}
}

// load builds the notifier from the config file, replacing the one
// running. A [notify] table that cannot be used leaves the status-line
// channel alone working, and says why in the log and in doctor.
func (ns *notifications) load() {
	d := ns.d
	opts := notify.Options{Policy: notify.DefaultPolicy()}
	problem := ""
	file, err := d.loadConfig()
	if err != nil {
		problem = "config not read, only the status line is told: " + err.Error()
	} else {
		opts = file.NotifyOptions()
	}
	d.answers.load(file)
	ns.mu.Lock()
	same := ns.n != nil && err == nil && ns.file != nil && sameNotify(ns.file, file)
	if same {
		// An edit elsewhere in the file: the holds keep their schedules.
		ns.file = file
	}
	ns.mu.Unlock()
	if same {
		return
	}
	opts.Clock = d.opts.Clock
	opts.Log = func(msg string, args ...any) { d.log.Warn(msg, args...) }
	opts.Getenv = d.opts.Env
	opts.Extra = []notify.Channel{paneChannel{d}}

	ns.mu.Lock()
	defer ns.mu.Unlock()
	if ns.closed {
		return
	}
	if !ns.started {
		ns.start()
		if ns.keeper != nil {
			opts.Sent = ns.keeper.load()
		}
	}
	if ns.keeper != nil {
		opts.OnSent = ns.keeper.offer
	}
	// The old notifier stops making messages before the new one starts:
	// what it sent goes on, and no hold is told twice.
	old := ns.n
	if old != nil {
		opts.Sent = old.Handoff()
		ns.retire(old)
	}
	n, err := notify.New(opts)
	if err != nil {
		problem = "notification channels not built, only the status line is told: " + err.Error()
		opts.Command, opts.Desktop, opts.URL = nil, false, ""
		n, err = notify.New(opts)
	}
	if err != nil { // the status-line channel alone cannot fail to build
		d.log.Error("notifications off", "err", err)
		ns.n = nil
		return
	}
	if problem != "" {
		d.log.Warn("notifications", "problem", problem)
	}
	ns.n, ns.file, ns.problem = n, file, problem
	for _, h := range ns.holds {
		h.Policy = nil
		if p := ns.d.lookup(h.Pane); p != nil {
			h.Policy = policy(file, p.profile)
		}
		n.Raise(h)
	}
}

// start starts keeping what is sent, where there is a state dir. ns.mu is
// held.
func (ns *notifications) start() {
	ns.started = true
	d := ns.d
	if path := d.opts.Paths.Notified(); path != "" {
		ns.keeper = newSentKeeper(path, d.log, func() bool { return d.ctx != nil && d.ctx.Err() != nil })
	}
}

// retire lets a notifier that handed off send what it had made, then
// closes it. ns.mu is held.
func (ns *notifications) retire(old *notify.Notifier) {
	ns.retired[old] = struct{}{}
	ns.wg.Go(func() {
		old.Drain()
		old.Close()
		ns.mu.Lock()
		delete(ns.retired, old)
		ns.mu.Unlock()
	})
}

// sameNotify reports whether two configs notify alike.
func sameNotify(a, b *config.File) bool {
	return reflect.DeepEqual(a.Notify, b.Notify) && reflect.DeepEqual(a.ProfileNotify, b.ProfileNotify)
}

// policy is the notification policy of a profile's panes; nil (the
// notifier's) when the config is unreadable or names no such profile.
func policy(file *config.File, profile string) *notify.Policy {
	if file == nil {
		return nil
	}
	pol, err := file.NotifyPolicy(profile)
	if err != nil {
		return nil
	}
	return &pol
}

// attached says a controller starts on addr: its needs are news again.
func (ns *notifications) attached(addr string) {
	ns.mu.Lock()
	delete(ns.released, addr)
	ns.mu.Unlock()
}

// release drops the pane's hold without a message: its controller stops
// (detach, the pane closed, the daemon stops), which is no resolution.
func (ns *notifications) release(addr string) {
	ns.mu.Lock()
	defer ns.mu.Unlock()
	ns.released[addr] = true
	delete(ns.holds, addr)
	if ns.n != nil {
		ns.n.Forget(addr)
	}
}

// need passes a pane's need on: raised, changed or cleared.
func (ns *notifications) need(p *pane, n respawn.Need, pl place) {
	ns.mu.Lock()
	defer ns.mu.Unlock()
	if ns.released[p.addr] {
		return
	}
	if n.Kind == "" {
		delete(ns.holds, p.addr)
		if ns.n != nil {
			ns.n.Clear(p.addr, ns.d.opts.Clock.Now())
		}
		return
	}
	h := notify.Hold{Pane: p.addr, Target: p.target, Kind: string(n.Kind), Reason: n.Reason,
		Session: pl.session, Window: pl.window, Cwd: pl.cwd, Since: n.Since, Policy: policy(ns.file, p.profile),
		Dialog: n.ID, Buttons: ns.d.answers.buttons(p.addr, n)}
	ns.holds[p.addr] = h
	if ns.n != nil {
		ns.n.Raise(h)
	}
}

// status is what doctor shows of the notifications.
func (ns *notifications) status() api.NotifyStatus {
	ns.mu.Lock()
	defer ns.mu.Unlock()
	st := api.NotifyStatus{Problem: ns.problem}
	if ns.n != nil {
		s := ns.n.Status()
		st.Channels, st.Holds, st.RateLimited, st.RateDelayed = s.Channels, s.Holds, s.RateLimited, s.RateDelayed
	}
	st.Answer = ns.d.answers.status()
	return st
}

// close stops the notifiers, canceling what they still send, and writes
// what was sent before the daemon began to stop.
func (ns *notifications) close() {
	ns.mu.Lock()
	all := []*notify.Notifier{}
	if ns.n != nil {
		all = append(all, ns.n)
	}
	for r := range ns.retired {
		all = append(all, r)
	}
	ns.n, ns.closed = nil, true
	keeper := ns.keeper
	ns.keeper = nil
	ns.mu.Unlock()
	for _, n := range all {
		n.Close()
	}
	ns.wg.Wait()
	if keeper != nil {
		keeper.close()
	}
}

// paneChannel shows a message on the status line of the clients looking
// at the pane's session (tmux: with a bell when the policy asks; screen:
// its message line).
type paneChannel struct{ d *Daemon }

func (paneChannel) Name() string { return api.StatusLine }

func (c paneChannel) Send(ctx context.Context, m notify.Message) error {
	p := c.d.lookup(m.Hold.Pane)
	if p == nil {
		return nil // the pane went away since
	}
	if err := p.backend.notice(ctx, "codeman: "+m.Line(), m.Bell); err != nil {
		return fmt.Errorf("tell %s: %w", p.target, err)
	}
	return nil
}

// place is where a pane is, for the people a notification reaches.
type place struct{ session, window, cwd string }
