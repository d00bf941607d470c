package daemon

import (
	"context"
	"fmt"
	"reflect"
	"sync"

	"github.com/codeman-dev/codeman/config"
	"github.com/codeman-dev/codeman/daemon/notify"
	"github.com/codeman-dev/codeman/respawn"
)

// notifications tells people that a pane needs them: the channels of the
// config's [notify] table, and the status line of the pane's multiplexer
// (the paneChannel). The notifier is rebuilt when the config file changes;
// the holds it had are raised on the new one.
type notifications struct {
	d *Daemon

	mu       sync.Mutex
	n        *notify.Notifier // nil until started, and after close
	file     *config.File     // the config it was built from; nil when unreadable
	problem  string           // why the configured channels could not be built
	holds    map[string]notify.Hold
	released map[string]bool // panes whose controller is going: their clears are no news
}

func newNotifications(d *Daemon) *notifications {
	return &notifications{d: d, holds: make(map[string]notify.Hold), released: make(map[string]bool)}
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
	n, err := notify.New(opts)
	if err != nil {
		problem = "notification channels not built, only the status line is told: " + err.Error()
		opts.Command, opts.Desktop, opts.URL = nil, false, ""
		n, err = notify.New(opts)
	}
	if err != nil { // the status-line channel alone cannot fail to build
		d.log.Error("notifications off", "err", err)
		return
	}
	if problem != "" {
		d.log.Warn("notifications", "problem", problem)
	}

	ns.mu.Lock()
	old := ns.n
	ns.n, ns.file, ns.problem = n, file, problem
	for _, h := range ns.holds {
		h.Policy = nil
		if p := ns.d.lookup(h.Pane); p != nil {
			h.Policy = policy(file, p.profile)
		}
		n.Raise(h)
	}
	ns.mu.Unlock()
	if old != nil {
		old.Close()
	}
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
		Session: pl.session, Window: pl.window, Cwd: pl.cwd, Since: n.Since, Policy: policy(ns.file, p.profile)}
	ns.holds[p.addr] = h
	if ns.n != nil {
		ns.n.Raise(h)
	}
}

// status is what doctor shows of the notifications.
func (ns *notifications) status() NotifyStatus {
	ns.mu.Lock()
	defer ns.mu.Unlock()
	st := NotifyStatus{Problem: ns.problem}
	if ns.n != nil {
		s := ns.n.Status()
		st.Channels, st.Holds, st.RateLimited = s.Channels, s.Holds, s.RateLimited
	}
	return st
}

func (ns *notifications) close() {
	ns.mu.Lock()
	n := ns.n
	ns.n = nil
	ns.mu.Unlock()
	if n != nil {
		n.Close()
	}
}

// NotifyStatus is the daemon's notifications, for doctor.
type NotifyStatus struct {
	Problem     string                 `json:"problem,omitempty"` // why the [notify] channels are not used
	Channels    []notify.ChannelStatus `json:"channels"`
	Holds       int                    `json:"holds"`        // panes needing a person now
	RateLimited int                    `json:"rate_limited"` // messages the rate limit dropped
}

// paneChannel shows a message on the status line of the clients looking
// at the pane's session (tmux: with a bell when the policy asks; screen:
// its message line).
type paneChannel struct{ d *Daemon }

func (paneChannel) Name() string { return "status line" }

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
