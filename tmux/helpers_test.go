package tmux

import (
	"bytes"
	"context"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/tmuxtest"
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
	waitUntil(t, timeout, "the control connection", func() bool {
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
	waitUntil(t, timeout, "a control-mode client on the server", func() bool {
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

// waitUntil polls cond until it holds or timeout passes.
func waitUntil(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", timeout, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
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
	deadline := time.Now().Add(timeout)
	for !bytes.Contains(c.bytes(), []byte(want)) {
		if time.Now().After(deadline) {
			got := c.bytes()
			t.Fatalf("timed out after %s waiting for output %q; got %d bytes, ending %q",
				timeout, want, len(got), got[max(0, len(got)-300):])
		}
		time.Sleep(10 * time.Millisecond)
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
	deadline := time.Now().Add(timeout)
	last, since := -1, time.Now()
	for {
		n := len(c.bytes())
		switch {
		case n != last:
			last, since = n, time.Now()
		case time.Since(since) >= quiet:
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("output still flowing after %s (%d bytes)", timeout, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
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
