//go:build linux

package loadtest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/tmux"
)

// roundTrips times n runs of the commands behind a snapshot (list-panes
// for the size, capture-pane for the text), as a tmux process each, which
// is how the daemon's pane terminal runs them, and capture-pane over a
// control client of the pane's session (one that has delivered output,
// so its connection is up).
func (r *rig) roundTrips(t *testing.T, client *tmux.Client, paneID string, n int) string {
	t.Helper()
	ctx := context.Background()
	srv := tmux.Server{Socket: r.tmux.Socket()}
	var b strings.Builder
	for _, probe := range []struct {
		name   string
		runner tmux.Runner
		args   []string
	}{
		{"list-panes, process", srv, []string{"list-panes", "-t", paneID, "-F", "#{pane_id} #{pane_width} #{pane_height}"}},
		{"capture-pane, process", srv, []string{"capture-pane", "-p", "-t", paneID}},
		{"capture-pane, control client", client, []string{"capture-pane", "-p", "-t", paneID}},
	} {
		ds := make([]time.Duration, n)
		for i := range ds {
			start := time.Now()
			if _, err := probe.runner.Run(ctx, probe.args...); err != nil {
				t.Fatalf("%s: %v", probe.name, err)
			}
			ds[i] = time.Since(start)
		}
		fmt.Fprintf(&b, "  %-30s %s\n", probe.name, Summarize(ds))
	}
	return b.String()
}
