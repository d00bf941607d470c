package tmux

import (
	"context"
	"time"

	"github.com/codeman-dev/codeman/respawn"
)

// run is the client's goroutine: it keeps a control connection up,
// reconnecting with backoff, and polls when control mode keeps failing
// or cannot work at all (noControl). Start made the first connection, or
// failed to (first, firstErr), unless noControl.
func (c *Client) run(ctx context.Context, noControl error, first *conn, firstErr error) {
	defer c.wg.Done()
	var failures int
	var lastErr error
	// The screens polling last delivered, kept across failed retries of
	// control mode so that a retry does not look like output.
	var screens map[string]string
	for ctx.Err() == nil {
		if noControl != nil {
			c.poll(ctx, noControl, &screens)
			continue
		}
		if failures >= c.opts.MaxFailures {
			c.poll(ctx, lastErr, &screens) // returns when it is time to try control mode again
			if ctx.Err() != nil {
				return
			}
		}
		dial := c.dial
		if cn, err := first, firstErr; cn != nil || err != nil {
			dial = func(context.Context) (*conn, error) { return cn, err }
			first, firstErr = nil, nil
		}
		connected, up, err := c.serveOnce(ctx, dial)
		if ctx.Err() != nil {
			return
		}
		if connected {
			screens = nil // subscribers saw output since the last poll
		}
		if up >= c.opts.StableAfter {
			failures = 0
		}
		failures++
		lastErr = err
		wait := c.backoff(failures)
		if failures >= c.opts.MaxFailures {
			wait = 0 // polling takes over at once
		}
		c.log.Warn("tmux control client ended", logKeyErr, err, logKeyFailures, failures, logKeyRetryIn, wait)
		if wait > 0 && respawn.Sleep(ctx, c.clock, wait) != nil {
			return
		}
	}
}

// backoff returns the wait after the n-th failure in a row: BackoffMin,
// doubling, capped at BackoffMax.
func (c *Client) backoff(n int) time.Duration {
	d := c.opts.BackoffMin
	for i := 1; i < n && d < c.opts.BackoffMax; i++ {
		d *= 2
	}
	return min(d, c.opts.BackoffMax)
}

// serveOnce connects and serves until the connection ends or ctx is done.
// It says whether a connection came up and for how long.
func (c *Client) serveOnce(ctx context.Context, dial func(context.Context) (*conn, error)) (connected bool, up time.Duration, err error) {
	cn, err := dial(ctx)
	if err != nil {
		return false, 0, err
	}
	start := c.clock.Now()
	c.setConn(cn)
	select {
	case <-cn.done:
	case <-ctx.Done():
	}
	c.setConn(nil)
	cn.close()
	return true, c.clock.Since(start), cn.err
}

// connect starts a control client and waits for tmux to accept it.
func (c *Client) connect(ctx context.Context) (*conn, error) {
	cn, err := startConn(c.srv, c.session, c.opts.PauseAfter, c.opts.ReadPace, c.handle)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.opts.ConnectTimeout)
	defer cancel()
	if err := cn.waitReady(ctx); err != nil {
		cn.close()
		return nil, err
	}
	return cn, nil
}

// setConn installs or clears the live connection; installing one also
// ends polling mode.
func (c *Client) setConn(cn *conn) {
	c.mu.Lock()
	if cn != nil && c.conn == cn {
		c.mu.Unlock()
		return // Start installed it already
	}
	c.conn = cn
	wasPolling := cn != nil && c.mode != ModeControl
	if cn != nil {
		c.mode = ModeControl
		c.pollReason = ""
	}
	c.mu.Unlock()
	switch {
	case wasPolling:
		c.log.Info("tmux control mode is back; polling stopped", logKeyPID, cn.pid())
	case cn != nil:
		c.log.Debug("tmux control client attached", logKeyPID, cn.pid())
	}
}

// handle takes every event but replies from the reader goroutine.
func (c *Client) handle(cn *conn, ev Event) {
	switch ev.Kind {
	case EventOutput:
		c.deliver(ev.Pane, ev.Data, c.clock.Now().Add(-ev.Age))
		return
	case EventPause:
		c.resume(cn, ev.Pane)
	case EventExit:
		// run logs the end with tmux's reason; this marks when it came.
		c.log.Debug("tmux control client leaving", logKeyReason, ev.Reason)
	case EventNotification:
		if ev.Name == "parse-error" {
			c.log.Warn("tmux control stream", logKeyErr, ev.Args)
		}
	}
	if c.opts.Notify != nil {
		c.opts.Notify(ev)
	}
}

// resume answers %pause. tmux dropped the output it held for the pane, so
// subscribers first get a redraw of the current screen (a terminal
// emulator fed from output would otherwise stay wrong), then the pane is
// continued. The redraw runs as a tmux process: a command on this
// connection could not be answered while its reader waits here.
func (c *Client) resume(cn *conn, paneID string) {
	c.log.Debug("tmux paused pane output", logKeyPane, paneID)
	c.mu.Lock()
	_, subscribed := c.subs[paneID]
	c.mu.Unlock()
	if subscribed {
		data, err := c.srv.redraw(context.Background(), paneID)
		if err != nil {
			c.log.Debug("redraw paused pane", logKeyPane, paneID, logKeyErr, err)
		} else {
			c.deliver(paneID, data, c.clock.Now())
		}
	}
	line, err := controlLine([]string{"refresh-client", "-A", paneID + ":continue"})
	if err == nil {
		err = cn.send(line, pendingCommand{relay: true})
	}
	if err != nil {
		c.log.Warn("continue paused pane", logKeyPane, paneID, logKeyErr, err)
	}
}
