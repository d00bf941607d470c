package tmux

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
)

// Client defaults.
const (
	// DefaultPauseAfter is how far behind (in whole seconds) tmux lets a
	// pane's output fall before it pauses the pane for this client. 5s.
	DefaultPauseAfter = 5 * time.Second
	// DefaultBackoffMin is the first wait before reconnecting. 500ms.
	DefaultBackoffMin = 500 * time.Millisecond
	// DefaultBackoffMax caps the doubling wait. 30s.
	DefaultBackoffMax = 30 * time.Second
	// DefaultMaxFailures is how many short-lived connections in a row
	// switch the client to capture-pane polling. 5.
	DefaultMaxFailures = 5
	// DefaultStableAfter is how long a connection must last to reset the
	// failure count. 1m.
	DefaultStableAfter = time.Minute
	// DefaultPollInterval is the capture interval in polling mode. 1s.
	DefaultPollInterval = time.Second
	// DefaultRetryControl is how often polling mode tries control mode
	// again. 1m.
	DefaultRetryControl = time.Minute
	// DefaultConnectTimeout bounds the wait for tmux to accept the
	// attach. 5s.
	DefaultConnectTimeout = 5 * time.Second
	// DefaultReadPace is the least time between two reads of a control
	// stream while output trickles in. 25ms.
	DefaultReadPace = 25 * time.Millisecond
)

// ModeControl is what Mode returns while the control connection is used.
const ModeControl = "control"

// ClientOptions tunes a Client. Zero values mean the defaults.
type ClientOptions struct {
	PauseAfter     time.Duration // see DefaultPauseAfter
	BackoffMin     time.Duration // see DefaultBackoffMin
	BackoffMax     time.Duration // see DefaultBackoffMax
	MaxFailures    int           // see DefaultMaxFailures
	StableAfter    time.Duration // see DefaultStableAfter
	PollInterval   time.Duration // see DefaultPollInterval
	RetryControl   time.Duration // see DefaultRetryControl
	ConnectTimeout time.Duration // see DefaultConnectTimeout (real time)
	// ReadPace spaces the reads of the control stream (see pacedReader):
	// output is seen up to this much later, in return for far fewer
	// wake-ups. Default DefaultReadPace; negative reads as output comes.
	ReadPace time.Duration
	// ServerVersion is the server's #{version} when the caller has read
	// it already (PaneInfo.Version); Start then does not ask again.
	ServerVersion string

	// Clock times backoff, polling and output arrival. Default real.
	Clock clockwork.Clock
	// Logger gets mode changes and reconnects. Default discards.
	Logger *slog.Logger
	// Notify, when set, is called on the reader goroutine for every
	// event other than output and replies: %pause, %continue, %exit,
	// %window-close, %session-changed, and so on. It must not block.
	Notify func(Event)
}

func (o ClientOptions) withDefaults() ClientOptions {
	setDuration(&o.PauseAfter, DefaultPauseAfter)
	setDuration(&o.BackoffMin, DefaultBackoffMin)
	setDuration(&o.BackoffMax, DefaultBackoffMax)
	setDuration(&o.StableAfter, DefaultStableAfter)
	setDuration(&o.PollInterval, DefaultPollInterval)
	setDuration(&o.RetryControl, DefaultRetryControl)
	setDuration(&o.ConnectTimeout, DefaultConnectTimeout)
	if o.ReadPace == 0 {
		o.ReadPace = DefaultReadPace
	}
	if o.MaxFailures <= 0 {
		o.MaxFailures = DefaultMaxFailures
	}
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return o
}

func setDuration(d *time.Duration, def time.Duration) {
	if *d <= 0 {
		*d = def
	}
}

// Client watches one tmux session through a control-mode client and hands
// each pane's output, with its arrival time, to subscribers. When control
// mode keeps failing it polls the subscribed panes with capture-pane
// instead and says so in Mode.
//
// Event flow:
//
//	tmux -C ──lines──> conn.read (Parser) ──%output──> subscribers
//	                        │ %pause ──> redraw to subscribers, refresh-client -A continue
//	                        └ %begin..%end ──> the Run call waiting for it
//	Client.run: connect ─ serve until %exit/EOF ─ backoff ─ ... ─ poll
type Client struct {
	srv     Server
	session string
	opts    ClientOptions
	log     *slog.Logger
	clock   clockwork.Clock
	dial    func(ctx context.Context) (*conn, error) // replaced by tests

	mu          sync.Mutex
	subs        map[string][]*subscription
	conn        *conn  // the live connection; nil while reconnecting or polling
	mode        string // ModeControl or "polling: <reason>"
	pollReason  string // the reason last logged for polling
	cancel      context.CancelFunc
	wg          sync.WaitGroup
	startCalled bool
	version     *Version // the server's, read by Start
}

type subscription struct {
	fn func(data []byte, at time.Time)
}

// NewClient returns a client for session on srv. Nothing runs until Start.
func NewClient(srv Server, session string, opts ClientOptions) *Client {
	opts = opts.withDefaults()
	c := &Client{
		srv: srv, session: session, opts: opts,
		log:   opts.Logger.With(logKeySocket, srv.Socket, logKeySession, session),
		clock: opts.Clock,
		subs:  make(map[string][]*subscription),
		mode:  ModeControl,
	}
	c.dial = c.connect
	return c
}

// Start checks that the session exists and starts the client's goroutine;
// ctx bounds its life, Close ends it sooner. The first control connection
// is made here, so commands go over it as soon as Start returns; when it
// fails, Start asks tmux whether the session exists, and the goroutine
// retries as after any failure. On a server older than tmux 3.2 the client
// polls from the start.
func (c *Client) Start(ctx context.Context) error {
	c.mu.Lock()
	if c.startCalled {
		c.mu.Unlock()
		return fmt.Errorf("start tmux client for session %s: already started", c.session)
	}
	c.startCalled = true
	c.mu.Unlock()
	noControl := c.checkServerVersion(ctx)
	var first *conn
	var firstErr error
	if noControl == nil {
		first, firstErr = c.dial(ctx)
	}
	if first == nil {
		if _, err := c.srv.Run(ctx, "has-session", "-t", "="+c.session); err != nil {
			return fmt.Errorf("start tmux client for session %s: %w", c.session, err)
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	c.mu.Lock()
	c.cancel = cancel
	c.mu.Unlock()
	if first != nil {
		c.setConn(first) // before Start returns: Run uses it at once
	}
	c.wg.Add(1)
	go c.run(ctx, noControl, first, firstErr)
	return nil
}

// checkServerVersion returns why control mode cannot be used, or nil.
func (c *Client) checkServerVersion(ctx context.Context) error {
	v, err := c.opts.ServerVersion, error(nil)
	if v == "" {
		v, err = c.srv.Version(ctx)
	}
	if err == nil {
		err = CheckVersion(v)
	}
	if pv, perr := ParseVersion(v); err == nil && perr == nil {
		c.mu.Lock()
		c.version = &pv
		c.mu.Unlock()
	}
	return err
}

// ServerVersion returns the server's version as Start read it, so that
// what depends on the release costs no command; ok is false before Start
// or when it could not be read.
func (c *Client) ServerVersion() (v Version, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.version == nil {
		return Version{}, false
	}
	return *c.version, true
}

// Close stops the client and returns once its goroutines are gone.
func (c *Client) Close() error {
	c.mu.Lock()
	cancel := c.cancel
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	c.wg.Wait()
	return nil
}

// Connected reports whether a control connection is up now, so that Run
// costs no tmux process.
func (c *Client) Connected() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.conn != nil
}

// Mode returns "control" while output comes from the control client
// (also while it reconnects), or "polling: <reason>" after control mode
// failed too often.
func (c *Client) Mode() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.mode
}

// Subscribe calls fn with every chunk of paneID's output and the time it
// arrived (for %extended-output, minus the time tmux held it). In polling
// mode a chunk is a redraw of the whole screen. fn runs on the client's
// reader goroutine: it must not block for long (a slow subscriber makes
// tmux pause the pane), must not modify data, and must copy what it keeps
// of it: the next chunk reuses its bytes. Output only arrives for panes in
// the client's session.
func (c *Client) Subscribe(paneID string, fn func(data []byte, at time.Time)) (unsubscribe func()) {
	s := &subscription{fn: fn}
	c.mu.Lock()
	c.subs[paneID] = append(c.subs[paneID], s)
	c.mu.Unlock()
	var once sync.Once
	return func() { once.Do(func() { c.unsubscribe(paneID, s) }) }
}

func (c *Client) unsubscribe(paneID string, s *subscription) {
	c.mu.Lock()
	defer c.mu.Unlock()
	list := c.subs[paneID]
	for i, x := range list {
		if x == s {
			list = append(list[:i:i], list[i+1:]...)
			break
		}
	}
	if len(list) == 0 {
		delete(c.subs, paneID)
		return
	}
	c.subs[paneID] = list
}

func (c *Client) deliver(paneID string, data []byte, at time.Time) {
	c.mu.Lock()
	list := c.subs[paneID]
	c.mu.Unlock()
	for _, s := range list {
		s.fn(data, at)
	}
}

// subscribedPanes returns the panes that have subscribers.
func (c *Client) subscribedPanes() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	panes := make([]string, 0, len(c.subs))
	for p := range c.subs {
		panes = append(panes, p)
	}
	return panes
}

// Run runs one tmux command over the control connection, or as a tmux
// process while there is none, and always for if-shell. It implements
// Runner.
func (c *Client) Run(ctx context.Context, args ...string) (string, error) {
	c.mu.Lock()
	cn := c.conn
	c.mu.Unlock()
	if cn == nil || len(args) > 0 && args[0] == "if-shell" {
		// tmux answers if-shell on a control connection with a reply of
		// its own and another for the command it runs, when it runs one:
		// replies could no longer be matched to commands in order.
		return c.srv.Run(ctx, args...)
	}
	line, err := controlLine(args)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, DefaultExecTimeout)
	defer cancel()
	r, err := cn.command(ctx, line, args[0] == "refresh-client")
	if err != nil {
		return "", fmt.Errorf("run tmux %s over control client: %w", args[0], err)
	}
	out := joinReplyLines(r.Lines)
	if r.Failed {
		return out, &CommandError{Command: args[0], Socket: c.srv.Socket, Message: strings.Join(r.Lines, "; ")}
	}
	return out, nil
}

// joinReplyLines gives reply lines the shape a tmux process prints.
func joinReplyLines(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}
