package screen

import (
	"context"
	"fmt"

	"github.com/codeman-dev/codeman/respawn"
)

// Snapshot takes a fresh hardcopy of the window. The size comes from
// -Q info the first time and whenever the hardcopy does not fit the size
// last seen; -Q replies show on an attached person's message line, so
// they are not asked for on every snapshot.
func (t *WindowTerminal) Snapshot(ctx context.Context) (respawn.Screen, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s, err := t.snapshot(ctx)
	if err != nil {
		return respawn.Screen{}, fmt.Errorf("snapshot %s: %w", t.w.Address(), err)
	}
	return s, nil
}

func (t *WindowTerminal) snapshot(ctx context.Context) (respawn.Screen, error) {
	if t.decode == nil {
		v, err := InstalledVersion(ctx, t.opts.Runner)
		if err != nil {
			return respawn.Screen{}, err
		}
		t.decode = decoderFor(v)
	}
	if err := t.learnSize(ctx); err != nil {
		return respawn.Screen{}, err
	}
	op, err := t.begin()
	if err != nil {
		return respawn.Screen{}, err
	}
	defer op.close() // the hardcopy is read; a leftover directory does not spoil it
	b, err := op.capture(ctx, t.height)
	if err != nil {
		return respawn.Screen{}, err
	}
	at := t.opts.Clock.Now()
	var f frame
	f.update(trimAppendHeader(b), t.decode)
	if len(f.rows) != t.height || f.maxCells() > t.width {
		if t.width, t.height, err = windowSize(ctx, t.opts.Runner, t.w); err != nil {
			return respawn.Screen{}, err
		}
	}
	s := respawn.Screen{Lines: f.rows, Width: t.width, Height: len(f.rows), At: at}
	t.opts.Timing.Prompt.Observe(s) // what the controller sees tells Submit whether vim is on
	return s, nil
}

// learnSize asks for the window's size the first time it is needed: a
// hardcopy is known to be complete when it has as many rows as the window.
func (t *WindowTerminal) learnSize(ctx context.Context) error {
	if t.height > 0 {
		return nil
	}
	var err error
	t.width, t.height, err = windowSize(ctx, t.opts.Runner, t.w)
	return err
}
