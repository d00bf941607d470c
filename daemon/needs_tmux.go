package daemon

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/codeman-dev/codeman/tmux"
)

// windowNeeds keeps the @codeman-needs option of the tmux windows that
// hold controlled panes: the kinds of their panes' needs, so a
// window-status-format can highlight a window whose pane needs a person.
type windowNeeds struct {
	mu    sync.Mutex
	kinds map[string]map[string]string // window key -> pane id -> need kind
	locks map[string]*sync.Mutex       // window key -> serialises its writes
}

func newWindowNeeds() *windowNeeds {
	return &windowNeeds{kinds: make(map[string]map[string]string), locks: make(map[string]*sync.Mutex)}
}

// windowKey names a pane's window on its server.
func windowKey(info tmux.PaneInfo) string {
	return info.Server.Socket + "\x00" + info.Session + "\x00" + info.Window
}

// set records the need kind of a pane ("" for none) and writes the
// window's option in the background, or at once when wait is set (the
// pane is being closed). Writes of one window are serialised and each
// writes the newest value, so the option ends up right whatever the order
// the goroutines run in.
func (w *windowNeeds) set(p *tmuxPane, kind string, wait bool) {
	key := windowKey(p.info)
	w.mu.Lock()
	panes := w.kinds[key]
	if panes == nil {
		panes = make(map[string]string)
		w.kinds[key] = panes
	}
	if panes[p.info.ID] == kind {
		w.mu.Unlock()
		return
	}
	if kind == "" {
		delete(panes, p.info.ID)
	} else {
		panes[p.info.ID] = kind
	}
	lock := w.locks[key]
	if lock == nil {
		lock = new(sync.Mutex)
		w.locks[key] = lock
	}
	w.mu.Unlock()

	write := func() {
		lock.Lock()
		defer lock.Unlock()
		value := w.value(key)
		base := p.b.host.lifetime()
		if wait {
			// The pane is closing, maybe because the daemon stops.
			base = context.Background()
		}
		ctx, cancel := context.WithTimeout(base, 5*time.Second)
		defer cancel()
		if err := tmux.SetWindowNeeds(ctx, p.client, p.info.ID, value); err != nil && ctx.Err() == nil {
			p.b.log.Warn("window needs option not written", "pane", p.addr, "err", err)
		}
	}
	if wait {
		write()
		return
	}
	p.b.wg.Add(1)
	go func() {
		defer p.b.wg.Done()
		write()
	}()
}

// value is the option's value for a window: its panes' kinds, sorted and
// comma-separated.
func (w *windowNeeds) value(key string) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var kinds []string
	for _, k := range w.kinds[key] {
		if !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	slices.Sort(kinds)
	return strings.Join(kinds, ",")
}
