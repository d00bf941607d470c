package daemon

import (
	"sync"

	"github.com/codeman-dev/codeman/api"
)

// hub fans events out to stream subscribers. A subscriber that falls
// behind loses events rather than slowing a controller.
type hub struct {
	mu   sync.Mutex
	subs map[chan api.Event]string // channel -> pane filter ("" = all)
}

func newHub() *hub { return &hub{subs: make(map[chan api.Event]string)} }

func (h *hub) publish(e api.Event) {
	e.V = api.Schema
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch, pane := range h.subs {
		if pane != "" && pane != e.Pane {
			continue
		}
		select {
		case ch <- e:
		default:
		}
	}
}

// subscribe streams the events of pane ("" for all) to a channel that
// holds 256 events before it drops.
func (h *hub) subscribe(pane string) (<-chan api.Event, func()) { return h.subscribeSized(pane, 256) }

// subscribeSized is subscribe with a buffer of n events.
func (h *hub) subscribeSized(pane string, n int) (<-chan api.Event, func()) {
	ch := make(chan api.Event, n)
	h.mu.Lock()
	h.subs[ch] = pane
	h.mu.Unlock()
	return ch, func() {
		h.mu.Lock()
		delete(h.subs, ch)
		h.mu.Unlock()
	}
}
