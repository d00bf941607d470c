package daemon

import (
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
	var last respawn.Need
	return func(n respawn.Need) {
		e := Event{At: time.Now(), Pane: p.addr, Kind: EventNeedsYou, Reason: n.String()}
		if n.Kind == "" {
			e.Kind, e.Reason = EventResolved, last.String()
		}
		last = n
		d.hub.publish(e)
		p.backend.showNeed(string(n.Kind))
	}
}
