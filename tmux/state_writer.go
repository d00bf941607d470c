package tmux

import (
	"context"
	"log/slog"
	"sync"
)

// StateWriter keeps a pane's @codeman-state option up to date without ever
// blocking its caller. Only the newest value matters, so it holds a queue
// of one (after fzf's labelUpdater): a Set while a write is in flight
// replaces any value still waiting, and a single goroutine, started on
// demand, writes until nothing is waiting.
type StateWriter struct {
	run  Runner
	pane string

	// Logger receives failed writes, once per distinct error. Set it
	// before the first Set; nil discards.
	Logger *slog.Logger

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	pending *string // newest value not yet written; nil when none
	running bool    // a writer goroutine exists
	closed  bool
	lastErr string
}

// NewStateWriter returns a writer for paneID's @codeman-state through r: a
// Server, or a Client's control connection, which writes without starting
// a tmux process.
func NewStateWriter(r Runner, paneID string) *StateWriter {
	ctx, cancel := context.WithCancel(context.Background())
	return &StateWriter{run: r, pane: paneID, ctx: ctx, cancel: cancel}
}

// Set queues state to be written and returns at once. An empty state
// removes the option. Set after Close does nothing.
func (w *StateWriter) Set(state string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return
	}
	w.pending = &state
	if !w.running {
		w.running = true
		w.wg.Add(1)
		go w.writeLoop()
	}
}

// Close abandons any value not yet written, stops a write in flight and
// returns once the writer goroutine is gone.
func (w *StateWriter) Close() error {
	w.mu.Lock()
	w.closed = true
	w.pending = nil
	w.mu.Unlock()
	w.cancel()
	w.wg.Wait()
	return nil
}

// writeLoop writes the newest pending value until there is none.
func (w *StateWriter) writeLoop() {
	defer w.wg.Done()
	for {
		w.mu.Lock()
		state := w.pending
		w.pending = nil
		if state == nil {
			w.running = false
			w.mu.Unlock()
			return
		}
		w.mu.Unlock()
		w.write(*state)
	}
}

func (w *StateWriter) write(state string) {
	var err error
	if state == "" {
		err = UnsetPaneOptionWith(w.ctx, w.run, w.pane, OptionState)
	} else {
		err = SetPaneOptionWith(w.ctx, w.run, w.pane, OptionState, state)
	}
	if err == nil || w.ctx.Err() != nil {
		return
	}
	// A pane that is gone fails every write the same way: say it once.
	if msg := err.Error(); msg != w.lastErr && w.Logger != nil {
		w.lastErr = msg
		w.Logger.Warn("write pane state", "pane", w.pane, "state", state, "err", err)
	}
}
