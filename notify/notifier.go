package notify

import (
	"context"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
)

// Notifier turns raised and cleared holds into messages on its channels,
// by the policy the package doc describes. Its methods are safe for
// concurrent use, and Raise, Clear and Forget never wait on a channel.
type Notifier struct {
	clock  clockwork.Clock
	log    func(msg string, args ...any)
	onSent func([]Sent)
	ctx    context.Context // canceled by Close: aborts the sends under way
	stop   context.CancelFunc

	mu      sync.Mutex // guards what follows, and the workers' queues
	core    *core
	timer   clockwork.Timer // armed for the core's next deadline, nil when none
	closed  bool
	workers []*worker

	wg sync.WaitGroup // the workers
}

// Worker limits.
const (
	// queueSize is how many messages a channel may be behind before its
	// messages are dropped: at the default rate limit, a minute's worth.
	queueSize = 16
	// sendTimeout bounds one Send of a channel that is not Bounded: it
	// keeps an extra channel from holding a worker.
	sendTimeout = 2 * time.Minute
)

// New starts a Notifier on the channels Options configures and
// o.Extra. Close stops it.
func New(o Options) (*Notifier, error) {
	o = o.withDefaults()
	if o.OnRetry == nil {
		log := o.Log
		o.OnRetry = func(r Retry) {
			log("notify: retrying", "channel", r.Channel, "err", errorText(r.Err), "wait", r.Wait, "retry", r.N, "retries", r.Of)
		}
	}
	chans, err := o.Channels()
	if err != nil {
		return nil, err
	}
	ctx, stop := context.WithCancel(context.Background())
	n := &Notifier{clock: o.Clock, log: o.Log, onSent: o.OnSent, ctx: ctx, stop: stop, core: newCore(o.Policy, o.RateLimit)}
	n.core.restore(o.Sent, o.Clock.Now())
	n.core.dirty = false // nothing changed yet
	for _, ch := range append(chans, o.Extra...) {
		w := &worker{ch: ch, queue: make(chan Message, queueSize)}
		w.status.Name = ch.Name()
		n.workers = append(n.workers, w)
		n.wg.Go(func() { n.run(w) })
	}
	return n, nil
}

// Raise records that a pane needs a person. Raising a held pane again
// with the same kind updates the hold's text; another kind starts a new
// hold.
func (n *Notifier) Raise(h Hold) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return
	}
	now := n.clock.Now()
	n.core.raise(h, now)
	n.step(now)
}

// Clear ends the pane's hold, which ended at at (zero: now).
func (n *Notifier) Clear(pane string, at time.Time) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return
	}
	now := n.clock.Now()
	n.core.clear(pane, at, now)
	n.step(now)
}

// Forget drops the pane's hold without a message: the pane is gone or no
// longer controlled.
func (n *Notifier) Forget(pane string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return
	}
	n.core.forget(pane)
	n.step(n.clock.Now())
}

// fire runs when the timer expires.
func (n *Notifier) fire() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return
	}
	n.step(n.clock.Now()) // a timer replaced as it fired finds nothing due
}

// step lets through what is due at now, hands it to the workers and arms
// the timer for the next deadline. n.mu is held.
func (n *Notifier) step(now time.Time) {
	n.core.tick(now)
	b := n.core.take()
	if b.changed && n.onSent != nil {
		n.onSent(b.sent)
	}
	if b.newBurst {
		n.log("notify: rate limit reached: first notifications wait for it, others are dropped", "limit_per_minute", n.core.limit,
			"dropped_total", b.dropped, "delayed_total", n.core.delayed)
	}
	for _, m := range b.send {
		for _, w := range n.workers {
			n.enqueue(w, m)
		}
	}
	if n.timer != nil {
		n.timer.Stop()
		n.timer = nil
	}
	if next := n.core.next(); !next.IsZero() {
		n.timer = n.clock.AfterFunc(next.Sub(now), n.fire) // after tick, next is later than now
	}
}

// enqueue hands m to w without waiting. n.mu is held.
func (n *Notifier) enqueue(w *worker, m Message) {
	select {
	case w.queue <- m:
	default:
		w.mu.Lock()
		w.status.Dropped++
		w.mu.Unlock()
		n.log("notify: channel is behind, message dropped", "channel", w.status.Name, "event", m.Event, "pane", m.Hold.Pane)
	}
}

// Test sends a test message through every channel, the extra ones
// included, and returns their results once all have answered. The
// results count in Status.
func (n *Notifier) Test(ctx context.Context) []Result {
	chans := make([]Channel, len(n.workers))
	for i, w := range n.workers {
		chans[i] = w.ch
	}
	results := Test(ctx, n.clock, chans, TestMessage(n.clock.Now()))
	now := n.clock.Now()
	for i, r := range results {
		n.workers[i].record(r.Err, now)
	}
	return results
}

// Status returns what the Notifier knows of its channels and holds.
func (n *Notifier) Status() Status {
	n.mu.Lock()
	st := Status{Holds: len(n.core.holds), RateLimited: n.core.dropped, RateDelayed: n.core.delayed}
	n.mu.Unlock()
	for _, w := range n.workers {
		w.mu.Lock()
		cs := w.status
		w.mu.Unlock()
		cs.Unavailable = unavailable(w.ch)
		st.Channels = append(st.Channels, cs)
	}
	return st
}

// Close stops the timer and the workers: messages not yet sent are
// dropped and sends under way are canceled. It returns once every
// goroutine of the Notifier is gone.
func (n *Notifier) Close() error {
	n.mu.Lock()
	n.shut()
	n.mu.Unlock()
	n.stop()
	n.wg.Wait()
	return nil
}

// Handoff stops n making messages, for a Notifier that takes over, and
// returns what it sent of its holds, for that one's Options.Sent. The
// messages it made still go out: Drain waits for them, Close cancels
// them.
func (n *Notifier) Handoff() []Sent {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.shut()
	n.core.expirePrior(n.clock.Now())
	return n.core.sent()
}

// Drain waits until the messages made before Handoff (or Close) have
// gone out or failed, each within its channel's bound.
func (n *Notifier) Drain() { n.wg.Wait() }

// shut makes n take no more holds and closes its workers' queues. n.mu
// is held.
func (n *Notifier) shut() {
	if n.closed {
		return
	}
	n.closed = true
	if n.timer != nil {
		n.timer.Stop()
	}
	for _, w := range n.workers {
		close(w.queue)
	}
}

// worker sends one channel's messages in turn.
type worker struct {
	ch    Channel
	queue chan Message

	mu     sync.Mutex // guards status
	status ChannelStatus
}

// run sends w's messages until Close.
func (n *Notifier) run(w *worker) {
	for m := range w.queue {
		if n.ctx.Err() != nil {
			continue // closing: drop the rest
		}
		err := send(n.ctx, n.clock, w.ch, m)
		if n.ctx.Err() != nil {
			continue // canceled by Close, not a failure of the channel
		}
		if err != nil { // logged before it counts: whoever sees the count finds the line
			n.log("notify: send failed", "channel", w.status.Name, "event", m.Event, "pane", m.Hold.Pane, "err", errorText(err))
		}
		w.record(err, n.clock.Now())
	}
}

// record counts one send's outcome.
func (w *worker) record(err error, now time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil {
		w.status.Failed++
		w.status.LastError, w.status.LastErrorAt = errorText(err), now
		return
	}
	w.status.Sent++
	w.status.LastSent = now
}

// errorText is a channel's error as logs and doctor show it: one line,
// without credentials, whatever channel made it.
func errorText(err error) string { return scrubCredentials(oneLine(err.Error())) }
