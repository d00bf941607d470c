package clitest

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
)

// recorder keeps the raw output of a pane with the time each piece
// arrived. tmux copies the pane's output (pipe-pane -O) to a cat that
// writes into a FIFO, and a goroutine reads the FIFO and stamps each read.
type recorder struct {
	pane    string
	fifo    string
	start   time.Time // when the CLI was let go
	stopped time.Time // when the pipe was closed
	done    chan struct{}

	stopOnce sync.Once
	mu       sync.Mutex
	output   []castEvent
	err      error
}

// stopTimeout bounds the wait for the FIFO reader once the pipe is closed.
const stopTimeout = 5 * time.Second

// startRecorder makes the FIFO, starts its reader and pipes the pane's
// output into it.
func startRecorder(tm *tmuxtest.Server, pane, fifo string) (*recorder, error) {
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		return nil, fmt.Errorf("make output fifo: %w", err)
	}
	r := &recorder{pane: pane, fifo: fifo, done: make(chan struct{})}
	go r.read()
	if _, err := tm.Run("pipe-pane", "-O", "-t", pane, "exec cat >"+ShellQuote(fifo)); err != nil {
		r.unblock()
		<-r.done
		return nil, err
	}
	r.start = time.Now()
	return r, nil
}

// read copies the FIFO into output events until the writer closes it.
// Reads are cut on rune boundaries: a multi-byte character split between
// two reads goes whole into the later event.
func (r *recorder) read() {
	defer close(r.done)
	f, err := os.Open(r.fifo) // blocks until cat opens the other end
	if err != nil {
		r.fail(fmt.Errorf("open output fifo: %w", err))
		return
	}
	defer f.Close()
	var pending []byte
	buf := make([]byte, 32<<10)
	for {
		n, err := f.Read(buf)
		if n > 0 {
			at := time.Now()
			pending = append(pending, buf[:n]...)
			cut := completeRunes(pending)
			r.add(at, pending[:cut])
			pending = append([]byte(nil), pending[cut:]...)
		}
		if err != nil {
			r.add(time.Now(), pending) // a truncated rune at the very end; jsonString replaces it
			if !errors.Is(err, io.EOF) {
				r.fail(fmt.Errorf("read output fifo: %w", err))
			}
			return
		}
	}
}

func (r *recorder) add(at time.Time, data []byte) {
	if len(data) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.output = append(r.output, castEvent{at: at, kind: "o", data: string(data)})
}

func (r *recorder) fail(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.err = err
}

// stop closes the pane's pipe and waits for the reader to drain the FIFO.
func (r *recorder) stop(tm *tmuxtest.Server) {
	r.stopOnce.Do(func() {
		// A server that is already gone has closed the pipe too. tmux
		// refuses to close the pipe of a pane whose program has exited
		// (remain-on-exit), so such a pane goes, and its pipe with it.
		if _, err := tm.Run("pipe-pane", "-t", r.pane); err != nil && strings.Contains(err.Error(), "pane has exited") {
			tm.Run("kill-pane", "-t", r.pane)
		}
		r.stopped = time.Now()
		r.wait()
	})
}

// wait waits for the reader to end. A reader still blocked opening the
// FIFO (cat never started) is released by opening the writing end.
func (r *recorder) wait() {
	select {
	case <-r.done:
		return
	case <-time.After(stopTimeout):
	}
	r.unblock()
	select {
	case <-r.done:
	case <-time.After(stopTimeout):
		r.fail(errors.New("output fifo reader did not end"))
	}
}

// unblock opens and closes the FIFO's writing end, so that a reader
// waiting in open sees a writer come and go and reads EOF.
func (r *recorder) unblock() {
	f, err := os.OpenFile(r.fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
	if err == nil {
		f.Close()
	}
}

// events returns the recorded output so far and the reader's error.
func (r *recorder) events() ([]castEvent, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]castEvent(nil), r.output...), r.err
}

// SaveCast stops the recording and writes it to path as asciicast v2: the
// pane's raw output; with an event log each hook call and notify run as a
// marker event "hook:<payload>" or "notify:<payload>" at the time the
// command ran; and last a marker "end" at the moment the recording
// stopped, so that a quiet tail keeps its length. It needs Launch.Record
// (Options.Record).
func (p *Pane) SaveCast(path string) {
	p.t.Helper()
	if p.rec == nil {
		p.t.Fatalf("%s: SaveCast needs Options.Record", p.cfg.Pkg)
	}
	p.rec.stop(p.tmux)
	output, err := p.rec.events()
	if err != nil {
		p.t.Fatalf("%s: record pane: %v", p.cfg.Pkg, err)
	}
	var markers []castEvent
	if p.events != "" {
		markers = eventMarkers(p.Events())
	}
	markers = append(markers, castEvent{at: p.rec.stopped, kind: "m", data: EndMarker})
	f, err := os.Create(path)
	if err != nil {
		p.t.Fatalf("%s: create cast: %v", p.cfg.Pkg, err)
	}
	err = writeCast(f, p.rec.start, p.width, output, markers)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		p.t.Fatalf("%s: write %s: %v", p.cfg.Pkg, path, err)
	}
}

// RecordStart returns the moment the recording's clock starts (second 0
// of the cast): when the CLI was let go. It needs Launch.Record
// (Options.Record).
func (p *Pane) RecordStart() time.Time {
	p.t.Helper()
	if p.rec == nil {
		p.t.Fatalf("%s: RecordStart needs Options.Record", p.cfg.Pkg)
	}
	return p.rec.start
}
