package daemon

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
	"syscall"
	"time"
)

// ErrNotRunning means no daemon answers on the socket.
var ErrNotRunning = errors.New("codeman daemon is not running")

// startTimeout bounds how long a client waits for a daemon it started.
const startTimeout = 10 * time.Second

// Client talks to the daemon over its unix socket.
type Client struct {
	http *http.Client
}

// NewClient returns a client for the socket; nothing is dialled yet.
func NewClient(socket string) *Client {
	dial := func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", socket)
	}
	return &Client{http: &http.Client{Transport: &http.Transport{DialContext: dial}}}
}

// Connect returns a client for a running daemon, starting one detached
// (exe daemon) when none answers and exe is not empty.
func Connect(ctx context.Context, paths Paths, exe string) (*Client, error) {
	c := NewClient(paths.Socket)
	if _, err := c.Health(ctx); err == nil {
		return c, nil
	} else if !errors.Is(err, ErrNotRunning) || exe == "" {
		return nil, err
	}
	if err := StartDetached(exe, paths); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	for {
		if _, err := c.Health(ctx); err == nil {
			return c, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("start daemon: no answer on %s within %s; see %s", paths.Socket, startTimeout, paths.Log)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// StartDetached starts `exe daemon` in its own session, with its output
// appended to the daemon log, and does not wait for it.
func StartDetached(exe string, paths Paths) error {
	if err := os.MkdirAll(paths.State, 0o700); err != nil {
		return fmt.Errorf("create state dir: %w", err)
	}
	log, err := os.OpenFile(paths.Log, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("open daemon log: %w", err)
	}
	defer log.Close()
	cmd := exec.Command(exe, "daemon")
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start daemon: %w", err)
	}
	return cmd.Process.Release()
}

// Health asks whether the daemon runs.
func (c *Client) Health(ctx context.Context) (Health, error) {
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

// Events calls fn for each event until ctx ends or fn returns an error.
// pane "" streams every pane.
func (c *Client) Events(ctx context.Context, pane string, fn func(Event) error) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://codeman/v1/events?pane="+url.QueryEscape(pane), nil)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return notRunning(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64*1024), 4<<20)
	for sc.Scan() {
		var e Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return fmt.Errorf("read event: %w", err)
		}
		if err := fn(e); err != nil {
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
	req, err := http.NewRequestWithContext(ctx, method, "http://codeman"+path, body)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return notRunning(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		var e apiError
		if json.NewDecoder(resp.Body).Decode(&e) == nil && e.Error != "" {
			return errors.New(e.Error)
		}
		return fmt.Errorf("daemon answered %s", resp.Status)
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// notRunning turns "no socket" and "connection refused" into ErrNotRunning.
func notRunning(err error) error {
	if errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED) {
		return fmt.Errorf("%w (%v)", ErrNotRunning, err)
	}
	return err
}
