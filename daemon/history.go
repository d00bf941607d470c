package daemon

import (
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/history"
)

// historyHubBuffer is the hub buffer of the history subscriber. The hub
// drops events for a subscriber that falls behind; this one only hands
// each event to the history writer, which never waits (its own queue
// drops and counts), so a burst this large would have to arrive while
// the forwarding goroutine did not run at all.
const historyHubBuffer = 4096

// historyKeeper is the daemon's history writer, nil when it could not be
// opened, and why.
type historyKeeper struct {
	dir     string
	w       *history.Writer
	openErr error
	openAt  time.Time
}

// historyStatus is the Health of the pane histories.
func (d *Daemon) historyStatus() api.HistoryStatus {
	k := d.history.Load()
	if k == nil {
		return api.HistoryStatus{Dir: d.opts.Paths.History()}
	}
	s := api.HistoryStatus{Dir: k.dir}
	if k.w == nil {
		s.Problem, s.Since, s.NotKept = k.openErr.Error(), k.openAt, true
		return s
	}
	if st := k.w.Status(); st.Err != nil {
		s.Problem, s.Since, s.Recovered = st.Err.Error(), st.At, st.Recovered
	}
	s.Dropped = k.w.Dropped()
	return s
}

// logHistoryStatus logs each change of the history's writes, once.
func (d *Daemon) logHistoryStatus(dir string) func(history.Status) {
	return func(st history.Status) {
		if st.Failing() {
			d.log.Warn("pane history not written", "dir", dir, "err", st.Err)
			return
		}
		d.log.Info("pane history written again", "dir", dir, "failing_since", st.At)
	}
}

// startHistory writes every event the hub publishes to the pane
// histories; stop, called once the controllers are gone, writes what is
// queued and closes the files. A history that cannot be opened is logged
// and the daemon runs without it; Health says so.
func (d *Daemon) startHistory() (stop func()) {
	dir := d.opts.Paths.History()
	w, err := history.Open(history.Options{Dir: dir, OnStatus: d.logHistoryStatus(dir)})
	if err != nil {
		d.history.Store(&historyKeeper{dir: dir, openErr: err, openAt: time.Now()})
		d.log.Warn("pane history not kept", "err", err)
		return func() {}
	}
	d.history.Store(&historyKeeper{dir: dir, w: w})
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

func historyRecord(e api.Event) history.Record {
	return history.Record{At: e.At, Pane: e.Pane, Kind: e.Kind, Reason: e.Reason, Decision: e.Decision}
}
