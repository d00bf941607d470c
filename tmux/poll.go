package tmux

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/codeman-dev/codeman/respawn"
)

// poll is polling mode: every PollInterval it captures each subscribed
// pane and hands a changed screen to the subscribers as a redraw. It
// returns after RetryControl, for the caller to try control mode again,
// or when ctx is done. *screens holds the last screen delivered per pane;
// a nil map is made, and a pane not in it gets a redraw at once.
func (c *Client) poll(ctx context.Context, reason error, screens *map[string]string) {
	mode := "polling: " + reason.Error()
	c.mu.Lock()
	c.mode = mode
	repeat := c.pollReason == mode
	c.pollReason = mode
	c.mu.Unlock()
	if !repeat {
		// Logged once per reason, not on every retry of control mode.
		c.log.Warn("tmux control mode unavailable; polling panes with capture-pane",
			logKeyReason, reason, logKeyInterval, c.opts.PollInterval)
	}
	retryAt := c.clock.Now().Add(c.opts.RetryControl)
	if *screens == nil {
		*screens = make(map[string]string)
	}
	for {
		// A fresh timer per round, not a ticker: a slow poll never stacks
		// up ticks, and tests on a fake clock can tell when a round is over.
		if respawn.Sleep(ctx, c.clock, c.opts.PollInterval) != nil {
			return
		}
		c.pollPanes(ctx, *screens)
		if !c.clock.Now().Before(retryAt) {
			return
		}
	}
}

// pollPanes delivers a redraw for every subscribed pane whose screen
// changed since the last poll; the first poll of a pane always does,
// since it may have changed while nobody watched.
func (c *Client) pollPanes(ctx context.Context, screens map[string]string) {
	for _, pane := range c.subscribedPanes() {
		data, err := c.srv.redraw(ctx, pane)
		if err != nil {
			c.log.Debug("poll pane", logKeyPane, pane, logKeyErr, err)
			continue
		}
		if prev, ok := screens[pane]; ok && prev == string(data) {
			continue
		}
		screens[pane] = string(data)
		c.deliver(pane, data, c.clock.Now())
	}
}

// redraw returns terminal output that paints paneID's current screen, with
// colours, on a terminal of the pane's size: clear, the rows, the cursor.
func (s Server) redraw(ctx context.Context, paneID string) ([]byte, error) {
	out, err := s.exec(ctx, nil,
		"capture-pane", "-p", "-e", "-t", paneID, ";",
		"display-message", "-p", "-t", paneID, "#{cursor_x} #{cursor_y}")
	if err != nil {
		return nil, fmt.Errorf("capture pane %s: %w", paneID, err)
	}
	rows := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	x, y, err := parseSize(rows[len(rows)-1])
	if err != nil {
		return nil, fmt.Errorf("capture pane %s: cursor: %w", paneID, err)
	}
	var b strings.Builder
	b.WriteString("\x1b[0m\x1b[H\x1b[2J") // reset attributes, home, clear
	b.WriteString(strings.Join(rows[:len(rows)-1], "\r\n"))
	b.WriteString("\x1b[0m\x1b[" + strconv.Itoa(y+1) + ";" + strconv.Itoa(x+1) + "H")
	return []byte(b.String()), nil
}
