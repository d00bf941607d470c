package hooks

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/hooks/spool"
	"github.com/codeman-dev/codeman/respawn"
)

// Router hands an interpreted hook to the controller of its pane. It
// returns false when nobody controls that pane; the marker is then dropped.
// RouteHook is called from the watcher's goroutine and must not block.
type Router interface {
	RouteHook(pane string, h respawn.Hook) bool
}

// Watcher defaults.
const (
	// DefaultMaxAge drops markers older than this as stale: 10m, the age
	// beyond which the handler's prunes drop them too (spool.MaxAge).
	DefaultMaxAge = spool.MaxAge
	// DefaultRetryDelay is the wait before recreating a spool dir that
	// could not be recreated at once: 1s, doubling up to a minute.
	DefaultRetryDelay = time.Second
	maxRetryDelay     = time.Minute
)

// WatcherOptions tunes a Watcher. Zero values take the defaults.
type WatcherOptions struct {
	MaxAge  time.Duration   // marker age beyond which it is stale; default 10m
	MaxSize int64           // largest marker read, bytes; default 64 KiB
	Clock   clockwork.Clock // default the real clock
	Logger  *slog.Logger    // default discards
	// Observe, when set, sees every marker that is not stale, routed or
	// not, before it is routed (codeman record writes them into the
	// recording). It runs on the watcher's goroutine and must not block.
	Observe func(Marker)
}

// Log keys.
const (
	logKeyFile  = "file"
	logKeyPane  = "pane"
	logKeyEvent = "event"
	logKeyKind  = "kind"
	logKeyAge   = "age"
	logKeyErr   = "err" // as everywhere in the daemon log
)

// Watcher consumes hook markers from the spool dir: each one is claimed,
// read, interpreted, routed and removed, oldest first. It keeps the last
// event per pane for status and explain.
type Watcher struct {
	dir    string
	router Router
	opts   WatcherOptions
	log    *slog.Logger

	mu     sync.Mutex
	last   map[string]lastEvent // by pane
	active bool

	cancel context.CancelFunc
	fsw    *fsnotify.Watcher
	retry  backoff
	wg     sync.WaitGroup
	once   sync.Once
}

type lastEvent struct {
	name string
	at   time.Time
}

// NewWatcher returns a watcher of dir that routes to r. Start starts it.
func NewWatcher(dir string, r Router, opts WatcherOptions) *Watcher {
	if opts.MaxAge <= 0 {
		opts.MaxAge = DefaultMaxAge
	}
	if opts.MaxSize <= 0 {
		opts.MaxSize = DefaultMaxMarkerSize
	}
	if opts.Clock == nil {
		opts.Clock = clockwork.NewRealClock()
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Watcher{
		dir:    filepath.Clean(dir),
		router: r,
		opts:   opts,
		log:    opts.Logger,
		last:   make(map[string]lastEvent),
	}
}

// Start creates the spool dir if needed, begins watching it and consumes
// the markers already there, oldest first, from its own goroutine. It
// returns once the watch is in place.
func (w *Watcher) Start(ctx context.Context) error {
	if err := w.ensureDir(); err != nil {
		return err
	}
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch spool dir: %w", err)
	}
	if err := fsw.Add(w.dir); err != nil {
		fsw.Close()
		return fmt.Errorf("watch spool dir: %w", err)
	}
	ctx, w.cancel = context.WithCancel(ctx)
	w.fsw = fsw
	w.wg.Add(1)
	go w.run(ctx)
	return nil
}

// Close stops the watcher and waits for its goroutine.
func (w *Watcher) Close() error {
	var err error
	w.once.Do(func() {
		if w.cancel == nil {
			return
		}
		w.cancel()
		err = w.fsw.Close()
		w.wg.Wait()
	})
	return err
}

// LastEvent returns the name and time of the last hook event seen for pane
// (also those that carry no signal, such as SessionStart at startup).
func (w *Watcher) LastEvent(pane string) (name string, at time.Time, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	e, ok := w.last[pane]
	return e.name, e.at, ok
}

// Active reports whether any hook marker has been seen: when none ever
// arrives, Claude Code's hooks are probably not installed.
func (w *Watcher) Active() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.active
}

// run is the watcher's loop: fsnotify events and errors, and the retry
// timer while the spool dir cannot be recreated. Only it touches retry.
func (w *Watcher) run(ctx context.Context) {
	defer w.wg.Done()
	defer w.retry.stop()
	w.scan()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			w.onEvent(ev)
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			// An overflow lost events: a full scan finds what they announced.
			w.log.Warn("spool dir watch error, rescanning", logKeyErr, err)
			w.scan()
		case <-w.retry.c():
			if w.rewatch() {
				w.retry.stop()
			} else {
				w.retry.again()
			}
		}
	}
}

func (w *Watcher) onEvent(ev fsnotify.Event) {
	if ev.Name != w.dir {
		// The handler's rename into place shows as Create. A marker may
		// have replaced another of its pane and kind meanwhile, and the
		// names say nothing of time, so the whole dir is taken, oldest
		// first.
		if ev.Has(fsnotify.Create) && spool.IsMarker(filepath.Base(ev.Name)) {
			w.scan()
		}
		return
	}
	// The dir itself went away (a tmp cleaner, a user): the watch is gone
	// with it, so recreate the dir and watch it again.
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		w.log.Warn("spool dir removed, recreating it", logKeyFile, w.dir)
		if !w.rewatch() {
			w.retry.start(w.opts.Clock)
		}
	}
}

// rewatch recreates the spool dir, watches it again and consumes what was
// written meanwhile. It reports whether the watch is back.
func (w *Watcher) rewatch() bool {
	if err := w.ensureDir(); err != nil {
		w.log.Error("recreate spool dir", logKeyErr, err)
		return false
	}
	if err := w.fsw.Add(w.dir); err != nil {
		w.log.Error("watch spool dir", logKeyErr, err)
		return false
	}
	w.scan()
	return true
}

// ensureDir creates the spool dir (and a missing runtime dir above it) and
// checks it is private.
func (w *Watcher) ensureDir() error {
	if err := os.MkdirAll(filepath.Dir(w.dir), 0o700); err != nil {
		return fmt.Errorf("create spool dir: %w", err)
	}
	return spool.EnsurePrivateDir(w.dir)
}

// claimed is a marker the watcher has taken out of the handlers' way.
type claimed struct {
	path string
	m    Marker
}

// maxScanRounds bounds the listings of one scan while handlers keep
// writing.
const maxScanRounds = 8

// scan consumes every marker in the dir in the order of their times. Each
// is claimed first (renamed to a name of the watcher's own), so that a
// handler replacing it meanwhile leaves a new marker, not a lost one.
// Claimed files a stopped watcher left behind are taken as they are.
//
// A listing made while handlers write may show a marker and miss an older
// one written just before it, so the dir is listed again until a listing
// finds nothing new, and only then is the whole batch routed, oldest
// first: a marker in place before the last listing began is in the batch.
func (w *Watcher) scan() {
	var batch []claimed
	seen := map[string]bool{}
	for range maxScanRounds {
		n, err := w.claimListed(&batch, seen)
		if err != nil {
			w.log.Error("read spool dir", logKeyErr, err)
			break
		}
		if n == 0 {
			break
		}
	}
	slices.SortStableFunc(batch, func(a, b claimed) int { return a.m.At.Compare(b.m.At) })
	for _, c := range batch {
		w.consume(c.m)
		w.remove(c.path)
	}
}

// claimListed lists the dir once, claims and reads the markers in it and
// adds them to batch. It returns how many names it took.
func (w *Watcher) claimListed(batch *[]claimed, seen map[string]bool) (int, error) {
	entries, err := os.ReadDir(w.dir)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		var path string
		switch {
		case spool.IsMarker(name):
			if path = spool.Claim(w.dir, name); path == "" {
				continue
			}
		case spool.IsClaimed(name):
			if path = filepath.Join(w.dir, name); seen[path] {
				continue
			}
		default:
			continue
		}
		seen[path] = true
		n++
		m, err := spool.Read(path, w.opts.MaxSize)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			w.log.Warn("drop unreadable marker", logKeyFile, name, logKeyErr, err)
			w.remove(path)
			continue
		}
		*batch = append(*batch, claimed{path, m})
	}
	return n, nil
}

// consume routes one marker, unless it is stale.
func (w *Watcher) consume(m Marker) {
	if age := w.opts.Clock.Since(m.At); age > w.opts.MaxAge {
		w.log.Info("drop stale marker", logKeyPane, m.Pane, logKeyEvent, m.Event, logKeyAge, age)
		return
	}
	w.remember(m)
	if w.opts.Observe != nil {
		w.opts.Observe(m)
	}
	pane, h, ok := Interpret(m)
	if !ok {
		return
	}
	if !w.router.RouteHook(pane, h) {
		w.log.Debug("drop marker of an uncontrolled pane", logKeyPane, pane, logKeyKind, h.Kind)
	}
}

func (w *Watcher) remember(m Marker) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.active = true
	if prev, ok := w.last[m.Pane]; !ok || !m.At.Before(prev.at) {
		w.last[m.Pane] = lastEvent{name: m.Event, at: m.At}
	}
}

func (w *Watcher) remove(path string) {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		w.log.Warn("remove marker", logKeyFile, filepath.Base(path), logKeyErr, err)
	}
}

// backoff is the retry timer of the watcher's loop, doubling its delay
// from DefaultRetryDelay up to maxRetryDelay.
type backoff struct {
	timer clockwork.Timer
	delay time.Duration
}

func (b *backoff) start(clock clockwork.Clock) {
	if b.timer == nil {
		b.delay = DefaultRetryDelay
		b.timer = clock.NewTimer(b.delay)
	}
}

func (b *backoff) again() {
	b.delay = min(2*b.delay, maxRetryDelay)
	b.timer.Reset(b.delay)
}

func (b *backoff) stop() {
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
}

// c is the timer's channel; nil (never ready) while no retry is due.
func (b *backoff) c() <-chan time.Time {
	if b.timer == nil {
		return nil
	}
	return b.timer.Chan()
}
