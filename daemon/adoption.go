package daemon

import (
	"context"
	"errors"
	"path/filepath"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/fsnotify/fsnotify"
)

// failedPane is a pane enabled before the daemon started that it could
// not adopt: bad config, bad settings, another daemon owns it, or the
// window now runs another program. It stays listed, with the reason, until
// it is adopted or detached.
type failedPane struct {
	req    api.AttachRequest // Pane is canonical
	b      backend
	reason string
	at     time.Time
	// retry says whether a config change or an attach can fix it: a screen
	// window that now runs another program cannot be adopted again.
	retry bool
}

func (f *failedPane) status() api.PaneStatus {
	return api.PaneStatus{Pane: f.req.Pane, Target: f.req.Pane, Profile: f.req.Profile, Sets: f.req.Sets, Problem: f.reason, ProblemAt: f.at}
}

// adopt attaches every pane that was enabled before this daemon started.
// One that cannot be attached is kept with its reason (failedPane).
func (d *Daemon) adopt(ctx context.Context) {
	for _, b := range d.backends {
		for _, a := range b.enabled(ctx) {
			if c, err := b.canonical(a.req.Pane); err == nil {
				a.req.Pane = c
			}
			unlock, err := d.locks.lock(ctx, a.req.Pane)
			if err != nil {
				return
			}
			d.adoptLocked(ctx, b, a)
			unlock()
		}
	}
}

// EnabledPanes lists the panes a daemon starting now in env would adopt:
// tmux panes with @codeman on the servers it knows, and the screen windows
// in its state file. It asks the backends a daemon adopts through, and
// starts nothing: doctor asks it when no daemon runs.
func EnabledPanes(ctx context.Context, paths api.Paths, env func(string) string) []string {
	probe := New(Options{Paths: paths, Env: env})
	var out []string
	for _, b := range probe.backends {
		for _, a := range b.enabled(ctx) {
			out = append(out, a.req.Pane)
		}
	}
	return out
}

// adoptLocked attaches one pane enabled before, under its address lock.
func (d *Daemon) adoptLocked(ctx context.Context, b backend, a adoptable) {
	if d.lookup(a.req.Pane) != nil {
		return // attached by a request since
	}
	err := a.err
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
	f := &failedPane{req: a.req, b: b, reason: err.Error(), at: time.Now(), retry: !replaced}
	d.mu.Lock()
	d.failed[a.req.Pane] = f
	d.mu.Unlock()
	if replaced {
		b.forget(ctx, a.req.Pane) // the window enabled is gone; its number is someone else's
	} else {
		b.showProblem(ctx, a.req.Pane, "not controlled")
	}
	d.log.Warn("pane not adopted", "pane", a.req.Pane, "err", err)
	d.hub.publish(api.Event{At: f.at, Pane: a.req.Pane, Kind: "not-adopted", Reason: f.reason})
}

// retryFailed tries again to adopt the panes whose adoption failed in a
// way a new config could fix.
func (d *Daemon) retryFailed(ctx context.Context) {
	d.eachFailed(ctx, func(f failedPane) {
		if f.retry {
			d.adoptLocked(ctx, f.b, adoptable{req: f.req})
		}
	})
}

// pruneFailed drops, every Liveness, the failed adoptions whose panes are
// no longer enabled: closed, or on a tmux server that restarted.
func (d *Daemon) pruneFailed(ctx context.Context) {
	d.every(ctx, &d.wg, func() bool {
		d.eachFailed(ctx, func(failedPane) {})
		return ctx.Err() == nil
	})
}

// eachFailed calls fn, under the pane's address lock, with each failed
// adoption whose pane still carries its enabled flag, and drops the others:
// a retry must never land on a pane of the same id that nobody enabled.
func (d *Daemon) eachFailed(ctx context.Context, fn func(failedPane)) {
	d.mu.Lock()
	failed := make([]failedPane, 0, len(d.failed))
	for _, f := range d.failed {
		failed = append(failed, *f)
	}
	d.mu.Unlock()
	for _, f := range failed {
		unlock, err := d.locks.lock(ctx, f.req.Pane)
		if err != nil {
			return
		}
		if d.lookup(f.req.Pane) == nil && !f.b.stillEnabled(ctx, f.req.Pane) {
			d.dropFailed(f.req.Pane, "no longer enabled")
		} else {
			fn(f)
		}
		unlock()
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
		d.hub.publish(api.Event{At: time.Now(), Pane: addr, Kind: "detach", Reason: reason})
	}
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
					d.notes.load()
				}
			}
		}
	}()
}
