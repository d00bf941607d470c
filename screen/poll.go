package screen

import (
	"context"
	"errors"
	"fmt"

	"github.com/codeman-dev/codeman/respawn"
)

// poll takes one hardcopy and, when it differs from the last, updates the
// frame, the size and the snapshot. It reports whether the screen changed.
func (p *Poller) poll(ctx context.Context) (bool, error) {
	b, err := p.cap.capture(ctx, p.height)
	if err != nil {
		return false, err
	}
	at := p.opts.Clock.Now()
	p.failures = 0
	b = trimAppendHeader(b)
	if !p.frame.update(b, p.decode) {
		return false, nil
	}
	if err := p.checkSize(ctx); err != nil {
		return false, err
	}
	snap := respawn.Screen{Lines: p.frame.rows, Width: p.width, Height: len(p.frame.rows), At: at}
	p.mu.Lock()
	first := !p.haveSnap
	p.snap, p.haveSnap = snap, true
	p.mu.Unlock()
	return !first, nil
}

// checkSize asks for the window's size again when the hardcopy does not
// fit the size known: another row count, or a row wider than the width.
// The height is exact from the hardcopy; the width is not (trailing
// blanks are cut), so only -Q info gives it.
func (p *Poller) checkSize(ctx context.Context) error {
	rows := len(p.frame.rows)
	if rows == p.height && p.frame.maxCells() <= p.width {
		return nil
	}
	w, h, err := windowSize(ctx, p.opts.Runner, p.w)
	if err != nil {
		return err
	}
	if h != rows {
		// Resized between the hardcopy and the query: the next poll will
		// see the new height and ask again.
		p.log.Debug("window size changed while capturing", logKeyRows, rows, logKeyHeight, h)
	}
	p.width, p.height = w, h
	return nil
}

// deliver hands the changed rows to every subscriber.
func (p *Poller) deliver() {
	p.mu.Lock()
	subs := p.subs
	at := p.snap.At
	p.mu.Unlock()
	if len(subs) == 0 {
		return
	}
	p.out = p.frame.appendOutput(p.out[:0], p.width)
	for _, s := range subs {
		s.fn(p.out, at)
	}
}

// maxQuietFailures is how many failed captures in a row are logged at
// debug level before one is logged as a warning.
const maxQuietFailures = 3

// onFailure finds out why a capture failed. It returns the reason to stop
// when the window or its session is gone, and nil for a failure worth
// retrying at the next tick.
func (p *Poller) onFailure(ctx context.Context, err error) error {
	if gone := goneReason(p.w, err); gone != nil {
		return gone
	}
	// A window that closed takes -X commands without a word: ask whether
	// it is still there.
	if _, qerr := windowNumber(ctx, p.opts.Runner, p.w); qerr != nil {
		if gone := goneReason(p.w, qerr); gone != nil {
			return gone
		}
	}
	p.failures++
	level := p.log.Debug
	if p.failures == maxQuietFailures {
		level = p.log.Warn // once per streak, not on every tick
	}
	level("capture failed", logKeyErr, err, logKeyFailures, p.failures)
	return nil
}

// goneReason returns why polling must stop when err says that the window
// or its session no longer exists, and nil otherwise.
func goneReason(w Window, err error) error {
	switch {
	case errors.Is(err, ErrNoWindow):
		return fmt.Errorf("window %s closed: %w", w.Address(), err)
	case errors.Is(err, ErrNoSession):
		return fmt.Errorf("session %s ended: %w", w.Session, err)
	}
	return nil
}
