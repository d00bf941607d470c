package daemon

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/config"
	"github.com/codeman-dev/codeman/hooks"
	"github.com/codeman-dev/codeman/respawn"
)

// recordBuffer is how many events a recording holds while the client
// writes; past it output is dropped, and the recording says so.
const recordBuffer = 4096

// clearScreen starts a redraw: home, clear.
const clearScreen = "\x1b[H\x1b[2J"

// recorders fans hook markers out to the recordings of their panes.
type recorders struct {
	mu   sync.Mutex
	subs map[string]map[chan<- api.RecordEvent]struct{} // canonical address -> recordings
}

func (r *recorders) add(addr string, ch chan<- api.RecordEvent) func() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.subs == nil {
		r.subs = make(map[string]map[chan<- api.RecordEvent]struct{})
	}
	if r.subs[addr] == nil {
		r.subs[addr] = make(map[chan<- api.RecordEvent]struct{})
	}
	r.subs[addr][ch] = struct{}{}
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		delete(r.subs[addr], ch)
		if len(r.subs[addr]) == 0 {
			delete(r.subs, addr)
		}
	}
}

func (r *recorders) any() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.subs) > 0
}

func (r *recorders) send(addr string, ev api.RecordEvent) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for ch := range r.subs[addr] {
		select {
		case ch <- ev:
		default:
		}
	}
}

// observeMarker hands a hook marker to the recordings of its pane
// (hooks.WatcherOptions.Observe).
func (d *Daemon) observeMarker(m hooks.Marker) {
	if !d.recs.any() {
		return
	}
	addr := m.Pane
	if _, c, err := d.backendFor(addr); err == nil {
		addr = c
	}
	d.recs.send(addr, api.RecordEvent{At: m.At, Kind: api.RecordMarker, Data: "hook:" + string(m.Payload())})
}

// Record streams what the daemon sees of a pane to emit until ctx ends:
// its size, its screen as it is now, then its output and its hook events.
// It types nothing. A pane no controller watches is watched for the
// recording only. GNU screen gives no byte stream, so a screen window's
// output is recorded as a redraw of each new hardcopy.
func (d *Daemon) Record(ctx context.Context, addr string, emit func(api.RecordEvent) error) error {
	b, addr, err := d.backendFor(addr)
	if err != nil {
		return err
	}
	src, err := d.recordSource(ctx, b, addr)
	if err != nil {
		return err
	}
	defer src.release()
	now, err := src.pane.snapshot(ctx)
	if err != nil {
		return fmt.Errorf("record %s: %w", addr, err)
	}
	events := make(chan api.RecordEvent, recordBuffer)
	defer d.recs.add(addr, events)()
	var dropped atomic.Int64 // bytes of output the buffer had no room for
	unsub := src.subscribe(func(data []byte, at time.Time) {
		ev := api.RecordEvent{At: at, Kind: api.RecordOutput, Data: string(data)}
		if !src.streams {
			ev.Data = "" // filled from the newest hardcopy below
		}
		select {
		case events <- ev:
		default:
			dropped.Add(int64(len(data)))
		}
	})
	defer unsub()
	start := []api.RecordEvent{
		{At: time.Now(), Kind: api.RecordSize, Data: fmt.Sprintf("%dx%d", now.Width, now.Height)},
		{At: time.Now(), Kind: api.RecordOutput, Data: redraw(now)},
	}
	for _, ev := range start {
		if err := emit(ev); err != nil {
			return err
		}
	}
	for {
		select {
		case <-ctx.Done():
			if n := dropped.Load(); n > 0 {
				d.log.Warn("recording fell behind; output dropped", "pane", addr, "bytes", n)
			}
			return nil
		case <-src.gone:
			return fmt.Errorf("record %s: the pane is no longer watched", addr)
		case ev := <-events:
			if ev.Kind == api.RecordOutput && !src.streams {
				s, err := src.pane.snapshot(ctx)
				if err != nil {
					continue
				}
				ev.Data = redraw(s)
			}
			if err := emit(ev); err != nil {
				return err
			}
		}
	}
}

// recordSource is a pane's output for a recording.
type recordSource struct {
	pane      paneBackend
	subscribe func(fn func([]byte, time.Time)) func()
	streams   bool            // output is the terminal's byte stream, not redraws
	gone      <-chan struct{} // closed when a controlled pane is released
	release   func()
}

// recordSource uses the controller's watch of a controlled pane, and opens
// one of its own for another pane, closed when the recording ends.
func (d *Daemon) recordSource(ctx context.Context, b backend, addr string) (*recordSource, error) {
	if p := d.lookup(addr); p != nil {
		// The controller's end is the recording's: the pane's watch goes
		// with it.
		return &recordSource{pane: p.backend, subscribe: p.subscribe, streams: p.streams, gone: p.ctrl.Done(), release: func() {}}, nil
	}
	file, err := d.loadConfig()
	if err != nil {
		file = config.Default() // a recording needs no profile; the backends' defaults do
	}
	o, err := b.open(ctx, addr, file, false)
	if err != nil {
		return nil, err
	}
	return &recordSource{pane: o.backend, subscribe: o.subscribe, streams: o.streams, gone: make(chan struct{}), release: o.backend.close}, nil
}

// redraw draws a screen from the top left of a cleared terminal.
func redraw(s respawn.Screen) string {
	return clearScreen + strings.Join(s.Lines, "\r\n")
}
