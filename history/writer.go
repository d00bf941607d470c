package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/respawn"
)

// Defaults of a Writer.
const (
	// DefaultMaxSize is the size a pane's file may reach before it
	// rotates (1 MiB).
	DefaultMaxSize = 1 << 20
	// DefaultKeep is how many rotated files a pane keeps (3): with the
	// current one, at most 4 MiB per pane.
	DefaultKeep = 3
	// DefaultMaxAge is how old a line may get before it is dropped (14 days).
	DefaultMaxAge = 14 * 24 * time.Hour
	// DefaultBuffer is how many records wait for the disk before Write
	// drops (4096).
	DefaultBuffer = 4096
)

// Options configure a Writer.
type Options struct {
	Dir     string        // made 0700 when missing
	MaxSize int64         // bytes per file; default DefaultMaxSize
	Keep    int           // rotated files per pane; default DefaultKeep
	MaxAge  time.Duration // default DefaultMaxAge; negative: lines never age out
	Buffer  int           // records queued; default DefaultBuffer
	// Block makes Write wait for room instead of dropping: for a writer
	// that records the past (replay), never for one a controller feeds.
	Block bool
	Clock clockwork.Clock // nil: real; ages are measured against it
	// OnStatus, when set, is called from the writer's goroutine each time
	// Status changes: a new error, or writes working again. A log says
	// so once, not at every record that fails.
	OnStatus func(Status)
}

// Writer appends records to the files of their panes from one goroutine.
type Writer struct {
	opts    Options
	ch      chan Record
	done    chan struct{}
	mu      sync.RWMutex // Close against Write: no send on a closed channel
	closed  bool
	dropped atomic.Uint64

	statusMu sync.Mutex // Status against the writer goroutine
	status   Status

	// Owned by the writer goroutine.
	files   map[string]*paneFile
	states  map[string]string // pane -> controller state, from its state decisions
	failing map[string]bool   // panes whose last write failed; "" for errors of no pane
	err     error             // the first error met; Close returns it
	before  func()            // tests: runs before each record is written
}

// paneFile is a pane's current file, open for appending, and what it was
// when opened, to tell whether its path still leads to it.
type paneFile struct {
	f    *os.File
	path string
	info os.FileInfo
	size int64
}

// Open makes the dir, drops what has aged out and starts the writer.
// A file it cannot prune is left as it is, and the error is Close's.
func Open(opts Options) (*Writer, error) {
	w, err := newWriter(opts)
	if err != nil {
		return nil, err
	}
	w.start()
	return w, nil
}

func newWriter(opts Options) (*Writer, error) {
	if opts.Dir == "" {
		return nil, errors.New("open history: no dir")
	}
	if opts.MaxSize <= 0 {
		opts.MaxSize = DefaultMaxSize
	}
	if opts.Keep <= 0 {
		opts.Keep = DefaultKeep
	}
	if opts.MaxAge == 0 {
		opts.MaxAge = DefaultMaxAge
	}
	if opts.Buffer <= 0 {
		opts.Buffer = DefaultBuffer
	}
	if opts.Clock == nil {
		opts.Clock = clockwork.NewRealClock()
	}
	if err := os.MkdirAll(opts.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("create history dir: %w", err)
	}
	w := &Writer{
		opts: opts, ch: make(chan Record, opts.Buffer), done: make(chan struct{}),
		files: make(map[string]*paneFile), states: make(map[string]string), failing: make(map[string]bool),
	}
	if err := w.pruneAll(); err != nil {
		return nil, err
	}
	return w, nil
}

func (w *Writer) start() { go w.run() }

// Write queues r for its pane's file. It never waits (unless Block): when
// the queue is full, or the writer closed, r is dropped and counted.
func (w *Writer) Write(r Record) bool {
	w.mu.RLock()
	defer w.mu.RUnlock()
	switch {
	case w.closed:
	case w.opts.Block:
		w.ch <- r
		return true
	default:
		select {
		case w.ch <- r:
			return true
		default:
		}
	}
	w.dropped.Add(1)
	return false
}

// Dropped is how many records Write dropped.
func (w *Writer) Dropped() uint64 { return w.dropped.Load() }

// Close writes the queued records, closes the files and returns the first
// error the writer met.
func (w *Writer) Close() error {
	w.mu.Lock()
	if !w.closed {
		w.closed = true
		close(w.ch)
	}
	w.mu.Unlock()
	<-w.done
	return w.err
}

func (w *Writer) run() {
	defer close(w.done)
	for r := range w.ch {
		if w.before != nil {
			w.before()
		}
		w.write(r)
	}
	for pane := range w.files {
		w.closeFile(pane)
	}
}

// write appends r to its pane's file, rotating the file first when r
// would take it past MaxSize.
func (w *Writer) write(r Record) {
	if r.Pane == "" {
		w.fail("", fmt.Errorf("write history: a %s record names no pane", r.Kind))
		return
	}
	r.V = Version
	w.track(&r)
	line, err := json.Marshal(r)
	if err != nil {
		w.fail(r.Pane, fmt.Errorf("write history of %s: %w", r.Pane, err))
		return
	}
	line = append(line, '\n')
	pf, err := w.file(r.Pane)
	if err == nil && pf.size > 0 && pf.size+int64(len(line)) > w.opts.MaxSize {
		w.closeFile(r.Pane)
		if err = w.rotate(r.Pane); err == nil {
			pf, err = w.file(r.Pane)
		}
	}
	if err == nil {
		err = w.append(r.Pane, pf, line)
	}
	if err != nil {
		w.fail(r.Pane, err)
	} else {
		w.wrote(r.Pane)
	}
	if r.Kind == KindDetach || r.Kind == KindNotAdopted {
		w.closeFile(r.Pane) // a pane that is gone keeps no file open
		w.gone(r.Pane)
	}
}

// append writes line to pane's open file.
func (w *Writer) append(pane string, pf *paneFile, line []byte) error {
	n, err := pf.f.Write(line)
	pf.size += int64(n)
	if err != nil {
		// Reopened on the next record, which cuts off what was written of this one.
		w.closeFile(pane)
		return fmt.Errorf("write history: %w", err) // the error names the file
	}
	return nil
}

// track stamps r with the pane's controller state, as its state
// decisions written so far say.
func (w *Writer) track(r *Record) {
	switch {
	case r.Decision != nil && r.Decision.Kind == respawn.DecisionState:
		w.states[r.Pane] = r.Decision.To
	case r.Kind == KindDetach || r.Kind == KindNotAdopted:
		delete(w.states, r.Pane)
	}
	if r.State == "" {
		r.State = w.states[r.Pane]
	}
}
