package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/agents"
	"github.com/codeman-dev/codeman/agents/aicheck"
	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/config"
	"github.com/codeman-dev/codeman/hooks"
	"github.com/codeman-dev/codeman/respawn"
)

// Defaults of the daemon.
const (
	// DefaultLiveness is how often panes are checked for having closed (2s).
	DefaultLiveness = 2 * time.Second
	// shutdownGrace bounds how long a stopping daemon waits for the API.
	shutdownGrace = 5 * time.Second
)

// Options configure a Daemon.
type Options struct {
	Paths      api.Paths
	ConfigPath string // config.toml; a missing file means the defaults
	Version    string
	Logger     *slog.Logger        // nil: discard
	Env        func(string) string // nil: os.Getenv
	Clock      clockwork.Clock     // nil: real; controllers time with it
	Liveness   time.Duration       // default DefaultLiveness
	Checker    respawn.Checker     // nil: claude -p through aicheck
	// Ready, when set, is called once: with nil when the daemon listens,
	// or with the error that stopped it before. The CLI tells the process
	// that started it through a pipe, so a failed start is reported at once.
	Ready func(error)
}

// Daemon hosts the controllers of one user.
type Daemon struct {
	opts Options
	log  *slog.Logger
	hub  *hub

	checker    respawn.Checker
	checkerMsg string // why AI checks are unavailable, "" when available
	checkers   agentCheckers

	watcher *hooks.Watcher
	// adopted closes once the panes enabled before this daemon started
	// are attached: until then a pane list would be wrong, not just short.
	adopted chan struct{}

	me          owner // what this daemon writes into the panes it owns
	backends    []backend
	locks       *addrLocks
	controllers atomic.Int64 // controller loops running
	recs        recorders    // recordings of panes, for their hook markers
	notes       *notifications
	answers     *answers
	history     atomic.Pointer[historyKeeper] // the pane histories' writer, once Run opened it

	mu     sync.Mutex
	panes  map[string]*pane
	failed map[string]*failedPane

	ctx context.Context
	wg  sync.WaitGroup
}

// New returns a daemon; Run starts it.
func New(opts Options) *Daemon {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Env == nil {
		opts.Env = os.Getenv
	}
	if opts.Clock == nil {
		opts.Clock = clockwork.NewRealClock()
	}
	if opts.Liveness == 0 {
		opts.Liveness = DefaultLiveness
	}
	d := &Daemon{
		opts: opts, log: opts.Logger, hub: newHub(), me: newOwner(), locks: newAddrLocks(),
		panes: make(map[string]*pane), failed: make(map[string]*failedPane), adopted: make(chan struct{}),
	}
	d.notes = newNotifications(d)
	d.answers = &answers{d: d}
	d.backends = []backend{newTmuxBackend(d, d.log, opts.Env, opts.Paths.TmuxServers, d.me), newScreenBackend(d, d.log, opts.Paths.ScreenState, opts.Paths.Claims)}
	return d
}

// Run serves until ctx ends: it takes the locks, listens on the socket,
// adopts the panes enabled before, and stops every controller on the way
// out. A second daemon of the user gets api.ErrRunning.
func (d *Daemon) Run(ctx context.Context) error {
	ln, unlock, err := d.start()
	if d.opts.Ready != nil {
		d.opts.Ready(err)
	}
	if err != nil {
		return err
	}
	defer unlock()
	running.Store(d.me.nonce, true)
	defer running.Delete(d.me.nonce)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	d.ctx = ctx
	d.setupChecker()
	d.notes.load()
	defer d.notes.close() // after the controllers: their last messages may still go out
	defer d.answers.close()
	stopHistory := d.startHistory() // before the API and adoption, whose events it keeps

	srv := &http.Server{Handler: d.routes(), ReadHeaderTimeout: 5 * time.Second, BaseContext: func(net.Listener) context.Context { return ctx }}
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			d.log.Error("api stopped", "err", err)
			cancel()
		}
	}()
	d.log.Info("daemon started", "pid", os.Getpid(), "socket", d.opts.Paths.Socket, "version", d.opts.Version, "owner", d.me.String())
	d.adopt(ctx)
	close(d.adopted)
	d.watchConfig(ctx)
	d.pruneFailed(ctx)
	// After adoption, so markers left while no daemon ran find their panes.
	watcher := hooks.NewWatcher(d.opts.Paths.Spool, d, hooks.WatcherOptions{Logger: d.log, Observe: d.observeMarker})
	if err := watcher.Start(ctx); err != nil {
		d.log.Warn("hook watcher not started; hooks are ignored", "err", err)
	} else {
		d.mu.Lock()
		d.watcher = watcher
		d.mu.Unlock()
	}

	<-ctx.Done()
	d.log.Info("daemon stopping")
	shutdownCtx, stop := context.WithTimeout(context.Background(), shutdownGrace)
	defer stop()
	srv.Shutdown(shutdownCtx) // streams end with ctx; a stuck client is cut off at the grace
	d.stopAll()
	if w := d.hookWatcher(); w != nil {
		w.Close()
	}
	d.wg.Wait()
	stopHistory() // after the controllers, so their last decisions and detaches are kept
	os.Remove(d.opts.Paths.Socket)
	d.log.Info("daemon stopped")
	return nil
}

// start takes the user's daemon lock and the runtime dir's, and listens on
// the socket. unlock drops the locks.
func (d *Daemon) start() (net.Listener, func(), error) {
	if err := os.MkdirAll(d.opts.Paths.State, 0o700); err != nil {
		return nil, nil, fmt.Errorf("create state dir: %w", err)
	}
	userLock, err := lockDaemon(d.opts.Paths.UserLock, d.opts.Paths.Socket)
	if err != nil {
		return nil, nil, err
	}
	lockFile, err := lockDaemon(d.opts.Paths.Lock, d.opts.Paths.Socket)
	if err != nil {
		userLock.Close()
		return nil, nil, err
	}
	ln, err := listen(d.opts.Paths.Socket)
	if err != nil {
		lockFile.Close()
		userLock.Close()
		return nil, nil, err
	}
	return ln, func() { lockFile.Close(); userLock.Close() }, nil
}

// listen opens the API socket, removing a stale one only if it really is
// a socket: the lock proves no daemon owns it.
func listen(path string) (net.Listener, error) {
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode()&os.ModeSocket == 0 {
			return nil, fmt.Errorf("listen on unix socket: %s exists and is not a socket", path)
		}
		os.Remove(path)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("listen on unix socket: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("chmod socket: %w", err)
	}
	return ln, nil
}

func (d *Daemon) setupChecker() {
	if d.opts.Checker != nil {
		d.checker = d.opts.Checker
		return
	}
	file, err := d.loadConfig()
	if err != nil {
		d.checkerMsg = "config: " + err.Error()
		return
	}
	def, err := agents.Lookup(agents.Default)
	if err != nil {
		panic(err) // the default is in the registry
	}
	r, err := aicheck.New(d.checkerOptions(def, file))
	if err != nil {
		d.checkerMsg = err.Error()
		d.log.Warn("AI checks unavailable; idle detection goes on without them", "err", err)
		return
	}
	d.checker = r
}

func (d *Daemon) loadConfig() (*config.File, error) {
	return config.Load(d.opts.ConfigPath)
}

// config builds a pane's configuration from the file, a profile and sets.
func (d *Daemon) config(profile string, sets []string) (*config.File, respawn.Config, []respawn.PatternSpec, error) {
	file, err := d.loadConfig()
	if err != nil {
		return nil, respawn.Config{}, nil, err
	}
	cfg, err := file.Effective(profile, sets)
	if err != nil {
		return nil, respawn.Config{}, nil, err
	}
	return file, cfg, file.Patterns, nil
}

// RouteHook hands a hook signal to the pane's controller (hooks.Router).
// The hook names its pane as the environment spelled it; the controller
// is found by the canonical address.
func (d *Daemon) RouteHook(addr string, h respawn.Hook) bool {
	p := d.lookup(addr)
	if p == nil {
		if _, c, err := d.backendFor(addr); err == nil {
			p = d.lookup(c)
		}
	}
	if p == nil {
		return false
	}
	p.ctrl.Hook(h)
	return true
}

func (d *Daemon) stopAll() {
	d.mu.Lock()
	panes := make([]*pane, 0, len(d.panes))
	for _, p := range d.panes {
		panes = append(panes, p)
	}
	d.mu.Unlock()
	for _, p := range panes {
		d.end(p, "daemon stopping", false)
	}
	for _, b := range d.backends {
		b.close()
	}
}

func (d *Daemon) hookWatcher() *hooks.Watcher {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.watcher
}

// every runs fn every Liveness in a goroutine counted by wg, until ctx
// ends or fn returns false.
func (d *Daemon) every(ctx context.Context, wg *sync.WaitGroup, fn func() bool) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := d.opts.Clock.NewTicker(d.opts.Liveness)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.Chan():
				if !fn() {
					return
				}
			}
		}
	}()
}
