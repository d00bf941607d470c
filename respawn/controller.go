package respawn

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
)

// Defaults of a Controller.
const (
	// DefaultIOTimeout bounds one Submit, Press or Snapshot (15s).
	DefaultIOTimeout = 15 * time.Second
	// maxPendingOutput bounds output not yet seen by the loop (1 MiB);
	// older bytes are dropped, the newest matter for detection.
	maxPendingOutput = 1 << 20
	// hookQueue is the number of hook signals that may wait for the loop.
	hookQueue = 64
)

// ControllerOptions configure a Controller.
type ControllerOptions struct {
	Pane   string // canonical pane address
	Config Config // behaviour
	// Agent reads the pane's agent and names its commands. It is
	// required: NewController panics without one.
	Agent    Agent
	Terminal Terminal
	Checker  Checker // nil: AI checks are unavailable
	// CheckerDown says why Checker is nil, for status and explain.
	CheckerDown string
	Clock       clockwork.Clock // nil: the real clock
	Logger      *slog.Logger    // nil: discard
	// OnStatus receives the one-line status on the loop goroutine; it must
	// not block (tmux.StateWriter keeps a queue of one).
	OnStatus func(status string)
	// OnNeed receives the pane's need for a person when it changes (Kind
	// "" once nobody is needed), on the loop goroutine; it must not block.
	OnNeed func(Need)
	// IOTimeout bounds each terminal call. Default DefaultIOTimeout.
	IOTimeout time.Duration
}

// Controller runs a Core for one pane: one loop goroutine and one timer armed
// for the core's next deadline; terminal calls and AI checks run in workers
// whose results come back as events (after etcd-io/raft node.go).
//
// Whoever holds coreMu owns the core: the loop while it handles an event,
// else Output, which feeds a chunk to the core on the caller's goroutine and
// wakes the loop only when the core has actions or wants a tick sooner than
// the timer is armed for. A pane that keeps printing thus costs no wake-up
// of its loop per chunk, nor a timer reset: its silence deadlines only move
// later, and the timer firing at an earlier one is a tick with nothing due.
type Controller struct {
	opts  ControllerOptions
	core  *Core
	clock clockwork.Clock
	log   *slog.Logger

	coreMu  sync.Mutex // held from NewController until the loop first waits
	queued  []Action   // actions the core emitted under Output, for the loop (coreMu)
	armedAt time.Time  // the deadline the timer is armed for (coreMu)
	armed   bool       // the timer is armed for armedAt and has not fired (coreMu)

	mu        sync.Mutex
	pending   []byte    // output not yet fed to the core
	pendingAt time.Time // arrival of the newest pending output
	dropped   int       // bytes dropped because the loop fell behind
	notify    chan struct{}
	hooks     chan Hook
	requests  chan func(now time.Time)
	results   chan func(now time.Time)

	subMu sync.Mutex
	subs  map[chan Decision]struct{}

	answerMu      sync.Mutex // one Answer at a time
	lastAnswerKey time.Time  // when the answer under way pressed its last key (answerMu)

	checks map[uint64]context.CancelFunc // loop-owned
	sends  map[uint64]*send              // keys in flight (loop-owned)
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	done   chan struct{}
}

// NewController returns a controller that has not started. It panics
// when opts.Agent is nil.
func NewController(opts ControllerOptions) *Controller {
	if opts.Agent == nil {
		panic("respawn: NewController without ControllerOptions.Agent: the controller reads the pane's screen and output through it")
	}
	if opts.Clock == nil {
		opts.Clock = clockwork.NewRealClock()
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.IOTimeout == 0 {
		opts.IOTimeout = DefaultIOTimeout
	}
	c := &Controller{
		opts:     opts,
		core:     NewCore(opts.Pane, opts.Config, opts.Agent),
		clock:    opts.Clock,
		log:      opts.Logger.With("pane", opts.Pane),
		notify:   make(chan struct{}, 1),
		hooks:    make(chan Hook, hookQueue),
		requests: make(chan func(time.Time)),
		results:  make(chan func(time.Time), 16),
		subs:     make(map[chan Decision]struct{}),
		checks:   make(map[uint64]context.CancelFunc),
		sends:    make(map[uint64]*send),
		done:     make(chan struct{}),
	}
	if opts.Checker == nil {
		why := opts.CheckerDown
		if why == "" {
			why = "no checker configured"
		}
		c.core.idleGate.disable(why)
		c.core.planGate.disable(why)
	}
	// Output before the loop runs waits in pending: the core starts first.
	c.coreMu.Lock()
	return c
}

// Start starts the loop. The controller runs until Stop, ctx's end, or its
// configured duration.
func (c *Controller) Start(ctx context.Context) {
	c.ctx, c.cancel = context.WithCancel(ctx)
	c.wg.Add(1)
	go c.run()
}

// Stop ends the loop and waits for it and its workers.
func (c *Controller) Stop() {
	if c.cancel != nil {
		c.cancel()
	}
	c.wg.Wait()
}

// Done is closed when the loop has ended.
func (c *Controller) Done() <-chan struct{} { return c.done }

// Output hands the controller a chunk of the pane's output. It never blocks:
// while the loop waits the chunk is fed to the core at once, otherwise chunks
// coalesce until the loop takes them. data is not kept.
func (c *Controller) Output(data []byte) {
	if c.coreMu.TryLock() {
		wake := c.feedNow(data)
		c.coreMu.Unlock()
		if wake {
			c.wake()
		}
		return
	}
	c.mu.Lock()
	c.pending = append(c.pending, data...)
	c.pendingAt = c.clock.Now()
	if over := len(c.pending) - maxPendingOutput; over > 0 {
		c.pending = append(c.pending[:0], c.pending[over:]...)
		c.dropped += over
	}
	c.mu.Unlock()
	c.wake()
}

// feedNow feeds data to the core while the loop waits (coreMu held), after
// any output queued before it. It reports whether the loop must run: the
// core emitted actions, or has a deadline before the one the timer is armed
// for. A later deadline needs nothing: the timer fires early and the loop
// re-arms it then.
func (c *Controller) feedNow(data []byte) bool {
	c.feed()
	c.core.Output(c.clock.Now(), data)
	c.queued = append(c.queued, c.core.Actions()...)
	at, ok := c.core.Deadline()
	return len(c.queued) > 0 || ok && (!c.armed || at.Before(c.armedAt))
}

// wake tells the loop that output or actions wait.
func (c *Controller) wake() {
	select {
	case c.notify <- struct{}{}:
	default:
	}
}

// Hook hands the controller a hook signal. Hooks queue; when the queue is
// full the signal is dropped and logged.
func (c *Controller) Hook(h Hook) {
	select {
	case c.hooks <- h:
	default:
		c.log.Warn("hook signal dropped: queue full", "hook", h.Kind.String())
	}
}

// Status returns the controller's status with its newest decisions.
func (c *Controller) Status(decisions int) (Status, error) {
	var st Status
	err := c.do(func(now time.Time) { st = c.core.Status(now, decisions) })
	return st, err
}

// Pause stops all sending until Resume. A send under way is cancelled
// (Submit takes back text it typed before its Enter), and Pause returns
// only once it has stopped, so that nothing is pressed after it.
func (c *Controller) Pause() error {
	var stopping []chan struct{}
	err := c.do(func(now time.Time) {
		c.core.Pause(now)
		for _, s := range c.sends {
			s.cancel()
			stopping = append(stopping, s.done)
		}
	})
	for _, done := range stopping {
		<-done // bounded by IOTimeout
	}
	return err
}

// Resume re-arms the controller after Pause.
func (c *Controller) Resume() error { return c.do(func(now time.Time) { c.core.Resume(now) }) }

// SetConfig replaces the configuration.
func (c *Controller) SetConfig(cfg Config) error {
	return c.do(func(now time.Time) { c.core.SetConfig(now, cfg) })
}

// Subscribe returns a channel of the controller's decisions from now on.
// A subscriber that falls behind loses decisions rather than slowing the
// loop. cancel ends the subscription.
func (c *Controller) Subscribe() (<-chan Decision, func()) {
	ch := make(chan Decision, 64)
	c.subMu.Lock()
	c.subs[ch] = struct{}{}
	c.subMu.Unlock()
	return ch, func() {
		c.subMu.Lock()
		delete(c.subs, ch)
		c.subMu.Unlock()
	}
}

// ErrStopped is returned by calls on a controller whose loop has ended.
var ErrStopped = errors.New("controller stopped")

// do runs f on the loop and waits for it.
func (c *Controller) do(f func(now time.Time)) error {
	finished := make(chan struct{})
	select {
	case c.requests <- func(now time.Time) { f(now); close(finished) }:
	case <-c.done:
		return ErrStopped
	}
	select {
	case <-finished:
		return nil
	case <-c.done:
		return ErrStopped
	}
}

func (c *Controller) run() {
	defer c.wg.Done()
	defer close(c.done)
	defer c.cancelChecks()
	timer := c.clock.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()

	// coreMu is held here, and again whenever the loop handles an event.
	// It stays held once the loop ends: the core has stopped.
	c.core.Start(c.clock.Now())
	for {
		if c.perform() {
			return
		}
		c.rearm(timer)
		c.coreMu.Unlock()
		select {
		case <-c.ctx.Done():
			c.coreMu.Lock()
			c.core.Stop(c.clock.Now(), "controller closed")
			c.perform()
			return
		case <-c.notify:
			c.coreMu.Lock()
			c.feed()
		case h := <-c.hooks:
			c.coreMu.Lock()
			c.feed()
			c.core.Hook(c.clock.Now(), h)
		case f := <-c.results:
			c.coreMu.Lock()
			c.feed()
			f(c.clock.Now())
		case f := <-c.requests:
			c.coreMu.Lock()
			c.feed()
			f(c.clock.Now())
		case <-timer.Chan():
			c.coreMu.Lock()
			c.feed()
			c.armed = false
			c.core.Tick(c.clock.Now())
		}
	}
}

// feed hands the pending output to the core, stamped with its arrival.
// Events other than output feed it first, so that no decision is taken
// without output that already arrived.
func (c *Controller) feed() {
	c.mu.Lock()
	data, at, dropped := c.pending, c.pendingAt, c.dropped
	c.pending, c.dropped = nil, 0
	c.mu.Unlock()
	if dropped > 0 {
		c.log.Warn("output dropped: the loop fell behind", "bytes", dropped)
	}
	if len(data) == 0 {
		return
	}
	c.core.Output(at, data)
}

// rearm points the timer at the core's next deadline, unless it points
// there already.
func (c *Controller) rearm(timer clockwork.Timer) {
	at, ok := c.core.Deadline()
	if ok && c.armed && at.Equal(c.armedAt) {
		return
	}
	timer.Stop()
	c.armed, c.armedAt = ok, at
	if ok {
		timer.Reset(max(at.Sub(c.clock.Now()), 0))
	}
}

// perform runs the core's queued actions. It reports whether the
// controller is done.
func (c *Controller) perform() bool {
	done := false
	actions := c.queued
	c.queued = nil
	for _, a := range append(actions, c.core.Actions()...) {
		switch a.Kind {
		case ActSubmit:
			c.sendWorker(a.ID, func(ctx context.Context) error { return c.opts.Terminal.Submit(ctx, a.Text) })
		case ActPress:
			c.sendWorker(a.ID, func(ctx context.Context) error { return c.opts.Terminal.Press(ctx, a.Key) })
		case ActSnapshot:
			c.worker(func(ctx context.Context) func(time.Time) {
				s, err := c.opts.Terminal.Snapshot(ctx)
				return func(now time.Time) {
					if err != nil {
						c.core.SnapshotFailed(now, err)
						return
					}
					if s.At.IsZero() || s.At.After(now) {
						s.At = now
					}
					c.core.Screen(now, s)
				}
			})
		case ActCheck:
			c.startCheck(a)
		case ActCancelCheck:
			if cancel, ok := c.checks[a.ID]; ok {
				cancel()
				delete(c.checks, a.ID)
			}
		case ActStatus:
			if c.opts.OnStatus != nil {
				c.opts.OnStatus(a.Status)
			}
		case ActNeed:
			if c.opts.OnNeed != nil {
				c.opts.OnNeed(a.Need)
			}
		case ActDecision:
			c.publish(a.Decision)
		case ActDone:
			done = true
		}
	}
	return done
}

// worker runs io in a goroutine with the I/O timeout and hands its result
// back to the loop.
func (c *Controller) worker(io func(ctx context.Context) func(time.Time)) {
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		ctx, cancel := context.WithTimeout(c.ctx, c.opts.IOTimeout)
		defer cancel()
		result := io(ctx)
		select {
		case c.results <- result:
		case <-c.ctx.Done():
		}
	}()
}

// send is keys in flight: Pause cancels it and waits for done.
type send struct {
	cancel context.CancelFunc
	done   chan struct{} // closed once the terminal call returned
}

// sendWorker runs a terminal call that types or presses, cancellable by
// Pause, and hands its result back to the loop.
func (c *Controller) sendWorker(id uint64, keys func(ctx context.Context) error) {
	ctx, cancel := context.WithTimeout(c.ctx, c.opts.IOTimeout)
	s := &send{cancel: cancel, done: make(chan struct{})}
	c.sends[id] = s
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer cancel()
		err := keys(ctx)
		close(s.done)
		select {
		case c.results <- func(now time.Time) {
			delete(c.sends, id)
			c.core.SendDone(now, id, err)
		}:
		case <-c.ctx.Done():
		}
	}()
}

func (c *Controller) startCheck(a Action) {
	if c.opts.Checker == nil {
		c.worker(func(context.Context) func(time.Time) {
			return func(now time.Time) {
				c.core.CheckDone(now, a.ID, CheckResult{}, ErrCheckerUnavailable)
			}
		})
		return
	}
	ctx, cancel := context.WithCancel(c.ctx)
	c.checks[a.ID] = cancel
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer cancel()
		res, err := c.opts.Checker.Check(ctx, a.Check)
		select {
		case c.results <- func(now time.Time) {
			delete(c.checks, a.ID)
			c.core.CheckDone(now, a.ID, res, err)
		}:
		case <-c.ctx.Done():
		}
	}()
}

func (c *Controller) cancelChecks() {
	for id, cancel := range c.checks {
		cancel()
		delete(c.checks, id)
	}
}

func (c *Controller) publish(d Decision) {
	c.log.Info(d.String(), "kind", string(d.Kind))
	c.subMu.Lock()
	defer c.subMu.Unlock()
	for ch := range c.subs {
		select {
		case ch <- d:
		default:
		}
	}
}
