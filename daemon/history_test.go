package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/history"
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

	dir := api.HistoryDir(func(k string) string { return r.env[k] })
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

// A history dir replaced by a file while the daemon runs shows in its
// Health, naming the dir and the error, and is logged once however many
// events fail; with the dir back, writes resume and Health says when.
func TestDaemon_HistoryWriteFailureInHealth(t *testing.T) {
	t.Parallel()
	var logged syncBuffer
	d := New(Options{Paths: api.Paths{State: t.TempDir()}, Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	stop := d.startHistory()
	defer stop()
	dir := d.opts.Paths.History()
	const pane = "tmux:/tmp/tmux-1000/default:%3"
	event := func(reason string) {
		d.hub.publish(api.Event{At: time.Now(), Pane: pane, Kind: "needs-you", Reason: reason})
	}
	health := func() api.Health {
		rec := httptest.NewRecorder()
		d.routes().ServeHTTP(rec, httptest.NewRequest("GET", "/v1/health", nil))
		var h api.Health
		if err := json.Unmarshal(rec.Body.Bytes(), &h); err != nil {
			t.Fatalf("health %d %s: %v", rec.Code, rec.Body, err)
		}
		return h
	}
	waitUntil := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !ok(); {
			if time.Now().After(deadline) {
				t.Fatalf("waited 10s for %s; health %+v", what, health().History)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}

	event("question: first")
	waitUntil("the first record", func() bool { recs, _ := history.Read(dir, pane, time.Time{}); return len(recs) == 1 })
	if h := health().History; h.Dir != dir || h.Problem != "" {
		t.Fatalf("history health while writes work: %+v", h)
	}

	if err := os.Rename(dir, dir+".old"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		event(fmt.Sprint("question: lost ", i))
	}
	waitUntil("the failure in health", func() bool { return health().History.Problem != "" })
	h := health().History
	if !strings.Contains(h.Problem, dir) || !strings.Contains(h.Problem, "not a directory") || h.Since.IsZero() || !h.Recovered.IsZero() || h.NotKept {
		t.Fatalf("history health with the dir a file: %+v, want the error naming %s, failing", h, dir)
	}

	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	event("question: after")
	waitUntil("the recovery in health", func() bool { return !health().History.Recovered.IsZero() })
	if recs, err := history.Read(dir, pane, time.Time{}); err != nil || len(recs) != 1 || recs[0].Reason != "question: after" {
		t.Fatalf("the dir made again holds %+v, %v; want the record written after it", recs, err)
	}
	log := logged.String()
	if n := strings.Count(log, "pane history not written"); n != 1 {
		t.Errorf("the failure is logged %d times, want once:\n%s", n, log)
	}
	if n := strings.Count(log, "pane history written again"); n != 1 {
		t.Errorf("the recovery is logged %d times, want once:\n%s", n, log)
	}
}

// syncBuffer is a bytes.Buffer a logger writes to from other goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
