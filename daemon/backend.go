package daemon

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/config"
	"github.com/codeman-dev/codeman/respawn"
)

// backend is one multiplexer as the daemon sees it. Everything that differs
// between tmux and GNU screen in a pane's lifecycle goes through it, picked
// once by the address's prefix (backendFor).
type backend interface {
	// prefix starts every address of the backend: "tmux:" or "screen:".
	prefix() string
	// canonical returns the one address of the pane addr names.
	canonical(addr string) (string, error)
	// open starts watching a pane: all a controller needs, with nothing
	// started that the paneBackend's close does not stop. When adopting, a
	// pane that is no longer the one enabled (screen reuses window
	// numbers) is refused.
	open(ctx context.Context, addr string, file *config.File, adopting bool) (*opened, error)
	// enabled lists the panes enabled before the daemon started.
	enabled(ctx context.Context) []adoptable
	// forget removes a pane's persisted flag, for a pane no controller has.
	forget(ctx context.Context, addr string)
	// stillEnabled reports whether the pane at addr still carries its
	// persisted flag: a tmux server restarted under the same name has a
	// pane of the same id without one. Unsure is yes.
	stillEnabled(ctx context.Context, addr string) bool
	// showProblem tells a person at the pane that it is enabled but not
	// controlled (tmux: the status line); problem "" clears it.
	showProblem(ctx context.Context, addr, problem string)
	// close stops what the backend shares among its panes.
	close()
}

// opened is a pane a backend watches, before its controller starts.
type opened struct {
	target    string // what a person calls it
	subscribe func(fn func(data []byte, at time.Time)) (unsubscribe func())
	onStatus  func(status string) // nil: the backend shows no status
	streams   bool                // output is the terminal's byte stream, not redraws
	// timing is how the config types into the pane, before the pane's
	// agent adapts it (paneAgent.timing) for its terminal.
	timing  respawn.SendTiming
	backend paneBackend
}

// paneBackend is what a backend keeps for one controlled pane.
type paneBackend interface {
	// mode says how output is read.
	mode() string
	// command is the program running in the pane, when known.
	command() string
	// foreground reads the programs of the pane's foreground process
	// group now, its leader first; none when the system cannot tell.
	foreground(ctx context.Context) ([]string, error)
	// snapshot reads the pane's screen now, without the controller.
	snapshot(ctx context.Context) (respawn.Screen, error)
	// terminal makes the controller's terminal of the pane, which types
	// with timing. It is made once, when the pane's agent is known.
	terminal(timing respawn.SendTiming) respawn.Terminal
	// claim records this daemon as the pane's owner, or returns an
	// *OwnedError naming the live daemon that owns it.
	claim(ctx context.Context, me owner) error
	// owned returns nil while this daemon owns the pane, an error wrapping
	// ErrNotOwner when it does not, and another error when it cannot tell.
	owned(ctx context.Context) error
	// persist records the pane as enabled with a profile and --set values,
	// for the next daemon to adopt.
	persist(ctx context.Context, profile string, sets []string) error
	// setPaused records that the pane is paused (or no longer), so a
	// pause outlives the daemon.
	setPaused(ctx context.Context, paused bool) error
	// forget removes the persisted flag and the owner record.
	forget(ctx context.Context)
	// unclaim removes the owner record only (the daemon stops; the pane
	// stays enabled for the next one).
	unclaim(ctx context.Context)
	// showNeed shows that the pane needs a person (kind "" once it no
	// longer does) where the multiplexer can show it, without blocking.
	showNeed(kind string)
	// notice tells the people looking at the pane's session: text on
	// their status or message line, and a bell where the multiplexer can.
	notice(ctx context.Context, text string, bell bool) error
	// place says where the pane is: its session, window and working
	// directory, each "" when unknown.
	place(ctx context.Context) place
	// close releases the pane's resources.
	close()
}

// host is what the daemon gives its backends, which know it through this
// alone: its life, the ticks of its liveness checks, and the panes it
// controls. What does not change while it runs (its log, its paths, the
// user's environment, the owner record it writes) a backend is given
// once, when it is made.
type host interface {
	// lifetime is the daemon's context: it ends when the daemon stops.
	lifetime() context.Context
	// every runs fn every Liveness in a goroutine counted by wg, until ctx
	// ends or fn returns false.
	every(ctx context.Context, wg *sync.WaitGroup, fn func() bool)
	// background runs fn in a goroutine the daemon waits for before Run
	// returns.
	background(fn func())
	// controlled returns the backend halves of the panes controlled at the
	// addresses that start with prefix, by address.
	controlled(prefix string) map[string]paneBackend
	// release ends the controller of the pane at addr, unless pb is no
	// longer its backend half (the pane was released, or attached again);
	// forget also removes its persisted flag.
	release(addr string, pb paneBackend, reason string, forget bool)
	// ran tells the daemon what its panes run now, so that one whose
	// program became another agent, or its agent anew, is attached again.
	ran(ctx context.Context, panes []ranPane)
}

// ranPane is what a backend's liveness check saw a controlled pane run.
type ranPane struct {
	addr      string
	backend   paneBackend
	prev, now string // the pane's program at the check before, and now
}

// adoptable is a pane enabled before the daemon started.
type adoptable struct {
	req api.AttachRequest
	err error // why its record cannot be used, e.g. unreadable settings
}

// The Daemon is its backends' host (every is in daemon.go, ran in
// agent.go).
var _ host = (*Daemon)(nil)

func (d *Daemon) lifetime() context.Context { return d.ctx }

func (d *Daemon) background(fn func()) { d.wg.Go(fn) }

func (d *Daemon) controlled(prefix string) map[string]paneBackend {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make(map[string]paneBackend)
	for addr, p := range d.panes {
		if strings.HasPrefix(addr, prefix) {
			out[addr] = p.backend
		}
	}
	return out
}

func (d *Daemon) release(addr string, pb paneBackend, reason string, forget bool) {
	if p := d.lookup(addr); p != nil && p.backend == pb {
		d.end(p, reason, forget)
	}
}

// backendFor returns the backend of an address and the address in
// canonical form.
func (d *Daemon) backendFor(addr string) (backend, string, error) {
	for _, b := range d.backends {
		if len(addr) >= len(b.prefix()) && addr[:len(b.prefix())] == b.prefix() {
			c, err := b.canonical(addr)
			return b, c, err
		}
	}
	return nil, "", fmt.Errorf("%q is not a pane address (tmux:SOCKET:%%ID or screen:PID.NAME:WINDOW)", addr)
}
