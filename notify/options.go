package notify

import (
	"os"
	"time"

	"github.com/jonboulle/clockwork"
)

// Options configure a Notifier: the channels of the [notify] table, the
// policy of panes whose hold carries none, the rate limit, and the
// channels the daemon adds.
type Options struct {
	// Command is the argv of the command channel; empty: none.
	Command []string
	// CommandTimeout bounds one run of Command. Default 10s.
	CommandTimeout time.Duration
	// Desktop adds the desktop channel.
	Desktop bool
	// URL is the webhook's URL; "": none.
	URL string
	// Format is the webhook's body: "text" (the default) or "json".
	Format string
	// Policy is the policy of holds without one of their own. The zero
	// Policy notifies at once, once; start from DefaultPolicy.
	Policy Policy
	// RateLimit is how many messages may go out per minute, all panes
	// together; 0 means DefaultRateLimit.
	RateLimit int
	// Extra are channels the caller adds, such as the daemon's tmux
	// channel. They get every message after the configured ones.
	Extra []Channel
	// Clock drives the policy and the webhook's backoff; nil: the real
	// clock.
	Clock clockwork.Clock
	// Log receives failures and drops, slog-style (msg, then key-value
	// pairs); nil: discard.
	Log func(msg string, args ...any)
	// Getenv reads the environment for the desktop channel; nil:
	// os.Getenv.
	Getenv func(string) string
	// OnRetry hears of each attempt of the url channel that failed and
	// is made again; nil: a Notifier logs it, Channels drops it.
	OnRetry func(Retry)
	// Sent are the holds that notified on the Notifier this one takes
	// over from (Handoff) or before the daemon started again: a hold of
	// the same pane and kind raised within two minutes goes on with its
	// schedule rather than notify again as new.
	Sent []Sent
	// OnSent, when set, gets what Sent would be each time it changes: a
	// hold notifies, notifies again or ends. It is called with the
	// Notifier's lock held, and must not block.
	OnSent func([]Sent)
}

// DefaultRateLimit is how many messages go out per minute by default.
const DefaultRateLimit = 10

func (o Options) withDefaults() Options {
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	if o.Log == nil {
		o.Log = func(string, ...any) {}
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.RateLimit <= 0 {
		o.RateLimit = DefaultRateLimit
	}
	return o
}

// Channels builds the configured channels, in the order command, desktop,
// url; o.Extra is not among them. An error names what is wrong with a
// channel's settings (a URL only as Redact shows it).
func (o Options) Channels() ([]Channel, error) {
	o = o.withDefaults()
	var chans []Channel
	if len(o.Command) > 0 {
		c, err := NewCommand(o.Command, o.CommandTimeout)
		if err != nil {
			return nil, err
		}
		chans = append(chans, c)
	}
	if o.Desktop {
		chans = append(chans, NewDesktop(o.Getenv))
	}
	if o.URL != "" {
		w, err := NewWebhook(WebhookOptions{URL: o.URL, Format: o.Format, Clock: o.Clock, OnRetry: o.OnRetry})
		if err != nil {
			return nil, err
		}
		chans = append(chans, w)
	}
	return chans, nil
}
