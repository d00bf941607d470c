package dash

import (
	"context"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/respawn"
	"github.com/codeman-dev/codeman/tmux"
)

// Source is what the dash asks of the daemon; *api.Client is one.
type Source interface {
	Panes(ctx context.Context) ([]api.PaneStatus, error)
	Pane(ctx context.Context, pane string, decisions int) (api.PaneStatus, error)
	Explain(ctx context.Context, pane string, decisions int) (api.PaneStatus, error)
	Pause(ctx context.Context, pane string, paused bool) (api.PaneStatus, error)
	Answer(ctx context.Context, req api.AnswerRequest) (respawn.Answered, error)
	Detach(ctx context.Context, pane string) error
	Follow(ctx context.Context, pane string, opened func(), fn func(api.Event) error) error
}

var _ Source = (*api.Client)(nil)

// Options configure a dash.
type Options struct {
	Source Source
	// Client is the tmux client that Enter switches to the chosen pane
	// (#{client_name}, as --client names it), a client of the server in
	// Here; "" finds at each Enter the client that shows the dash then.
	Client string
	// Here is where the dash runs: its tmux server and pane, or why it
	// runs outside tmux, when Enter says how to attach instead.
	Here Here
	// QuitAfterJump ends the dash after Enter took the client to a pane,
	// as a popup should.
	QuitAfterJump bool
	// Color styles the view; false (NO_COLOR) draws plain text.
	Color bool
	// ExplainText renders the explain view of a pane (required).
	ExplainText func(st api.PaneStatus, now time.Time) string
	// Tmux runs a tmux command on the server of socket and returns its
	// output; nil runs tmux.
	Tmux func(ctx context.Context, socket string, args ...string) (string, error)
	// Now is the clock; nil is time.Now.
	Now func() time.Time
}

func (o Options) withDefaults() Options {
	if o.Tmux == nil {
		o.Tmux = func(ctx context.Context, socket string, args ...string) (string, error) {
			return tmux.Server{Socket: socket}.Run(ctx, args...)
		}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}
