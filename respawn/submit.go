package respawn

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/jonboulle/clockwork"
)

// Keys is a pane's input as a backend offers it: the primitives that
// Submit, the one policy for typing into a pane, is made of. tmux and
// screen each implement it; neither carries a send loop of its own.
type Keys interface {
	// Type puts text into the pane's input without submitting it. Text
	// with a newline arrives as one bracketed paste.
	Type(ctx context.Context, text string) error
	// Press sends one key as an input event of its own.
	Press(ctx context.Context, key Key) error
	// Look returns the pane's screen as bytes, only to tell whether it
	// changed.
	Look(ctx context.Context) ([]byte, error)
}

// SendTiming is the timing of Submit. Every field means what it says:
// a zero pause is no pause, zero retries are none.
type SendTiming struct {
	// Pause is the wait between the text and its Enter: Claude Code's
	// input reads an Enter that comes with the text as a newline.
	Pause time.Duration
	// EnterRetries is how often Enter is pressed again when the screen
	// did not change after it.
	EnterRetries int
	// VerifyTimeout is how long the screen may take to change after one
	// Enter.
	VerifyTimeout time.Duration
	// VerifyInterval is how often the screen is looked at meanwhile.
	VerifyInterval time.Duration
}

// Send defaults.
const (
	DefaultSendPause      = 100 * time.Millisecond
	DefaultEnterRetries   = 3
	DefaultVerifyTimeout  = time.Second
	DefaultVerifyInterval = 200 * time.Millisecond
)

// DefaultSendTiming returns the default timing: 100ms pause, 3 retries,
// each Enter given 1s, the screen looked at every 200ms.
func DefaultSendTiming() SendTiming {
	return SendTiming{Pause: DefaultSendPause, EnterRetries: DefaultEnterRetries, VerifyTimeout: DefaultVerifyTimeout, VerifyInterval: DefaultVerifyInterval}
}

// Submit types text, pauses, presses Enter as its own event and checks
// that the screen changed, pressing Enter again up to EnterRetries times:
// an Enter that lands while Claude Code redraws can be lost.
func Submit(ctx context.Context, k Keys, text string, t SendTiming, clock clockwork.Clock) error {
	if err := k.Type(ctx, text); err != nil {
		return err
	}
	if err := Sleep(ctx, clock, t.Pause); err != nil {
		return err
	}
	before, err := k.Look(ctx)
	if err != nil {
		return err
	}
	before = bytes.Clone(before)
	presses := 1 + t.EnterRetries
	for range presses {
		if err := k.Press(ctx, KeyEnter); err != nil {
			return err
		}
		changed, err := waitForChange(ctx, k, before, t, clock)
		if err != nil || changed {
			return err
		}
	}
	return fmt.Errorf("text typed, but the screen did not change after %d Enter presses %s apart", presses, t.VerifyTimeout)
}

// waitForChange looks at the screen until it differs from before or
// VerifyTimeout has passed.
func waitForChange(ctx context.Context, k Keys, before []byte, t SendTiming, clock clockwork.Clock) (bool, error) {
	deadline := clock.Now().Add(t.VerifyTimeout)
	for {
		if err := Sleep(ctx, clock, t.VerifyInterval); err != nil {
			return false, err
		}
		now, err := k.Look(ctx)
		if err != nil {
			return false, err
		}
		if !bytes.Equal(now, before) {
			return true, nil
		}
		if !clock.Now().Before(deadline) {
			return false, nil
		}
	}
}

// Sleep waits d on clock, or until ctx is done.
func Sleep(ctx context.Context, clock clockwork.Clock, d time.Duration) error {
	timer := clock.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.Chan():
		return nil
	}
}
