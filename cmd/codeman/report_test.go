package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/history"
	"github.com/codeman-dev/codeman/respawn"
	"github.com/codeman-dev/codeman/respawn/replay"
)

func TestReport(t *testing.T) {
	now := time.Now().Truncate(time.Second)
	writeHistory(t, historyEnv(t), now)
	window := []string{"--since", now.Add(-12 * time.Hour).Format(time.RFC3339), "--until", now.Format(time.RFC3339)}

	got := run(t, append([]string{"report"}, window...)...)
	for _, want := range []string{
		"screen 4242.work:0  " + histScreen,
		"working 0s (0%), idle 0s (0%), waiting on limits 0s (0%), needing a person 0s (0%), not controlled 2h0m (100%)",
		"%3  " + histPane,
		"cycles    1 completed, 1 started",
		"working 9h30m (95%), idle 29m0s (4%), waiting on limits 0s (0%), needing a person 1m0s (0%), not controlled 0s (0%)",
		"sends     update 1",
		"holds     1\n                1× a person must answer: question",
		"warnings  0",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}

	var digests []history.Digest
	if err := json.Unmarshal([]byte(run(t, append([]string{"report", "--json"}, window...)...)), &digests); err != nil {
		t.Fatal(err)
	}
	if len(digests) != 2 || digests[1].Pane != histPane || digests[1].Time.Person != time.Minute || !digests[1].From.Equal(now.Add(-10*time.Hour)) {
		t.Fatalf("report --json: %+v", digests)
	}
	if got := run(t, "report", "--since", "3d", "--until", "2d"); !strings.HasPrefix(got, "no pane history from ") {
		t.Fatalf("report of an empty span: %q", got)
	}
}

// A replayed recording's history gives a report whose figures are the
// replay's own: the cycles its timeline completes, the steps it types,
// and every second of the replay in some bucket.
func TestReport_Replay(t *testing.T) {
	for _, tc := range []struct {
		cast   string
		bucket func(history.Times) time.Duration // must be more than zero
	}{
		{"turn-ends-2.1.332.cast", func(t history.Times) time.Duration { return t.Working }},
		{"question-2.1.332.cast", func(t history.Times) time.Duration { return t.Person }},
		{"usage-limit-continue-2.1.332.cast", func(t history.Times) time.Duration { return t.Limits }},
		{"api-error-2.1.332.cast", func(t history.Times) time.Duration { return t.Limits }},
	} {
		t.Run(tc.cast, func(t *testing.T) {
			historyEnv(t)
			t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // the default configuration
			dir := filepath.Join(t.TempDir(), "history")
			cast := filepath.Join("..", "..", "agents", "claude", "testdata", "replay", tc.cast)
			out := run(t, "replay", "--json", "--set", "kickstart_prompt=continue with the next task", "--history", dir, cast)

			var completed, started int
			sends := map[respawn.Step]int{}
			for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
				var e replay.Entry
				if err := json.Unmarshal([]byte(line), &e); err != nil {
					t.Fatalf("timeline line %q: %v", line, err)
				}
				switch {
				case e.Event == "send":
					sends[e.Step]++
				case e.Event == "state" && e.To == "sending_update":
					started++
				case e.Event == "state" && e.To == "watching" && strings.Contains(e.Reason, " complete: "):
					completed++
				}
			}

			recs, err := history.Read(dir, "", time.Time{})
			if err != nil || len(recs) < 2 {
				t.Fatalf("history: %d records, %v", len(recs), err)
			}
			first, last := recs[0], recs[len(recs)-1]
			if first.Kind != history.KindAttach || last.Kind != history.KindDetach || first.Pane != "replay:"+cast {
				t.Fatalf("history from %s to %s of %s: want an attach and a detach of replay:%s", first, last, first.Pane, cast)
			}
			f, _ := os.Open(cast)
			c, err := replay.Read(f, cast)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			if end := first.At.Add(time.Duration(c.Events[len(c.Events)-1].Time * float64(time.Second))); last.At.Before(end) {
				t.Errorf("detach at %s, before the recording's end %s", last.At, end)
			}

			// A second past the detach, so the records at its time count.
			until := last.At.Add(time.Second)
			var digests []history.Digest
			report := run(t, "report", "--json", "--history", dir,
				"--since", first.At.Format(time.RFC3339Nano), "--until", until.Format(time.RFC3339Nano))
			if err := json.Unmarshal([]byte(report), &digests); err != nil || len(digests) != 1 {
				t.Fatalf("report: %v\n%s", err, report)
			}
			d := digests[0]
			if d.Cycles.Completed != completed || d.Cycles.Started != started {
				t.Errorf("cycles %+v; the timeline completes %d, starts %d", d.Cycles, completed, started)
			}
			if len(d.Sends) != len(sends) {
				t.Errorf("sends %v; the timeline types %v", d.Sends, sends)
			}
			for step, n := range sends {
				if d.Sends[step] != n {
					t.Errorf("sends %v; the timeline types %v", d.Sends, sends)
				}
			}
			if d.Time.Total() != until.Sub(first.At) || d.Time.NotControlled != time.Second || tc.bucket(d.Time) <= 0 {
				t.Errorf("times %+v over %s", d.Time, until.Sub(first.At))
			}
			t.Logf("%s: cycles %+v, sends %v, times %+v", tc.cast, d.Cycles, d.Sends, d.Time)
		})
	}
}
