package daemon

import (
	"context"
	"fmt"
	"time"

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
	term      respawn.Terminal
	subscribe func(fn func(data []byte, at time.Time)) (unsubscribe func())
	onStatus  func(status string) // nil: the backend shows no status
	streams   bool                // output is the terminal's byte stream, not redraws
	// timing is the send timing term reads, which the pane's agent may
	// slow before the controller starts.
	timing  *respawn.SendTiming
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

// adoptable is a pane enabled before the daemon started.
type adoptable struct {
	req AttachRequest
	err error // why its record cannot be used, e.g. unreadable settings
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
