package daemon

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/config"
	"github.com/codeman-dev/codeman/respawn"
	"github.com/codeman-dev/codeman/screen"
)

// What adoption makes of a screen window enabled before.
var (
	// errReplaced: the window's number now runs another program. It is
	// never adopted, and listed as not controlled.
	errReplaced = screen.ErrWindowReplaced
	// errGone: the session is there but the window is not. It is
	// forgotten. A session not found is not gone: the daemon may look in
	// another SCREENDIR than the session's.
	errGone = screen.ErrNoWindow
)

// screenBackend runs one hardcopy poller per GNU screen window and keeps
// the enabled windows in a state file, since screen has no user options.
type screenBackend struct {
	host   host
	log    *slog.Logger
	state  string     // the state file of the enabled windows
	claims string     // the dir of the windows' claim locks
	mu     sync.Mutex // serialises state file updates
}

// screenPane is the backend half of a controlled screen window.
type screenPane struct {
	b        *screenBackend
	w        screen.Window
	poller   *screen.Poller
	interval time.Duration
	proc     *screen.Process // the window's program when attached, where known
	claimed  *os.File        // the window's claim lock, while this daemon owns it
}

func newScreenBackend(h host, log *slog.Logger, state, claims string) *screenBackend {
	return &screenBackend{host: h, log: log, state: state, claims: claims}
}

func (b *screenBackend) prefix() string { return "screen:" }

func (b *screenBackend) canonical(addr string) (string, error) {
	w, err := screen.ParseAddress(addr)
	if err != nil {
		return "", err
	}
	return w.Address(), nil
}

func (b *screenBackend) open(ctx context.Context, addr string, file *config.File, adopting bool) (*opened, error) {
	w, err := screen.ParseAddress(addr)
	if err != nil {
		return nil, err
	}
	var proc *screen.Process
	if p, ok := screen.WindowProcess(w); ok {
		proc = &p
	}
	if adopting {
		enabled, err := b.sameProgram(w)
		if err != nil {
			return nil, err
		}
		if enabled != nil {
			// The program enabled, not whatever ran a moment ago: a
			// number reused since the check fails the first send.
			proc = enabled
		}
	}
	poller := screen.NewPoller(w, screen.PollerOptions{PollInterval: file.Screen.PollInterval, Logger: b.log})
	if err := poller.Start(b.host.lifetime()); err != nil {
		return nil, err
	}
	sp := &screenPane{b: b, w: w, poller: poller, interval: file.Screen.PollInterval, proc: proc}
	b.host.background(func() { b.watch(addr, sp) })
	return &opened{
		target:    fmt.Sprintf("screen %s:%s", w.Session, w.Window),
		subscribe: poller.Subscribe,
		timing:    file.Screen.SendTiming(),
		backend:   sp,
	}, nil
}

// sameProgram refuses a window that is no longer the one enabled: its
// number runs another program than the one recorded then, or that program
// has exited. It returns the recorded program, nil when none was recorded.
func (b *screenBackend) sameProgram(w screen.Window) (*screen.Process, error) {
	state, err := screen.LoadState(b.state)
	if err != nil {
		return nil, err
	}
	rec, ok := state.Find(w.Address())
	if !ok || rec.Process == nil {
		return nil, nil
	}
	if err := screen.StillRuns(w, *rec.Process); err != nil {
		return nil, err
	}
	return rec.Process, nil
}

// watch ends the controller of sp when the window closes or its session
// ends.
func (b *screenBackend) watch(addr string, sp *screenPane) {
	life := b.host.lifetime()
	select {
	case <-life.Done():
	case <-sp.poller.Done():
		if life.Err() != nil {
			return
		}
		reason := "screen window gone"
		if err := sp.poller.Err(); err != nil {
			reason = err.Error()
		}
		b.host.release(addr, sp, reason, true)
	}
}

func (p *screenPane) mode() string {
	return fmt.Sprintf("hardcopy every %s", p.interval)
}

func (p *screenPane) command() string { return "" }

// snapshot returns the poller's newest hardcopy, at most a poll interval
// old: a hardcopy of its own would race the poller's.
func (p *screenPane) snapshot(context.Context) (respawn.Screen, error) {
	s, ok := p.poller.Snapshot()
	if !ok {
		return respawn.Screen{}, fmt.Errorf("no hardcopy of %s yet", p.w.Address())
	}
	return s, nil
}

// terminal types into the window with timing. The pane's snapshots come
// from the poller, not from it.
func (p *screenPane) terminal(timing respawn.SendTiming) respawn.Terminal {
	return screen.NewWindowTerminal(p.w, screen.TerminalOptions{Timing: timing})
}

// claim takes the window's claim lock: a flock on a file named after the
// window in the user's claims dir, which every daemon of the user finds
// whatever its environment. The kernel drops it when the daemon dies.
func (p *screenPane) claim(_ context.Context, _ owner) error {
	dir := p.b.claims
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("claim %s: %w", p.w.Address(), err)
	}
	sum := sha256.Sum256([]byte(p.w.Address()))
	path := filepath.Join(dir, "screen-"+hex.EncodeToString(sum[:8])+".lock")
	f, err := takeLock(path, api.LockInfo{PID: os.Getpid(), Pane: p.w.Address()})
	var held *heldError
	if errors.As(err, &held) {
		return &OwnedError{Pane: p.w.Address(), PID: held.holder.PID}
	}
	if err != nil {
		return fmt.Errorf("claim %s: %w", p.w.Address(), err)
	}
	p.claimed = f
	return nil
}

// owned checks the claim and that the window's number still runs the
// program it ran when attached.
func (p *screenPane) owned(context.Context) error {
	if p.claimed == nil {
		return fmt.Errorf("%w: the window's claim was released", api.ErrNotOwner)
	}
	if p.proc == nil {
		return nil
	}
	if now, ok := screen.WindowProcess(p.w); ok && now != *p.proc {
		return fmt.Errorf("%w: %w", api.ErrNotOwner, &screen.ReplacedError{Window: p.w, Was: *p.proc, Now: now})
	}
	return nil
}

func (p *screenPane) unclaim(context.Context) {
	if p.claimed != nil {
		p.claimed.Close()
		p.claimed = nil
	}
}

func (p *screenPane) forget(ctx context.Context) {
	p.b.forget(ctx, p.w.Address())
	p.unclaim(ctx)
}

// showNeed shows nothing: screen windows have no options a status line
// could read. The pane's status and the notices say it.
func (p *screenPane) showNeed(string) {}

// place names the session and window as screen -ls and -p do; the
// directory is that of the window's program, where it is known.
func (p *screenPane) place(context.Context) place {
	pl := place{session: p.w.Session, window: p.w.Window}
	if _, name, ok := strings.Cut(p.w.Session, "."); ok {
		pl.session = name
	}
	if p.proc != nil {
		pl.cwd, _ = os.Readlink(fmt.Sprintf("/proc/%d/cwd", p.proc.PID))
	}
	return pl
}

// notice ignores bell: screen rings no bell on demand.
func (p *screenPane) notice(ctx context.Context, text string, _ bool) error {
	return screen.Notice(ctx, screen.ExecRunner{}, p.w, text)
}

func (p *screenPane) close() {
	p.poller.Close()
	p.unclaim(context.Background())
}

// persist records the window, its profile, settings and program in the
// state file.
func (p *screenPane) persist(_ context.Context, profile string, sets []string) error {
	b := p.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if p.proc == nil {
		// The window's program may not have been started when it was
		// opened (a session made a moment ago).
		if proc, ok := screen.WindowProcess(p.w); ok {
			p.proc = &proc
		}
	}
	path := b.state
	state, err := screen.LoadState(path)
	if err != nil {
		return err
	}
	enabledAt, paused := time.Now(), false
	if old, ok := state.Find(p.w.Address()); ok {
		enabledAt, paused = old.EnabledAt, old.Paused
	}
	if err := state.Add(screen.EnabledWindow{Address: p.w.Address(), Profile: profile, Sets: sets, EnabledAt: enabledAt, Process: p.proc, Paused: paused}); err != nil {
		return err
	}
	return state.Save(path)
}

func (p *screenPane) setPaused(_ context.Context, paused bool) error {
	b := p.b
	b.mu.Lock()
	defer b.mu.Unlock()
	path := b.state
	state, err := screen.LoadState(path)
	if err != nil {
		return err
	}
	w, ok := state.Find(p.w.Address())
	if !ok {
		return fmt.Errorf("record the pause of %s: the window is not in %s", p.w.Address(), path)
	}
	w.Paused = paused
	if err := state.Add(w); err != nil {
		return err
	}
	return state.Save(path)
}

// forget removes a window from the state file.
func (b *screenBackend) forget(_ context.Context, addr string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	path := b.state
	state, err := screen.LoadState(path)
	if err != nil {
		b.log.Warn("screen state not updated", "err", err)
		return
	}
	if state.Remove(addr) {
		if err := state.Save(path); err != nil {
			b.log.Warn("screen state not updated", "err", err)
		}
	}
}

// stillEnabled reports whether the state file lists the window and the
// window is still the one enabled. A record whose program exited or whose
// number another program took is forgotten: it names a window that is
// gone, and a failed adoption of it must not stay listed as enabled.
func (b *screenBackend) stillEnabled(ctx context.Context, addr string) bool {
	state, err := screen.LoadState(b.state)
	if err != nil {
		return true
	}
	rec, ok := state.Find(addr)
	if !ok || rec.Process == nil {
		return ok
	}
	w, err := screen.ParseAddress(addr)
	if err != nil {
		return true
	}
	if err := screen.StillRuns(w, *rec.Process); err != nil {
		b.log.Info("screen window no longer the one enabled", "pane", addr, "err", err)
		b.forget(ctx, addr)
		return false
	}
	return true
}

// showProblem has nowhere to show it: screen windows have no status
// option. status and explain list the window with its problem.
func (b *screenBackend) showProblem(context.Context, string, string) {}

func (b *screenBackend) close() {}

// enabled lists the windows of the state file, for adoption.
func (b *screenBackend) enabled(context.Context) []adoptable {
	state, err := screen.LoadState(b.state)
	if err != nil {
		b.log.Warn("screen windows not adopted", "err", err)
		return nil
	}
	out := make([]adoptable, 0, len(state.Windows))
	for _, w := range state.Windows {
		out = append(out, adoptable{req: api.AttachRequest{Pane: w.Address, Profile: w.Profile, Sets: w.Sets, Paused: w.Paused}})
	}
	return out
}
