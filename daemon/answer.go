package daemon

import (
	"context"
	"fmt"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/respawn"
)

// Answer types a person's choice into the dialog a pane's need shows,
// through its controller's press gate (respawn.Controller.Answer), under
// the pane's lock so that no detach or adoption runs meanwhile.
func (d *Daemon) Answer(ctx context.Context, addr string, a respawn.Answer) (respawn.Answered, error) {
	_, addr, err := d.backendFor(addr)
	if err != nil {
		return respawn.Answered{}, err
	}
	unlock, err := d.locks.lock(ctx, addr)
	if err != nil {
		return respawn.Answered{}, fmt.Errorf("answer %s: %w", addr, err)
	}
	defer unlock()
	p := d.lookup(addr)
	if p == nil {
		return respawn.Answered{}, fmt.Errorf("answer %s: %w", addr, api.ErrNotControlled)
	}
	got, err := p.ctrl.Answer(ctx, a)
	if err != nil {
		return got, fmt.Errorf("answer %s: %w", addr, err)
	}
	return got, nil
}
