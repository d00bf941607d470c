package fakeserver

import (
	"context"
	"time"
)

// Wait blocks for d on the server's clock, calling ping every interval
// meanwhile when ping is not nil and interval is positive. It returns early
// with an error when ctx ends (the client left or the server closes) or a
// ping fails.
func (b Backend[Req, Rep]) Wait(ctx context.Context, d, interval time.Duration, ping func() error) error {
	if d <= 0 {
		return ctx.Err()
	}
	clock := b.s.Clock
	timer := clock.NewTimer(d)
	defer timer.Stop()
	var tick <-chan time.Time
	if ping != nil && interval > 0 {
		ticker := clock.NewTicker(interval)
		defer ticker.Stop()
		tick = ticker.Chan()
	}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.Chan():
			return nil
		case <-tick:
			if err := ping(); err != nil {
				return err
			}
		}
	}
}
