package history

import "time"

// Status is how the writer's writes fare: the last error it met, and
// whether writes work again since.
type Status struct {
	// Err is the last error met, nil when none was.
	Err error
	// At is when Err was first met: the same error again does not move it.
	At time.Time
	// Recovered is when a record was written again, every pane that
	// failed having written since; zero while writes fail.
	Recovered time.Time
}

// Failing reports whether the last error still stands.
func (s Status) Failing() bool { return s.Err != nil && s.Recovered.IsZero() }

// Status returns how the writes fare now.
func (w *Writer) Status() Status {
	w.statusMu.Lock()
	defer w.statusMu.Unlock()
	return w.status
}

// fail records an error of pane ("" for one of no pane's, such as a
// prune): the first is Close's, and the status changes unless the same
// error already stands.
func (w *Writer) fail(pane string, err error) {
	if w.err == nil {
		w.err = err
	}
	w.failing[pane] = true
	w.statusMu.Lock()
	changed := !w.status.Failing() || w.status.Err.Error() != err.Error()
	if changed {
		w.status = Status{Err: err, At: w.opts.Clock.Now()}
	}
	st := w.status
	w.statusMu.Unlock()
	if changed && w.opts.OnStatus != nil {
		w.opts.OnStatus(st)
	}
}

// wrote records that a record of pane reached its file: once every pane
// that failed has written (or gone), writes work again.
func (w *Writer) wrote(pane string) {
	delete(w.failing, pane)
	delete(w.failing, "")
	if len(w.failing) > 0 {
		return
	}
	w.statusMu.Lock()
	changed := w.status.Failing()
	if changed {
		w.status.Recovered = w.opts.Clock.Now()
	}
	st := w.status
	w.statusMu.Unlock()
	if changed && w.opts.OnStatus != nil {
		w.opts.OnStatus(st)
	}
}

// gone forgets the failure of a pane that writes no more (detached): it
// does not hold the status failing once the others write again.
func (w *Writer) gone(pane string) { delete(w.failing, pane) }
