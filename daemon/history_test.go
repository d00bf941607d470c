package daemon

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/daemon/history"
	"github.com/codeman-dev/codeman/respawn"
)

// Every event of a pane reaches its history, across a daemon restart: the
// first daemon's attach, decisions and detach, then the adoption by the
// next one, in order.
func TestDaemon_HistorySurvivesRestart(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	addr, log := r.session("work", "hello")
	r.attach(addr)
	r.waitFor("the update prompt", 30*time.Second, func() bool { return len(submits(t, log)) >= 1 })
	r.stopDaemon()
	r.start()
	if panes, err := r.client.Panes(context.Background()); err != nil || len(panes) != 1 {
		t.Fatalf("adopted %+v, %v", panes, err)
	}
	r.stopDaemon()

	dir := HistoryDir(func(k string) string { return r.env[k] })
	recs, err := history.Read(dir, addr, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	sentUpdate := false
	for _, rec := range recs {
		if rec.Kind != history.KindDecision {
			kinds = append(kinds, rec.String())
		}
		sentUpdate = sentUpdate || (rec.Decision != nil && rec.Decision.Kind == respawn.DecisionSend && rec.Decision.Step == respawn.StepUpdate)
	}
	const attach = "attach: profile default, agent claude (recognized: the pane runs \"claude\")"
	want := []string{attach, "detach: daemon stopping", attach, "detach: daemon stopping"}
	if !slices.Equal(kinds, want) || !sentUpdate {
		t.Fatalf("history of %s: events %q (want %q), update sent %t", addr, kinds, want, sentUpdate)
	}
	if recs[1].Decision == nil || recs[1].Decision.Reason != "started" || recs[1].State != "watching" {
		t.Errorf("second record %+v, want the controller started, state watching", recs[1])
	}
}
