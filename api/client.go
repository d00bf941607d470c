package api

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/codeman-dev/codeman/respawn"
)

// ErrNotRunning means no daemon answers on the socket.
var ErrNotRunning = errors.New("codeman daemon is not running")

// ErrRunning means another daemon holds the lock.
var ErrRunning = errors.New("a codeman daemon is already running")

// Client deadlines: the CLI never hangs on the daemon.
const (
	// startTimeout bounds how long a client waits for a daemon it started.
	startTimeout = 10 * time.Second
	// requestTimeout bounds each request that has no deadline of its own.
	// An attach waits for the daemon's adoption and the pane's backend.
	requestTimeout = 30 * time.Second
	// headerTimeout bounds the wait for the answer to an event stream.
	headerTimeout = 30 * time.Second
	// maxDeadlineMargin is the most by which the deadline a request gives
	// the daemon comes before the client's own (a tenth of the time comes
	// before a shorter one), so that an answer made just in time still
	// reaches a client that waits for it.
	maxDeadlineMargin = 250 * time.Millisecond
)

// ReadyFDEnv names the descriptor on which a daemon started by Connect
// says whether it listens: "ready" or "error: ..." and a newline.
const ReadyFDEnv = "CODEMAN_READY_FD"

// Error is an error the daemon answered with. It matches
// ErrNotControlled and ErrNotOwner by its status code, so callers test
// with errors.Is, never by text.
type Error struct {
	Code    int
	Message string
}

func (e *Error) Error() string { return e.Message }

func (e *Error) Is(target error) bool {
	switch target {
	case ErrNotControlled:
		return e.Code == http.StatusNotFound
	case ErrNotOwner:
		return e.Code == http.StatusConflict
	}
	return false
}

// Client talks to the daemon over its unix socket.
type Client struct {
	http   *http.Client
	socket string
	probe  time.Duration // the health probe's timeout
}

// NewClient returns a client for the socket; nothing is dialled yet.
func NewClient(socket string) *Client {
	dial := func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", socket)
	}
	return &Client{
		http:   &http.Client{Transport: &http.Transport{DialContext: dial, ResponseHeaderTimeout: headerTimeout}},
		socket: socket, probe: ProbeTimeout,
	}
}

// Connect returns a client for the user's running daemon, starting one
// detached (exe daemon) when none answers and exe is not empty. A daemon
// of the user listening on another socket (started from an environment
// with another runtime dir) is found through the user lock.
func Connect(ctx context.Context, paths Paths, exe string) (*Client, error) {
	c, err := find(ctx, paths)
	if err == nil || !errors.Is(err, ErrNotRunning) || exe == "" {
		return c, err
	}
	ready, err := StartDetached(exe, paths)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	if err := waitReady(ctx, ready); err != nil && !errors.Is(err, ErrRunning) {
		return nil, fmt.Errorf("start daemon: %w; see %s", err, paths.Log)
	}
	// Ready, or another client's daemon won the lock: it answers soon.
	for wait := 2 * time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		if c, err := find(ctx, paths); err == nil {
			return c, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("start daemon: no answer on %s within %s; see %s", paths.Socket, startTimeout, paths.Log)
		case <-time.After(wait):
		}
	}
}

// find returns a client of the daemon that answers on the socket, or on
// the socket the user lock names.
func find(ctx context.Context, paths Paths) (*Client, error) {
	c := NewClient(paths.Socket)
	_, err := c.Health(ctx)
	if err == nil || !errors.Is(err, ErrNotRunning) {
		return c, err
	}
	if info, ok := FindRunning(paths.UserLock); ok && info.Socket != paths.Socket {
		other := NewClient(info.Socket)
		if _, err := other.Health(ctx); err == nil {
			return other, nil
		}
	}
	return nil, err
}

// waitReady reads the started daemon's word on the ready pipe.
func waitReady(ctx context.Context, ready *os.File) error {
	defer ready.Close()
	got := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(io.LimitReader(ready, 64<<10))
		got <- string(b)
	}()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case word := <-got:
		switch msg, isErr := strings.CutPrefix(strings.TrimSpace(word), "error: "); {
		case word == "ready\n":
			return nil
		case isErr && strings.Contains(msg, ErrRunning.Error()):
			return fmt.Errorf("%w: %s", ErrRunning, msg)
		case isErr:
			return errors.New(msg)
		}
		return errors.New("the daemon exited before it listened")
	}
}

// StartDetached starts `exe daemon` in its own session, with its output
// appended to the daemon log, and does not wait for it. The daemon says on
// the returned pipe whether it listens (ReadyFDEnv); the caller closes it.
func StartDetached(exe string, paths Paths) (*os.File, error) {
	if err := os.MkdirAll(paths.State, 0o700); err != nil {
		return nil, fmt.Errorf("create state dir: %w", err)
	}
	log, err := os.OpenFile(paths.Log, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open daemon log: %w", err)
	}
	defer log.Close()
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start daemon: %w", err)
	}
	defer w.Close()
	cmd := exec.Command(exe, "daemon")
	cmd.Stdout, cmd.Stderr = log, log
	cmd.ExtraFiles = []*os.File{w} // descriptor 3
	cmd.Env = append(os.Environ(), ReadyFDEnv+"=3")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		r.Close()
		return nil, fmt.Errorf("start daemon: %w", err)
	}
	// Reap it when it exits early, so the ready pipe's EOF is the only
	// word a failed start leaves.
	go cmd.Wait()
	return r, nil
}

// Health asks whether the daemon runs. It gives up within ProbeTimeout,
// whatever ctx allows: a daemon that is stopped or stuck is a
// *NotAnsweringError that says so.
func (c *Client) Health(ctx context.Context) (Health, error) {
	ctx, cancel := context.WithTimeout(ctx, c.probe)
	defer cancel()
	var h Health
	err := c.do(ctx, http.MethodGet, "/v1/health", nil, &h)
	return h, err
}

// Attach enables a pane.
func (c *Client) Attach(ctx context.Context, req AttachRequest) (PaneStatus, error) {
	var st PaneStatus
	err := c.do(ctx, http.MethodPost, "/v1/panes", req, &st)
	return st, err
}

// Toggle enables a pane that is off and disables one that is on, in one
// request.
func (c *Client) Toggle(ctx context.Context, req AttachRequest) (ToggleResult, error) {
	var res ToggleResult
	err := c.do(ctx, http.MethodPost, "/v1/panes/toggle", req, &res)
	return res, err
}

// Pause pauses a controlled pane (paused) or resumes it, and returns its
// status after.
func (c *Client) Pause(ctx context.Context, pane string, paused bool) (PaneStatus, error) {
	var st PaneStatus
	err := c.do(ctx, http.MethodPost, "/v1/panes/pause", PauseRequest{Pane: pane, Paused: paused}, &st)
	return st, err
}

// Answer types a person's choice into the dialog of a pane's need; the
// daemon refuses it unless that dialog is still on screen
// (respawn.Controller.Answer).
func (c *Client) Answer(ctx context.Context, req AnswerRequest) (respawn.Answered, error) {
	var got respawn.Answered
	err := c.do(ctx, http.MethodPost, "/v1/panes/answer", req, &got)
	return got, err
}

// Detach disables a pane.
func (c *Client) Detach(ctx context.Context, pane string) error {
	return c.do(ctx, http.MethodDelete, "/v1/panes?pane="+url.QueryEscape(pane), nil, nil)
}

// Panes returns every controlled pane.
func (c *Client) Panes(ctx context.Context) ([]PaneStatus, error) {
	var st []PaneStatus
	err := c.do(ctx, http.MethodGet, "/v1/panes", nil, &st)
	return st, err
}

// Pane returns one pane with up to decisions of its decisions.
func (c *Client) Pane(ctx context.Context, pane string, decisions int) (PaneStatus, error) {
	return c.pane(ctx, pane, decisions, "")
}

// Explain is Pane with the pane's screen read now (PaneStatus.Live).
func (c *Client) Explain(ctx context.Context, pane string, decisions int) (PaneStatus, error) {
	return c.pane(ctx, pane, decisions, "&screen=now")
}

func (c *Client) pane(ctx context.Context, pane string, decisions int, extra string) (PaneStatus, error) {
	var st PaneStatus
	err := c.do(ctx, http.MethodGet, fmt.Sprintf("/v1/panes?pane=%s&decisions=%d%s", url.QueryEscape(pane), decisions, extra), nil, &st)
	return st, err
}

// Record calls fn for each event of a pane's recording until ctx ends or
// fn returns an error.
func (c *Client) Record(ctx context.Context, pane string, fn func(RecordEvent) error) error {
	return c.stream(ctx, "/v1/record?pane="+url.QueryEscape(pane), nil, func(line []byte) error {
		var ev RecordEvent
		if err := json.Unmarshal(line, &ev); err != nil {
			return fmt.Errorf("read recording: %w", err)
		}
		return fn(ev)
	})
}

// Events calls fn for each event until ctx ends or fn returns an error.
// pane "" streams every pane.
func (c *Client) Events(ctx context.Context, pane string, fn func(Event) error) error {
	return c.Follow(ctx, pane, nil, fn)
}

// Follow is Events that calls opened, when not nil, once the daemon has
// subscribed the stream and before the first event: a caller that reads
// the panes then misses no change made after it read them.
func (c *Client) Follow(ctx context.Context, pane string, opened func(), fn func(Event) error) error {
	return c.stream(ctx, "/v1/events?pane="+url.QueryEscape(pane), opened, func(line []byte) error {
		var e Event
		if err := json.Unmarshal(line, &e); err != nil {
			return fmt.Errorf("read event: %w", err)
		}
		return fn(e)
	})
}

// stream calls fn with each line of a JSON-lines answer until ctx ends,
// after opened (when not nil) once the answer's header has come. An error
// answer is returned as an *Error.
func (c *Client) stream(ctx context.Context, path string, opened func(), fn func(line []byte) error) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://codeman"+path, nil)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return notAnswering(notRunning(err), c.socket, headerTimeout)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		var e ErrorBody
		if json.NewDecoder(resp.Body).Decode(&e) != nil || e.Error == "" {
			e.Error = "daemon answered " + resp.Status
		}
		return &Error{Code: resp.StatusCode, Message: e.Error}
	}
	if opened != nil {
		opened()
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		if err := fn(sc.Bytes()); err != nil {
			return err
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	return sc.Err()
}

func (c *Client) do(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, requestTimeout)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://codeman"+path, body)
	if err != nil {
		return err
	}
	deadline, _ := ctx.Deadline()
	sent := time.Now()
	req.Header.Set(DeadlineHeader, daemonDeadline(sent, deadline).UTC().Format(time.RFC3339Nano))
	resp, err := c.http.Do(req)
	if err != nil {
		return notAnswering(notRunning(err), c.socket, deadline.Sub(sent))
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		var e ErrorBody
		if json.NewDecoder(resp.Body).Decode(&e) != nil || e.Error == "" {
			e.Error = "daemon answered " + resp.Status
		}
		return &Error{Code: resp.StatusCode, Message: e.Error}
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// daemonDeadline is the deadline a request sent at now gives the daemon
// when the client waits until deadline: a little earlier, so that the
// answer has time to come back. The daemon does nothing for a request
// whose deadline has passed, so a request the client gave up on, and said
// so, does not take effect later: a daemon stopped with kill -STOP reads
// it only once continued.
func daemonDeadline(now, deadline time.Time) time.Time {
	return deadline.Add(-min(deadline.Sub(now)/10, maxDeadlineMargin))
}

// notRunning turns "no socket" and "connection refused" into ErrNotRunning.
func notRunning(err error) error {
	if errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED) {
		return fmt.Errorf("%w (%v)", ErrNotRunning, err)
	}
	return err
}
