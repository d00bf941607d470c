package dash

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/codeman-dev/codeman/daemon"
	"github.com/codeman-dev/codeman/tmux"
)

// Source is what the dash asks of the daemon; *daemon.Client is one.
type Source interface {
	Panes(ctx context.Context) ([]daemon.PaneStatus, error)
	Pane(ctx context.Context, pane string, decisions int) (daemon.PaneStatus, error)
	Explain(ctx context.Context, pane string, decisions int) (daemon.PaneStatus, error)
	Pause(ctx context.Context, pane string, paused bool) (daemon.PaneStatus, error)
	Detach(ctx context.Context, pane string) error
	Follow(ctx context.Context, pane string, opened func(), fn func(daemon.Event) error) error
}

var _ Source = (*daemon.Client)(nil)

// Options configure a dash.
type Options struct {
	Source Source
	// Client is the tmux client that Enter switches to the chosen pane
	// (#{client_name}), and ClientSocket the canonical socket of its
	// server. Empty when the dash does not run inside tmux: Enter then
	// says how to attach instead.
	Client       string
	ClientSocket string
	// QuitAfterJump ends the dash after Enter took the client to a pane,
	// as a popup should.
	QuitAfterJump bool
	// Color styles the view; false (NO_COLOR) draws plain text.
	Color bool
	// ExplainText renders the explain view of a pane (required).
	ExplainText func(st daemon.PaneStatus, now time.Time) string
	// Tmux runs a tmux command on the server of socket; nil runs tmux.
	Tmux func(ctx context.Context, socket string, args ...string) error
	// Now is the clock; nil is time.Now.
	Now func() time.Time
}

func (o Options) withDefaults() Options {
	if o.Tmux == nil {
		o.Tmux = func(ctx context.Context, socket string, args ...string) error {
			_, err := tmux.Server{Socket: socket}.Run(ctx, args...)
			return err
		}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// CurrentClient returns the tmux client that shows this process's pane
// ($TMUX_PANE, else the session of $TMUX) and the canonical socket of its
// server: of the clients attached to that session, the one used last.
// Control-mode clients are left out: the daemon's own are among them.
// The client is empty outside tmux and when no client shows the session.
func CurrentClient(ctx context.Context, getenv func(string) string) (client, socket string, err error) {
	env := getenv("TMUX")
	if env == "" {
		return "", "", nil
	}
	srv, err := tmux.ServerFromEnv(env)
	if err != nil {
		return "", "", err
	}
	if srv, err = srv.Canonical(); err != nil {
		return "", "", err
	}
	session := ""
	if pane := getenv("TMUX_PANE"); pane != "" {
		out, err := srv.Run(ctx, "display-message", "-p", "-t", pane, "#{session_id}")
		if err != nil {
			return "", "", err
		}
		session = strings.TrimSpace(out)
	} else if f := strings.Split(env, ","); len(f) == 3 {
		session = "$" + f[2]
	}
	out, err := srv.Run(ctx, "list-clients", "-F", "#{client_control_mode}\t#{client_activity}\t#{session_id}\t#{client_name}")
	if err != nil {
		return "", "", err
	}
	return pickClient(out, session), srv.Socket, nil
}

// pickClient chooses from list-clients lines (control mode, activity,
// session id, name) the client of session used last, not in control mode.
func pickClient(list, session string) string {
	best, bestActivity := "", int64(-1)
	for _, line := range strings.Split(strings.TrimSpace(list), "\n") {
		f := strings.SplitN(line, "\t", 4)
		if len(f) != 4 || f[0] == "1" || f[2] != session {
			continue
		}
		activity, _ := strconv.ParseInt(f[1], 10, 64)
		if activity > bestActivity {
			best, bestActivity = f[3], activity
		}
	}
	return best
}

// ClientSocket returns the canonical socket of the tmux server in $TMUX,
// for a client named on the command line.
func ClientSocket(getenv func(string) string) (string, error) {
	srv, err := tmux.ServerFromEnv(getenv("TMUX"))
	if err != nil {
		return "", err
	}
	srv, err = srv.Canonical()
	return srv.Socket, err
}
