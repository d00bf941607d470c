package daemon

import (
	"path/filepath"

	"github.com/codeman-dev/codeman/daemon/history"
)

// historyHubBuffer is the hub buffer of the history subscriber. The hub
// drops events for a subscriber that falls behind; this one only hands
// each event to the history writer, which never waits (its own queue
// drops and counts), so a burst this large would have to arrive while
// the forwarding goroutine did not run at all.
const historyHubBuffer = 4096

// HistoryDir is the dir of the pane histories: $XDG_STATE_HOME/codeman/history.
func HistoryDir(env func(string) string) string { return historyDir(stateDir(env)) }

func historyDir(state string) string { return filepath.Join(state, "history") }

// startHistory writes every event the hub publishes to the pane
// histories; stop, called once the controllers are gone, writes what is
// queued and closes the files. A history that cannot be opened is logged
// and the daemon runs without it.
func (d *Daemon) startHistory() (stop func()) {
	w, err := history.Open(history.Options{Dir: historyDir(d.opts.Paths.State)})
	if err != nil {
		d.log.Warn("pane history not kept", "err", err)
		return func() {}
	}
	events, unsubscribe := d.hub.subscribeSized("", historyHubBuffer)
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case e := <-events:
				w.Write(historyRecord(e))
			case <-quit:
				// Unsubscribed: the hub sends nothing more, so what
				// is buffered is all that is left.
				for len(events) > 0 {
					w.Write(historyRecord(<-events))
				}
				return
			}
		}
	}()
	return func() {
		unsubscribe()
		close(quit)
		<-done
		if err := w.Close(); err != nil {
			d.log.Warn("pane history incomplete", "err", err)
		}
		if n := w.Dropped(); n > 0 {
			d.log.Warn("pane history records dropped: the disk fell behind", "count", n)
		}
	}
}

func historyRecord(e Event) history.Record {
	return history.Record{At: e.At, Pane: e.Pane, Kind: e.Kind, Reason: e.Reason, Decision: e.Decision}
}
