package tmux

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
	"github.com/codeman-dev/codeman/internal/rig/wait"
)

// startClient starts a client and closes it when the test ends.
func startClient(t *testing.T, srv Server, session string, opts ClientOptions) *Client {
	t.Helper()
	c := NewClient(srv, session, opts)
	if err := c.Start(context.Background()); err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	waitConnected(t, c, 5*time.Second)
	return c
}

// waitConnected waits until c has a live control connection.
func waitConnected(t *testing.T, c *Client, timeout time.Duration) {
	t.Helper()
	wait.For(t, "the control connection", timeout, func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.conn != nil
	})
}

// waitControlClient waits until the server lists a control-mode client
// other than the one with pid except, and returns its pid.
func waitControlClient(t *testing.T, ts *tmuxtest.Server, timeout time.Duration, except int) int {
	t.Helper()
	var pid int
	wait.For(t, "a control-mode client on the server", timeout, func() bool {
		for _, line := range strings.Split(ts.Tmux("list-clients", "-F", "#{client_control_mode} #{client_pid}"), "\n") {
			mode, p, _ := strings.Cut(line, " ")
			if n, err := strconv.Atoi(p); mode == "1" && err == nil && n != except {
				pid = n
				return true
			}
		}
		return false
	})
	return pid
}

// collector gathers the output a subscriber receives.
type collector struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	chunks int
	times  []time.Time
}

func (c *collector) add(data []byte, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf.Write(data)
	c.chunks++
	c.times = append(c.times, at)
}

func (c *collector) bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]byte(nil), c.buf.Bytes()...)
}

// waitFor waits until the collected output contains want.
func (c *collector) waitFor(t *testing.T, want string, timeout time.Duration) {
	t.Helper()
	err := wait.Until(fmt.Sprintf("output %q", want), timeout, func() bool { return bytes.Contains(c.bytes(), []byte(want)) })
	if err != nil {
		got := c.bytes()
		t.Fatalf("%v; got %d bytes, ending %q", err, len(got), got[max(0, len(got)-300):])
	}
}

func (c *collector) chunkCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.chunks
}

// waitQuiet waits until no output has arrived for quiet.
func (c *collector) waitQuiet(t *testing.T, quiet, timeout time.Duration) {
	t.Helper()
	last, since := -1, time.Now()
	wait.For(t, fmt.Sprintf("%s without output", quiet), timeout, func() bool {
		if n := len(c.bytes()); n != last {
			last, since = n, time.Now()
			return false
		}
		return time.Since(since) >= quiet
	})
}

// logBuffer is a slog handler target that tests can read.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func (l *logBuffer) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}
