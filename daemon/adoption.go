package daemon

import (
	"context"
	"errors"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// failedPane is a pane enabled before the daemon started that it could
// not adopt: bad config, bad settings, another daemon owns it, or the
// window now runs another program. It stays listed, with the reason, until
// it is adopted or detached.
type failedPane struct {
	req    AttachRequest
	reason string
	at     time.Time
	// retry says whether a config change or an attach can fix it: a screen
	// window that now runs another program cannot be adopted again.
	retry bool
}

func (f *failedPane) status() PaneStatus {
	return PaneStatus{Pane: f.req.Pane, Target: f.req.Pane, Profile: f.req.Profile, Sets: f.req.Sets, Problem: f.reason, ProblemAt: f.at}
}

// adopt attaches every pane that was enabled before this daemon started.
// One that cannot be attached is kept with its reason (failedPane).
func (d *Daemon) adopt(ctx context.Context) {
	for _, b := range d.backends {
		for _, a := range b.enabled(ctx) {
			if c, err := b.canonical(a.req.Pane); err == nil {
				a.req.Pane = c
			}
			d.adoptOne(ctx, b, a)
		}
	}
}

func (d *Daemon) adoptOne(ctx context.Context, b backend, a adoptable) {
	unlock, err := d.locks.lock(ctx, a.req.Pane)
	if err != nil {
		return
	}
	defer unlock()
	if d.lookup(a.req.Pane) != nil {
		return // attached by a request since
	}
	if !b.stillEnabled(ctx, a.req.Pane) {
		d.dropFailed(a.req.Pane, "no longer enabled")
		return
	}
	err = a.err
	if err == nil {
		_, err = d.attachLocked(ctx, b, a.req, true)
	}
	if err == nil {
		b.showProblem(ctx, a.req.Pane, "")
		d.log.Info("pane adopted", "pane", a.req.Pane, "profile", a.req.Profile)
		return
	}
	if errors.Is(err, errGone) {
		b.forget(ctx, a.req.Pane)
		d.log.Info("pane not adopted: gone", "pane", a.req.Pane, "err", err)
		return
	}
	replaced := errors.Is(err, errReplaced)
	f := &failedPane{req: a.req, reason: err.Error(), at: time.Now(), retry: !replaced}
	d.mu.Lock()
	d.failed[a.req.Pane] = f
	d.mu.Unlock()
	if replaced {
		b.forget(ctx, a.req.Pane) // the window enabled is gone; its number is someone else's
	} else {
		b.showProblem(ctx, a.req.Pane, "not controlled")
	}
	d.log.Warn("pane not adopted", "pane", a.req.Pane, "err", err)
	d.hub.publish(Event{At: f.at, Pane: a.req.Pane, Kind: "not-adopted", Reason: f.reason})
}

// retryFailed tries again to adopt the panes whose adoption failed in a
// way a new config could fix.
func (d *Daemon) retryFailed(ctx context.Context) {
	d.mu.Lock()
	var retry []*failedPane
	for _, f := range d.failed {
		if f.retry {
			retry = append(retry, f)
		}
	}
	d.mu.Unlock()
	for _, f := range retry {
		b, addr, err := d.backendFor(f.req.Pane)
		if err != nil {
			continue
		}
		f.req.Pane = addr
		d.adoptOne(ctx, b, adoptable{req: f.req})
	}
}

// dropFailed forgets a failed adoption whose pane is gone or no longer
// enabled.
func (d *Daemon) dropFailed(addr, reason string) {
	d.mu.Lock()
	_, ok := d.failed[addr]
	delete(d.failed, addr)
	d.mu.Unlock()
	if ok {
		d.log.Info("pane not adopted is gone", "pane", addr, "reason", reason)
		d.hub.publish(Event{At: time.Now(), Pane: addr, Kind: "detach", Reason: reason})
	}
}

// pruneFailed drops, every Liveness, the failed adoptions whose panes are
// no longer enabled: closed, or on a tmux server that restarted.
func (d *Daemon) pruneFailed(ctx context.Context) {
	d.every(ctx, &d.wg, func() bool {
		d.mu.Lock()
		addrs := make([]string, 0, len(d.failed))
		for addr := range d.failed {
			addrs = append(addrs, addr)
		}
		d.mu.Unlock()
		for _, addr := range addrs {
			b, addr, err := d.backendFor(addr)
			if err != nil {
				continue
			}
			unlock, err := d.locks.lock(ctx, addr)
			if err != nil {
				return false
			}
			if !b.stillEnabled(ctx, addr) {
				d.dropFailed(addr, "no longer enabled")
			}
			unlock()
		}
		return true
	})
}

// watchConfig retries failed adoptions whenever the config file changes.
// It watches the file's directory: editors replace files by renaming, and
// the file may not exist yet.
func (d *Daemon) watchConfig(ctx context.Context) {
	if d.opts.ConfigPath == "" {
		return
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		d.log.Warn("config file not watched; fix a bad config and run codeman attach", "err", err)
		return
	}
	dir, name := filepath.Split(d.opts.ConfigPath)
	if err := w.Add(filepath.Clean(dir)); err != nil {
		w.Close()
		d.log.Info("config dir not watched; failed adoptions are retried on attach", "dir", dir, "err", err)
		return
	}
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		defer w.Close()
		for {
			select {
			case <-ctx.Done():
				return
			case err := <-w.Errors:
				d.log.Warn("config watch", "err", err)
			case ev := <-w.Events:
				if filepath.Base(ev.Name) == name && ev.Op&(fsnotify.Write|fsnotify.Create|fsnotify.Rename) != 0 {
					d.retryFailed(ctx)
				}
			}
		}
	}()
}
