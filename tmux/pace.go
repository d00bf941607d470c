package tmux

import (
	"io"
	"time"

	"github.com/jonboulle/clockwork"
)

// pacedReader reads a control stream in slots while output flows, so that
// fifty panes redrawing a status line ten times a second wake the daemon a
// few dozen times a second rather than once per redraw: wake-ups, not
// parsing, are what a watching daemon spends its CPU on.
//
// The stream is a blocking 1 MiB pipe outside Go's poller (see outputPipe).
// While output flows, the reader sleeps to the next slot boundary, asks how
// much is waiting and reads it without blocking; slots are aligned on a
// process-wide grid, so every connection's reads share one wake-up. After
// idleAfter without output it blocks in read, which costs nothing while
// the pane is quiet and returns the first byte of new output at once.
//
// Output already waiting when a read starts is read at once, and a large
// read unpaces the stream for a while, so a flood is read as fast as it
// comes; a command waiting for its reply ends any wait, so replies are
// never paced.
type pacedReader struct {
	r      io.Reader
	pace   time.Duration // slot length: output is seen at most this late
	urgent func() bool   // a command waits for its reply
	kick   <-chan struct{}
	clock  clockwork.Clock
	// waiting reports the bytes ready to read without blocking; ok is
	// false where that cannot be known, and the reader then just reads.
	waiting func() (n int, ok bool)
	// readNow, when set, reads once waiting reported bytes: a read that
	// cannot block, done more cheaply than r's.
	readNow func(b []byte) (int, error)

	lastData   time.Time // when output last came
	floodUntil time.Time // reads are unpaced until then
	timer      clockwork.Timer
}

const (
	// idleAfter is how long a stream may stay empty before the reader
	// stops polling and blocks in read.
	idleAfter = 250 * time.Millisecond
	// A read of floodRead bytes or more means a flood: reads stay
	// unpaced until floodUnpaced after the last such read, so the reader
	// keeps up the way an unpaced one does while tmux queues output.
	floodRead    = 16 << 10
	floodUnpaced = time.Second
)

func (p *pacedReader) Read(b []byte) (int, error) {
	ready := false // waiting reported bytes
	for !p.urgent() && !p.clock.Now().Before(p.floodUntil) {
		if p.clock.Since(p.lastData) >= idleAfter {
			break // quiet: block until output comes
		}
		if n, ok := p.waiting(); !ok || n > 0 {
			ready = n > 0
			break // output waits: a flood is read as fast as it comes
		}
		now := p.clock.Now()
		if !p.sleep(now.Truncate(p.pace).Add(p.pace).Sub(now)) {
			break // a command was written
		}
	}
	var n int
	var err error
	if ready && p.readNow != nil {
		n, err = p.readNow(b)
	} else {
		n, err = p.r.Read(b)
	}
	if n > 0 {
		p.lastData = p.clock.Now()
	}
	if n >= floodRead {
		p.floodUntil = p.lastData.Add(floodUnpaced)
	}
	return n, err
}

// sleep waits for d; it returns false when a command was written first.
func (p *pacedReader) sleep(d time.Duration) bool {
	if p.timer == nil {
		p.timer = p.clock.NewTimer(d)
	} else {
		p.timer.Reset(d)
	}
	select {
	case <-p.timer.Chan():
		return true
	case <-p.kick:
		p.timer.Stop()
		return false
	}
}
