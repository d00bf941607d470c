package daemon

import (
	"context"
	"time"

	"github.com/codeman-dev/codeman/respawn"
)

// Event kinds of a pane's need for a person. A needs-you event's Reason is
// "kind: reason"; a resolved one's is the need that ended.
const (
	EventNeedsYou = "needs-you"
	EventResolved = "resolved"
)

// needHandler returns what a pane's controller calls, on its loop
// goroutine, when the pane's need for a person changes. It must not
// block: the event stream drops for slow readers, the backend writes in
// the background.
func (d *Daemon) needHandler(p *pane) func(respawn.Need) {
	d.notes.attached(p.addr)
	var last respawn.Need
	var prev chan struct{} // closed once the last update was passed on
	return func(n respawn.Need) {
		e := Event{At: time.Now(), Pane: p.addr, Kind: EventNeedsYou, Reason: n.String()}
		if n.Kind == "" {
			e.Kind, e.Reason = EventResolved, last.String()
		}
		last = n
		d.hub.publish(e)
		p.backend.showNeed(string(n.Kind))
		// Where the pane is takes a round trip to the multiplexer, which
		// the controller's loop must not wait for. Each update waits for
		// the one before, so a clear never overtakes its raise.
		wait, done := prev, make(chan struct{})
		prev = done
		d.wg.Add(1)
		go func() {
			defer d.wg.Done()
			defer close(done)
			var pl place
			if n.Kind != "" {
				ctx, cancel := context.WithTimeout(d.ctx, 2*time.Second)
				pl = p.backend.place(ctx)
				cancel()
			}
			if wait != nil {
				<-wait
			}
			d.notes.need(p, n, pl)
		}()
	}
}
