package aicheck

import (
	"context"
	"fmt"

	"github.com/codeman-dev/codeman/respawn"
)

// claim marks req's pane and kind as pending until the returned release is
// called. A pane has at most one pending check of each kind: a second one
// would only repeat the first and take a slot from another pane.
func (r *Runner) claim(req respawn.CheckRequest) (release func(), err error) {
	key := inflightKey{pane: req.PaneID, kind: req.Kind}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.inflight[key] {
		return nil, fmt.Errorf("%s check of pane %s: %w", req.Kind, req.PaneID, ErrAlreadyChecking)
	}
	r.inflight[key] = true
	return func() {
		r.mu.Lock()
		delete(r.inflight, key)
		r.mu.Unlock()
	}, nil
}

// acquireSlot waits for one of the daemon-wide check slots, or for ctx.
func (r *Runner) acquireSlot(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("wait for a check slot: %w", err)
	}
	select {
	case r.slots <- struct{}{}:
		return nil
	default:
	}
	r.queued.Add(1)
	defer r.queued.Add(-1)
	select {
	case r.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("wait for a check slot: %w", ctx.Err())
	}
}

func (r *Runner) releaseSlot() { <-r.slots }
