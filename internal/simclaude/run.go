package simclaude

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// Timing of the loop.
const (
	escapeWait = 30 * time.Millisecond // a lone ESC this long is the Escape key
	hookGrace  = 3 * time.Second       // how long exit waits for queued hooks
)

// Run runs one simulated session on opts.In/opts.Out until the session
// exits (Ctrl-C twice, /exit), the input ends or ctx is cancelled. It
// returns nil on any of those; the returned error is about the terminal,
// the log file or the options.
func Run(ctx context.Context, opts Options) error {
	opts, err := opts.withDefaults()
	if err != nil {
		return err
	}
	log, err := openEventLog(opts.LogPath)
	if err != nil {
		return err
	}
	defer log.Close()
	term, err := openTerminal(opts.In, opts.Out)
	if err != nil {
		return err
	}
	hooks := newHookRunner(opts.HookCmd, opts.Cwd, opts.Look)
	hooks.Start()

	a := &app{opts: opts, term: term, log: log, hooks: hooks, model: newModel(opts)}
	quit, err := a.run(ctx)
	term.restore()
	// What the CLI prints on the normal screen as it leaves.
	if note := a.model.exitNote(quit); note != "" {
		fmt.Fprint(opts.Out, note)
	}
	hooks.Close(hookGrace) // SessionEnd is among the queued hooks
	return err
}

// app connects the model to the terminal, the log and the hook runner.
type app struct {
	opts    Options
	term    *terminal
	log     *eventLog
	hooks   *hookRunner
	model   *model
	painter *painter
	dec     decoder
	escAt   time.Time // when the decoder began holding a lone ESC
	title   string    // the pane title last set
}

// run is the loop: advance the model, drain its effects, repaint, and wait
// for input, a deadline, a resize or the end. It returns the SessionEnd
// reason.
func (a *app) run(ctx context.Context) (string, error) {
	chunks, readErr, stopReader := a.startReader()
	defer stopReader()
	winch := make(chan os.Signal, 1)
	signal.Notify(winch, unix.SIGWINCH)
	defer signal.Stop(winch)

	cols, rows := a.screenSize()
	a.painter = newPainter(a.opts.Out, cols, rows)
	if _, err := io.WriteString(a.opts.Out, enterScreen); err != nil {
		return "", fmt.Errorf("enter alternate screen: %w", err)
	}
	defer io.WriteString(a.opts.Out, leaveScreen) //nolint:errcheck // best effort on the way out

	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	a.model.start(time.Now())
	for {
		now := time.Now()
		a.model.advance(now)
		if err := a.drain(); err != nil {
			return "", err
		}
		if a.model.quit != "" {
			_ = a.signal(now) // the last notice; the program ends either way
			return a.model.quit, nil
		}
		if err := a.painter.draw(a.model.render(now, a.painter.width, a.painter.height)); err != nil {
			return a.end("other"), nil // the terminal is gone
		}
		if err := a.signal(now); err != nil {
			return a.end("other"), nil
		}
		a.arm(timer, now)
		select {
		case b := <-chunks:
			a.feed(a.dec.feed(b))
		case <-timer.C:
			if a.dec.pending() && !time.Now().Before(a.escAt.Add(escapeWait)) {
				a.feed(a.dec.flush())
			}
		case <-winch:
			a.painter.resize(a.screenSize())
		case <-readErr:
			return a.end("other"), nil
		case <-ctx.Done():
			return a.end("other"), nil
		}
	}
}

// startReader reads the terminal on its own goroutine; stop ends it and
// returns once it is gone.
func (a *app) startReader() (chunks <-chan []byte, errs <-chan error, stop func()) {
	c := make(chan []byte)
	e := make(chan error, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.term.readLoop(c, e)
	}()
	return c, e, func() {
		a.term.stopReading()
		for {
			select {
			case <-c: // a chunk read before the stop; nobody wants it now
			case <-done:
				return
			}
		}
	}
}

// feed hands decoded events to the model and notes when the decoder
// starts holding bytes back.
func (a *app) feed(events []inputEvent) {
	now := time.Now()
	a.model.onRead(events, now)
	switch {
	case !a.dec.pending():
		a.escAt = time.Time{}
	case a.escAt.IsZero():
		a.escAt = now
	}
}

// end fires SessionEnd for an exit the session did not ask for.
func (a *app) end(reason string) string {
	a.model.exit(reason)
	_ = a.drain() // the log may fail as the program ends; the exit goes on
	return reason
}

// signal writes what goes out beside the screen after a frame: the pane
// title when it changed, and the state notices and bells the model
// queued (the Codex look's).
func (a *app) signal(now time.Time) error {
	var b strings.Builder
	if t := a.model.title(now); t != a.title {
		a.title = t
		b.WriteString("\x1b]0;" + t + "\a")
	}
	for _, s := range a.model.cx.signals {
		b.WriteString(s)
	}
	a.model.cx.signals = a.model.cx.signals[:0]
	if b.Len() == 0 {
		return nil
	}
	if _, err := io.WriteString(a.opts.Out, b.String()); err != nil {
		return fmt.Errorf("write title and notices: %w", err)
	}
	return nil
}

// drain writes the model's log entries and queues its hook payloads.
func (a *app) drain() error {
	m := a.model
	for _, p := range m.payloads {
		a.hooks.Enqueue(p.arg, p.payload)
	}
	m.payloads = m.payloads[:0]
	for _, e := range m.logs {
		if err := a.log.write(e); err != nil {
			return err
		}
	}
	m.logs = m.logs[:0]
	return nil
}

// arm sets the timer for the model's next deadline, or the ESC wait.
func (a *app) arm(timer *time.Timer, now time.Time) {
	next := a.model.nextDeadline(now)
	if a.dec.pending() {
		if esc := a.escAt.Add(escapeWait); next.IsZero() || esc.Before(next) {
			next = esc
		}
	}
	timer.Stop()
	if !next.IsZero() {
		timer.Reset(max(next.Sub(now), 0))
	}
}

func (a *app) screenSize() (int, int) {
	if cols, rows, ok := a.term.size(); ok {
		return cols, rows
	}
	return a.opts.Cols, a.opts.Rows
}

// Exit codes of Main.
const (
	ExitOK    = 0
	ExitError = 1
	ExitUsage = 2
)

// Main runs sim-claude with command-line args (without the program name)
// on the given terminal and returns the exit code. Test binaries call it
// from TestMain; `codeman sim-claude` calls it too.
func Main(args []string, stdin, stdout *os.File) int {
	opts, err := parseArgs(args, os.Stderr)
	if errors.Is(err, errUsage) {
		return ExitUsage
	}
	if err := runAs(opts.Look); err != nil {
		fmt.Fprintln(os.Stderr, "sim-claude:", err)
		return ExitError
	}
	opts.In, opts.Out = stdin, stdout
	ctx, stop := signal.NotifyContext(context.Background(), unix.SIGTERM, unix.SIGHUP, unix.SIGINT)
	defer stop()
	if err := Run(ctx, opts); err != nil {
		fmt.Fprintln(os.Stderr, "sim-claude:", err)
		return ExitError
	}
	return ExitOK
}

// runAs makes the process run under the name of the CLI it looks like
// ("claude", "codex", "copilot"), as the real one does: codeman types only into a
// pane whose foreground program is the agent, and tmux names it by
// argv[0]. A process under another name execs itself again with that
// name; the environment and arguments stay.
func runAs(look string) error {
	name := look // the looks are the CLIs' program names
	if name == "" {
		name = LookClaude
	}
	if filepath.Base(os.Args[0]) == name {
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("run as %s: %w", name, err)
	}
	return unix.Exec(exe, append([]string{name}, os.Args[1:]...), os.Environ())
}
