package notify

import (
	"context"
	"sync"
	"time"
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
			return err.Error()
		}
	}
	return ""
}

// Result is one channel's answer to a test message.
type Result struct {
	Channel string        // the channel's Name
	Err     error         // nil: sent
	Took    time.Duration // how long Send took
}

// Test sends m through every channel at once and returns their results
// in the order of channels, once all have answered.
func Test(ctx context.Context, channels []Channel, m Message) []Result {
	results := make([]Result, len(channels))
	var wg sync.WaitGroup
	for i, ch := range channels {
		wg.Go(func() {
			start := time.Now()
			err := ch.Send(ctx, m)
			results[i] = Result{Channel: ch.Name(), Err: err, Took: time.Since(start)}
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
// the messages the rate limit dropped.
type Status struct {
	Channels    []ChannelStatus
	Holds       int // panes held now
	RateLimited int // messages the rate limit dropped since New
}
