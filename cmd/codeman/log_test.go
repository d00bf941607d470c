package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/daemon"
	"github.com/codeman-dev/codeman/daemon/history"
	"github.com/codeman-dev/codeman/respawn"
)

const (
	histPane   = "tmux:/tmp/tmux-1000/default:%3"
	histScreen = "screen:4242.work:0"
)

// historyEnv points the CLI at a fresh state dir and at no tmux server
// or screen session, so panes are found in the histories only.
func historyEnv(t *testing.T) (home string) {
	t.Helper()
	home = filepath.Join(t.TempDir(), "state")
	t.Setenv("XDG_STATE_HOME", home)
	t.Setenv("TMUX_TMPDIR", t.TempDir())
	t.Setenv("SCREENDIR", t.TempDir())
	for _, k := range []string{"TMUX", "TMUX_PANE", "STY", "WINDOW"} {
		t.Setenv(k, "")
	}
	return home
}

// writeHistory writes a short history of two panes into the state dir
// home, the last record a minute before now.
func writeHistory(t *testing.T, home string, now time.Time) {
	t.Helper()
	dir := daemon.HistoryDir(func(k string) string {
		if k == "XDG_STATE_HOME" {
			return home
		}
		return ""
	})
	w, err := history.Open(history.Options{Dir: dir, Clock: clockwork.NewFakeClockAt(now)})
	if err != nil {
		t.Fatal(err)
	}
	dec := func(at time.Time, pane string, d respawn.Decision) {
		d.At = at
		w.Write(history.Record{At: at, Pane: pane, Kind: history.KindDecision, Decision: &d})
	}
	old := now.Add(-10 * time.Hour)
	w.Write(history.Record{At: old, Pane: histPane, Kind: history.KindAttach, Reason: "profile default"})
	dec(old, histPane, respawn.Decision{Kind: respawn.DecisionState, From: "stopped", To: "watching", Reason: "started"})
	t1 := now.Add(-time.Hour)
	dec(t1, histPane, respawn.Decision{Kind: respawn.DecisionState, From: "confirming_idle", To: "sending_update", Reason: "idle confirmed: Stop hook and 3s of silence; cycle 1 starts"})
	dec(t1.Add(7*time.Second), histPane, respawn.Decision{Kind: respawn.DecisionSend, Step: respawn.StepUpdate, Text: "write a summary", Reason: "cycle 1"})
	dec(t1.Add(30*time.Minute), histPane, respawn.Decision{Kind: respawn.DecisionState, From: "waiting_update", To: "watching", Reason: "cycle 1 complete: update finished: 20s of silence; /clear and /init skipped"})
	w.Write(history.Record{At: now.Add(-2 * time.Hour), Pane: histScreen, Kind: history.KindNotAdopted, Reason: "config: bad value"})
	dec(now.Add(-time.Minute), histPane, respawn.Decision{Kind: respawn.DecisionVeto, Reason: "a person must answer: question"})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// run runs the CLI with args and returns what it printed.
func run(t *testing.T, args ...string) string {
	t.Helper()
	var out bytes.Buffer
	app := newApp()
	app.Writer = &out
	if err := app.Run(append([]string{"codeman"}, args...)); err != nil {
		t.Fatalf("codeman %s: %v", strings.Join(args, " "), err)
	}
	return out.String()
}

func TestLog(t *testing.T) {
	now := time.Now()
	writeHistory(t, historyEnv(t), now)

	got := run(t, "log")
	lines := strings.Split(strings.TrimSpace(got), "\n")
	stamp := func(at time.Time) string { return at.Local().Format(time.DateTime) }
	want := []string{
		stamp(now.Add(-2*time.Hour)) + "  screen 4242.work:0  not-adopted: config: bad value",
		stamp(now.Add(-time.Hour)) + "  %3  state confirming_idle -> sending_update: idle confirmed: Stop hook and 3s of silence; cycle 1 starts",
		stamp(now.Add(-time.Hour+7*time.Second)) + `  %3  send update "write a summary": cycle 1`,
		stamp(now.Add(-30*time.Minute)) + "  %3  state waiting_update -> watching: cycle 1 complete: update finished: 20s of silence; /clear and /init skipped",
		stamp(now.Add(-time.Minute)) + "  %3  veto: a person must answer: question",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("codeman log (8h):\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}

	// A pane that is gone is named by its id; --json prints the records.
	got = run(t, "log", "--since", "1d", "--json", "%3")
	var recs []history.Record
	for _, l := range strings.Split(strings.TrimSpace(got), "\n") {
		var r history.Record
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		recs = append(recs, r)
	}
	if len(recs) != 6 || recs[0].Kind != history.KindAttach || recs[0].Pane != histPane || recs[5].State != "watching" {
		t.Fatalf("log %%3 --since 1d --json: %+v", recs)
	}
	if got := run(t, "log", "--since", "1d", "screen:work:0"); !strings.Contains(got, "not-adopted") || strings.Contains(got, "%3") {
		t.Fatalf("log screen:work:0:\n%s", got)
	}
	if got := run(t, "log", "--until", "90m"); strings.Count(got, "\n") != 1 {
		t.Fatalf("log --until 90m: want the not-adopted line only:\n%s", got)
	}
}
