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
	clock clockwork.Clock
	log   func(msg string, args ...any)
	ctx   context.Context // canceled by Close: aborts the sends under way
	stop  context.CancelFunc

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
	// sendTimeout bounds one Send; each channel has a shorter bound of
	// its own, this one keeps an extra channel from holding a worker.
	sendTimeout = 2 * time.Minute
)

// New starts a Notifier on the channels Options configures and
// o.Extra. Close stops it.
func New(o Options) (*Notifier, error) {
	o = o.withDefaults()
	chans, err := o.Channels()
	if err != nil {
		return nil, err
	}
	ctx, stop := context.WithCancel(context.Background())
	n := &Notifier{clock: o.Clock, log: o.Log, ctx: ctx, stop: stop, core: newCore(o.Policy, o.RateLimit)}
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
	if b.newBurst {
		n.log("notify: rate limit reached, dropping notifications", "limit_per_minute", n.core.limit, "dropped_total", b.dropped)
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
	results := Test(ctx, chans, TestMessage(n.clock.Now()))
	now := n.clock.Now()
	for i, r := range results {
		n.workers[i].record(r.Err, now)
	}
	return results
}

// Status returns what the Notifier knows of its channels and holds.
func (n *Notifier) Status() Status {
	n.mu.Lock()
	st := Status{Holds: len(n.core.holds), RateLimited: n.core.dropped}
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
	if !n.closed {
		n.closed = true
		if n.timer != nil {
			n.timer.Stop()
		}
		for _, w := range n.workers {
			close(w.queue)
		}
	}
	n.mu.Unlock()
	n.stop()
	n.wg.Wait()
	return nil
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
		ctx, cancel := context.WithTimeout(n.ctx, sendTimeout)
		err := w.ch.Send(ctx, m)
		cancel()
		if n.ctx.Err() != nil {
			continue // canceled by Close, not a failure of the channel
		}
		w.record(err, n.clock.Now())
		if err != nil {
			n.log("notify: send failed", "channel", w.status.Name, "event", m.Event, "pane", m.Hold.Pane, "err", err)
		}
	}
}

// record counts one send's outcome.
func (w *worker) record(err error, now time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil {
		w.status.Failed++
		w.status.LastError, w.status.LastErrorAt = err.Error(), now
		return
	}
	w.status.Sent++
	w.status.LastSent = now
}
