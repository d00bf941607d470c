package screen

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/respawn"
)

// Poller defaults.
const (
	// DefaultPollInterval is how often the window is captured. 1s.
	DefaultPollInterval = time.Second
	// MinPollInterval is the shortest interval allowed: every capture
	// runs a screen process. 200ms.
	MinPollInterval = 200 * time.Millisecond
)

// PollerOptions tunes a Poller. Zero values mean the defaults.
type PollerOptions struct {
	PollInterval   time.Duration // see DefaultPollInterval and MinPollInterval
	CaptureTimeout time.Duration // wait for each hardcopy; see DefaultCaptureTimeout
	// TempDir is where the private hardcopy directory is made. Default
	// os.TempDir().
	TempDir string
	// Runner runs screen. Default ExecRunner.
	Runner Runner
	// Clock times the polls and stamps the output. Default real.
	Clock clockwork.Clock
	// Logger gets capture failures. Default discards.
	Logger *slog.Logger
	// Identify finds the program the window runs. Default WindowProcess.
	Identify func(Window) (Process, bool)
}

func (o PollerOptions) withDefaults() PollerOptions {
	if o.PollInterval == 0 {
		o.PollInterval = DefaultPollInterval
	}
	if o.CaptureTimeout <= 0 {
		o.CaptureTimeout = DefaultCaptureTimeout
	}
	if o.TempDir == "" {
		o.TempDir = os.TempDir()
	}
	if o.Identify == nil {
		o.Identify = WindowProcess
	}
	if o.Runner == nil {
		o.Runner = ExecRunner{}
	}
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return o
}

// Poller watches one screen window by taking a hardcopy every
// PollInterval. Each hardcopy that differs from the one before becomes
// output for the subscribers (the changed rows' text, see
// frame.appendOutput) and the new snapshot. It stops when the window
// closes or its session ends, and says why in Err.
//
// Event flow:
//
//	ticker ─> screen -X hardcopy FILE ─> wait for FILE ─> compare bytes
//	   unchanged: nothing more │ changed: decode changed rows ─> output to subscribers, snapshot
//	no FILE ─> screen -Q number: window gone ─> Err, Done
//	another program under the window's number (WindowProcess) ─> Err, Done
//
// Screen 4.x writes hardcopies without the high bits of each character;
// the poller repairs what Claude Code draws (see decodeLegacyRow) and
// logs once that it does.
type Poller struct {
	w    Window
	opts PollerOptions
	log  *slog.Logger

	mu       sync.Mutex
	subs     []*subscription
	snap     respawn.Screen
	haveSnap bool
	err      error
	started  bool
	cancel   context.CancelFunc

	done chan struct{}
	wg   sync.WaitGroup

	// Owned by the poll loop after Start.
	cap      *capturer
	decode   rowDecoder
	frame    frame
	width    int
	height   int
	out      []byte
	failures int   // captures in a row that failed
	closeErr error // from removing the hardcopy directory, for Close
	proc     Process
	procOK   bool // proc is the window's program, checked at every poll
}

type subscription struct {
	fn func(data []byte, at time.Time)
}

// NewPoller returns a poller for w. Nothing runs until Start.
func NewPoller(w Window, opts PollerOptions) *Poller {
	opts = opts.withDefaults()
	return &Poller{
		w: w, opts: opts,
		log:  opts.Logger.With(logKeyWindow, w.Address()),
		done: make(chan struct{}),
	}
}

// Window returns the window the poller watches.
func (p *Poller) Window() Window { return p.w }

// Start checks the screen version and the window, takes the first
// hardcopy (the first snapshot; it is not reported as output) and starts
// polling. ctx bounds the poller's life; Close ends it sooner.
func (p *Poller) Start(ctx context.Context) error {
	p.mu.Lock()
	if p.started {
		p.mu.Unlock()
		return fmt.Errorf("start screen poller for %s: already started", p.w.Address())
	}
	p.started = true
	p.mu.Unlock()
	if err := p.setUp(ctx); err != nil {
		close(p.done)
		return fmt.Errorf("start screen poller for %s: %w", p.w.Address(), err)
	}
	ctx, cancel := context.WithCancel(ctx)
	p.mu.Lock()
	p.cancel = cancel
	p.mu.Unlock()
	p.wg.Add(1)
	go p.run(ctx)
	return nil
}

// setUp does Start's checks and the first capture.
func (p *Poller) setUp(ctx context.Context) error {
	if p.opts.PollInterval < MinPollInterval {
		return fmt.Errorf("poll interval %s is under the minimum of %s", p.opts.PollInterval, MinPollInterval)
	}
	v, err := InstalledVersion(ctx, p.opts.Runner)
	if err != nil {
		return err
	}
	p.decode = decoderFor(v)
	if !v.ExactHardcopy() {
		p.log.Info("screen before 5.0 writes hardcopies without the high bits of characters; repairing Claude Code's glyphs",
			logKeyVersion, v.String())
	}
	if p.width, p.height, err = windowSize(ctx, p.opts.Runner, p.w); err != nil {
		return err
	}
	if p.cap, err = newCapturer(p.w, p.opts.Runner, p.opts.Clock, p.opts.CaptureTimeout, p.opts.TempDir); err != nil {
		return err
	}
	p.proc, p.procOK = p.opts.Identify(p.w)
	if _, err := p.poll(ctx); err != nil {
		_ = p.cap.close() // the capture error is the one that matters
		return err
	}
	return nil
}

// replaced reports a window whose number now belongs to another program:
// its screen is no longer the one the controller watched.
func (p *Poller) replaced() error {
	if !p.procOK {
		return nil
	}
	now, ok := p.opts.Identify(p.w)
	if !ok || now == p.proc {
		return nil // gone is for the capture to find out
	}
	return &ReplacedError{Window: p.w, Was: p.proc, Now: now}
}

// Close stops polling and returns once the poller's goroutine is gone and
// its hardcopy directory removed.
func (p *Poller) Close() error {
	p.mu.Lock()
	cancel := p.cancel
	p.mu.Unlock()
	if cancel == nil {
		return nil
	}
	cancel()
	p.wg.Wait()
	return p.closeErr
}

// Done is closed when polling has stopped: after Close, when the Start
// ctx ends, or when the window is gone (Err says which).
func (p *Poller) Done() <-chan struct{} { return p.done }

// Err returns why polling stopped on its own: the window closed
// (wrapping ErrNoWindow), the session ended (ErrNoSession), or the window's
// number now runs another program (ErrWindowReplaced). It is nil
// while polling, and when Close or the end of Start's ctx stopped it.
func (p *Poller) Err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// Subscribe calls fn with the text of every change of the window and the
// time of the hardcopy that showed it. fn runs on the poller's goroutine:
// it must return quickly and must not keep or modify data.
func (p *Poller) Subscribe(fn func(data []byte, at time.Time)) (unsubscribe func()) {
	s := &subscription{fn: fn}
	p.mu.Lock()
	p.subs = append(p.subs, s)
	p.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			for i, q := range p.subs {
				if q == s {
					p.subs = append(p.subs[:i:i], p.subs[i+1:]...)
					return
				}
			}
		})
	}
}

// Snapshot returns the latest screen, and false before the first capture.
func (p *Poller) Snapshot() (respawn.Screen, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.snap, p.haveSnap
}

// run polls until ctx ends or the window is gone.
func (p *Poller) run(ctx context.Context) {
	defer p.wg.Done()
	defer close(p.done)
	defer func() { p.closeErr = p.cap.close() }()
	ticker := p.opts.Clock.NewTicker(p.opts.PollInterval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.Chan():
		}
		changed, err := p.poll(ctx)
		if err == nil {
			err = p.replaced() // before its output reaches anyone
		}
		if errors.Is(err, ErrWindowReplaced) {
			p.mu.Lock()
			p.err = err
			p.mu.Unlock()
			p.log.Info("stopped polling", logKeyReason, err)
			return
		}
		if err != nil && ctx.Err() == nil {
			if gone := p.onFailure(ctx, err); gone != nil {
				p.mu.Lock()
				p.err = gone
				p.mu.Unlock()
				p.log.Info("stopped polling", logKeyReason, gone)
				return
			}
			continue
		}
		if changed {
			p.deliver()
		}
	}
}
