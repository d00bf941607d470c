package notify

import (
	"context"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
)

// Channel is a way to reach a person. Send must return soon after ctx is
// done, and must not block on anything else for long: a Notifier gives
// each channel a worker of its own, but Close waits for them.
type Channel interface {
	// Name names the channel in status lines, logs and test results,
	// without secrets: "command notify-send", "desktop",
	// "url https://ntfy.sh/…".
	Name() string
	// Send delivers one message.
	Send(ctx context.Context, m Message) error
}

// Availability is a Channel that can tell, without sending anything,
// that it cannot deliver now and why (no session bus, no such command).
type Availability interface {
	// Available returns why the channel cannot deliver, nil when it can
	// as far as it can tell.
	Available() error
}

// unavailable returns why ch cannot deliver, "" when it can or cannot
// tell.
func unavailable(ch Channel) string {
	if a, ok := ch.(Availability); ok {
		if err := a.Available(); err != nil {
			return errorText(err)
		}
	}
	return ""
}

// Bounded is a Channel that says how long one Send may take, its
// retries included. A Notifier and Test cancel a Send then; a channel
// that is not Bounded gets sendTimeout.
type Bounded interface {
	Timeout() time.Duration
}

// boundMargin is what a channel's bound adds to its own limits, so that
// the channel's error, which says more, comes first.
const boundMargin = 5 * time.Second

// timeoutOf is how long ch may take for one Send.
func timeoutOf(ch Channel) time.Duration {
	if b, ok := ch.(Bounded); ok {
		if d := b.Timeout(); d > 0 {
			return d
		}
	}
	return sendTimeout
}

// TimeoutError is a Send that its bound ended: the channel did not answer
// in time.
type TimeoutError struct {
	After time.Duration // the bound
	Err   error         // what Send returned once canceled
}

func (e *TimeoutError) Error() string { return "no answer after " + showDuration(e.After) }
func (e *TimeoutError) Unwrap() error { return e.Err }

// Is makes a TimeoutError a context.DeadlineExceeded.
func (e *TimeoutError) Is(target error) bool { return target == context.DeadlineExceeded }

// send runs ch.Send within ch's bound, timed by clock.
func send(ctx context.Context, clock clockwork.Clock, ch Channel, m Message) error {
	d := timeoutOf(ch)
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	bound := &TimeoutError{After: d}
	timer := clock.AfterFunc(d, func() { cancel(bound) })
	defer timer.Stop()
	err := ch.Send(ctx, m)
	if err != nil && context.Cause(ctx) == bound {
		bound.Err = err
		return bound
	}
	return err
}

// Result is one channel's answer to a test message.
type Result struct {
	Channel string        // the channel's Name
	Err     error         // nil: sent; its text is one line without credentials
	Took    time.Duration // how long Send took
}

// Test sends m through every channel at once, each within its bound
// (clock times them), and returns their results in the order of
// channels, once all have answered.
func Test(ctx context.Context, clock clockwork.Clock, channels []Channel, m Message) []Result {
	results := make([]Result, len(channels))
	var wg sync.WaitGroup
	for i, ch := range channels {
		wg.Go(func() {
			start := clock.Now()
			err := send(ctx, clock, ch, m)
			if err != nil {
				err = &shownError{text: errorText(err), err: err}
			}
			results[i] = Result{Channel: ch.Name(), Err: err, Took: clock.Since(start)}
		})
	}
	wg.Wait()
	return results
}

// ChannelStatus is what a Notifier knows of one channel.
type ChannelStatus struct {
	Name string
	// Unavailable says why the channel cannot deliver now, "" when it
	// can as far as it can tell (see Availability).
	Unavailable string
	Sent        int       // messages delivered
	Failed      int       // messages whose Send failed
	Dropped     int       // messages dropped because the channel was behind
	LastSent    time.Time // zero: none yet
	LastError   string    // the last failure, "" when none
	LastErrorAt time.Time
}

// Status is what a Notifier knows: its channels, the panes held, and
// what the rate limit held back.
type Status struct {
	Channels    []ChannelStatus
	Holds       int // panes held now
	RateLimited int // messages the rate limit dropped since New: re-notifications and resolved ones
	RateDelayed int // holds whose first message waited for the rate limit since New
}

// shownError is an error whose text is fit to show a person: one line,
// without credentials (errorText).
type shownError struct {
	text string
	err  error
}

func (e *shownError) Error() string { return e.text }
func (e *shownError) Unwrap() error { return e.err }
