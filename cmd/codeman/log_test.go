package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/history"
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
	dir := api.HistoryDir(func(k string) string {
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

// runApp runs the CLI with args and returns its stdout, its stderr and
// its error.
func runApp(args ...string) (stdout, stderr string, err error) {
	var out, errOut bytes.Buffer
	app := newApp()
	app.Writer, app.ErrWriter = &out, &errOut
	err = app.Run(append([]string{"codeman"}, args...))
	return out.String(), errOut.String(), err
}

// historyDirOf is the history dir of the state dir home.
func historyDirOf(home string) string {
	return api.HistoryDir(func(k string) string {
		if k == "XDG_STATE_HOME" {
			return home
		}
		return ""
	})
}

// writeRecords writes recs to the histories of the state dir home.
func writeRecords(t *testing.T, home string, recs ...history.Record) {
	t.Helper()
	w, err := history.Open(history.Options{Dir: historyDirOf(home), MaxAge: -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		w.Write(r)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// What a pane or an agent put in a record (a permission prompt's command,
// a question, the pane's address) reaches the terminal with its escapes
// spelled out, never played; --json keeps it as data.
func TestLog_PaneTextEscaped(t *testing.T) {
	home := historyEnv(t)
	now := time.Now().Add(-time.Minute)
	const evilPane = "tmux:/tmp/tmux-1000/x\x1b[2J:%7"
	writeRecords(t, home,
		history.Record{At: now, Pane: histPane, Kind: history.KindNeedsYou, Reason: "permission: run \x1b]52;c;cm0gLXJmIH4=\x07rm -rf ~ \u202eevil"},
		history.Record{At: now, Pane: histPane, Kind: history.KindDecision, Decision: &respawn.Decision{At: now, Kind: respawn.DecisionSend, Step: respawn.StepUpdate, Text: "a\x1b[31mred", Reason: "cycle \u009b1"}},
		history.Record{At: now.Add(time.Second), Pane: evilPane, Kind: history.KindAttach, Reason: "question: \x1b[1mproceed?"},
	)
	out, _, err := runApp("log")
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(out, "\x1b\x07\u202e\u009b") {
		t.Fatalf("codeman log printed a control character raw:\n%q", out)
	}
	for _, want := range []string{`permission: run \x1b]52;c;cm0gLXJmIH4=\x07rm -rf ~ \u202eevil`, `question: \x1b[1mproceed?`, `[x\x1b[2J] %7`, `\x9b1`} {
		if !strings.Contains(out, want) {
			t.Errorf("codeman log lacks %q:\n%s", want, out)
		}
	}
	js, _, err := runApp("log", "--json")
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(js, "\x1b\x07") || !strings.Contains(js, `\u001b]52;c;`) {
		t.Fatalf("codeman log --json:\n%q\nwant the controls as JSON escapes", js)
	}
	var r history.Record
	if err := json.Unmarshal([]byte(strings.SplitN(js, "\n", 2)[0]), &r); err != nil || !strings.Contains(r.Reason, "\x1b]52;") {
		t.Fatalf("the JSON record %+v, %v: want the reason as the pane wrote it", r, err)
	}
}

// A pane id that panes of several tmux servers, all gone, had is named
// as ambiguous: which addresses it matches, and how to name one.
func TestLog_AmbiguousPaneID(t *testing.T) {
	home := historyEnv(t)
	now := time.Now().Add(-time.Minute)
	const a, b = "tmux:/tmp/tmux-1000/default:%1", "tmux:/tmp/tmux-1000/work:%1"
	writeRecords(t, home,
		history.Record{At: now, Pane: a, Kind: history.KindAttach, Reason: "profile default"},
		history.Record{At: now, Pane: b, Kind: history.KindAttach, Reason: "profile default"},
	)
	_, _, err := runApp("log", "%1")
	if err == nil {
		t.Fatal("codeman log %1 found one pane among two")
	}
	for _, want := range []string{"%1 names no pane now", "2 panes in the histories", a, b,
		"socket /tmp/tmux-1000/default", "socket /tmp/tmux-1000/work", "codeman log " + a} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if out, _, err := runApp("log", b); err != nil || !strings.Contains(out, "attach: profile default") {
		t.Fatalf("codeman log %s = %q, %v", b, out, err)
	}
}

// Lines of a history that are too long or are not records are skipped,
// counted on stderr, and the records around them printed.
func TestLog_SkippedLinesCounted(t *testing.T) {
	home := historyEnv(t)
	now := time.Now().Add(-time.Minute)
	writeRecords(t, home, history.Record{At: now, Pane: histPane, Kind: history.KindAttach, Reason: "profile default"})
	matches, _ := filepath.Glob(filepath.Join(historyDirOf(home), "*.jsonl"))
	if len(matches) != 1 {
		t.Fatalf("history files %q, want 1", matches)
	}
	f, err := os.OpenFile(matches[0], os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("{\"v\":1,corrupt\n" + strings.Repeat("y", history.MaxLine+1) + "\n")
	f.Close()
	writeRecords(t, home, history.Record{At: now.Add(time.Second), Pane: histPane, Kind: history.KindDetach, Reason: "daemon stopping"})

	out, errOut, err := runApp("log")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "attach: profile default") || !strings.Contains(out, "detach: daemon stopping") {
		t.Fatalf("codeman log:\n%s\nwant both records", out)
	}
	if want := "skipped 2 lines of the histories in " + historyDirOf(home) + ": 1 longer than 4 MiB, 1 not records"; !strings.Contains(errOut, want) {
		t.Fatalf("stderr %q, want %q", errOut, want)
	}
}
