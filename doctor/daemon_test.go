package doctor

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
)

// Doctor reports the daemon's history writes that fail, naming the dir
// and the error; writes that failed and work again are a note, and a
// daemon whose writes never failed adds no line.
func TestDoctor_HistoryWrites(t *testing.T) {
	const dir = "/home/u/.local/state/codeman/history"
	since := time.Date(2026, 11, 29, 18, 0, 0, 0, time.Local)
	failing := api.HistoryStatus{Dir: dir, Problem: "create history dir: mkdir " + dir + ": not a directory", Since: since}

	m := healthyMachine()
	m.daemon.healths[0].History = failing
	rep := runFake(t, m)
	wantCheck(t, rep, "pane history", VerdictError, "writes to "+dir+" fail since 2026-11-29 18:00:00", "mkdir "+dir+": not a directory", "make "+dir+" a directory of yours")
	if rep.Errors != 1 {
		t.Errorf("%d errors, want 1:%s", rep.Errors, dumpReport(rep))
	}

	recovered := failing
	recovered.Recovered = since.Add(time.Hour)
	m.daemon.healths[0].History = recovered
	rep = runFake(t, m)
	wantCheck(t, rep, "pane history", VerdictNote, "failed from 2026-11-29 18:00:00 to 2026-11-29 19:00:00", "not a directory")
	if rep.Errors != 0 {
		t.Errorf("%d errors once writes work again:%s", rep.Errors, dumpReport(rep))
	}

	notKept := api.HistoryStatus{Dir: dir, Problem: "create history dir: mkdir " + dir + ": not a directory", Since: since, NotKept: true}
	m.daemon.healths[0].History = notKept
	wantCheck(t, runFake(t, m), "pane history", VerdictError, "not kept since", "not a directory", "restart the daemon: kill 77")

	m.daemon.healths[0].History = api.HistoryStatus{Dir: dir, Dropped: 3}
	wantCheck(t, runFake(t, m), "pane history", VerdictNote, "3 records dropped")

	m.daemon.healths[0].History = api.HistoryStatus{Dir: dir}
	for _, c := range runFake(t, m).Checks {
		if c.Name == "pane history" {
			t.Errorf("a line for history writes that never failed: %+v", c)
		}
	}
}

// The doctor's words for a daemon that does not answer: the process and
// its fix when known, the log and a restart otherwise.
func TestUnanswered(t *testing.T) {
	msg, fix := unanswered(&api.NotAnsweringError{PID: 42, Socket: "/run/d.sock", Within: 3 * time.Second, State: "T"}, "/state/daemon.log")
	if msg != "does not answer: pid 42 gave no answer on /run/d.sock within 3s: it is stopped (state T in /proc/42/stat)" ||
		!strings.HasPrefix(fix, "resume it: kill -CONT 42; or restart it: kill -KILL 42, then codeman daemon") {
		t.Errorf("stopped: %q / %q", msg, fix)
	}
	msg, fix = unanswered(&api.NotAnsweringError{PID: 42, Socket: "/run/d.sock", Within: 3 * time.Second, State: "S"}, "/state/daemon.log")
	if !strings.Contains(msg, "it runs (state S") || !strings.HasPrefix(fix, "see /state/daemon.log; restart it: kill 42, then codeman daemon") {
		t.Errorf("stuck: %q / %q", msg, fix)
	}
	msg, fix = unanswered(fmt.Errorf("get health: %w", context.DeadlineExceeded), "/state/daemon.log")
	if msg != "does not answer: get health: context deadline exceeded" || fix != "see /state/daemon.log; stop the codeman daemon process and run codeman daemon" {
		t.Errorf("other error: %q / %q", msg, fix)
	}
}
