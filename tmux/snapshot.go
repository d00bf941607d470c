package tmux

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/codeman-dev/codeman/respawn"
)

// Snapshot captures the visible screen of the pane with its size. Trailing
// spaces are removed from each row; other blanks, such as the no-break
// space after Claude's ❯ prompt, are kept.
func (t *PaneTerminal) Snapshot(ctx context.Context) (respawn.Screen, error) {
	if err := t.checkPane(); err != nil {
		return respawn.Screen{}, err
	}
	width, height, err := t.size(ctx)
	if err != nil {
		return respawn.Screen{}, fmt.Errorf("snapshot pane %s: %w", t.pane, err)
	}
	text, err := t.captureText(ctx)
	if err != nil {
		return respawn.Screen{}, fmt.Errorf("snapshot pane %s: %w", t.pane, err)
	}
	s := respawn.Screen{Lines: screenLines(text), Width: width, Height: height, At: t.opts.Clock.Now()}
	t.opts.Timing.Prompt.Observe(s) // what the controller sees tells Submit whether vim is on
	return s, nil
}

// size returns the pane's width and height. It asks list-panes, which
// fails on a pane that is gone, where display-message would fall back to
// another pane.
func (t *PaneTerminal) size(ctx context.Context) (int, int, error) {
	out, err := t.opts.Runner.Run(ctx, "list-panes", "-t", t.pane, "-F", "#{pane_id} #{pane_width} #{pane_height}")
	if err != nil {
		return 0, 0, fmt.Errorf("read size: %w", err)
	}
	for _, line := range strings.Split(out, "\n") {
		if id, size, ok := strings.Cut(line, " "); ok && id == t.pane {
			return parseSize(size)
		}
	}
	return 0, 0, fmt.Errorf("read size: list-panes does not list %s", t.pane)
}

// captureText returns the visible screen as capture-pane prints it.
func (t *PaneTerminal) captureText(ctx context.Context) (string, error) {
	out, err := t.opts.Runner.Run(ctx, "capture-pane", "-p", "-t", t.pane)
	if err != nil {
		return "", fmt.Errorf("capture: %w", err)
	}
	return out, nil
}

// screenLines splits capture-pane output into rows without trailing spaces.
func screenLines(text string) []string {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return lines
}

// parseSize reads "WIDTH HEIGHT".
func parseSize(s string) (int, int, error) {
	ws, hs, _ := strings.Cut(strings.TrimSpace(s), " ")
	w, err1 := strconv.Atoi(ws)
	h, err2 := strconv.Atoi(hs)
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("read pane size from %q: want WIDTH HEIGHT", s)
	}
	return w, h, nil
}
