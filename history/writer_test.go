package history

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/respawn"
)

const pane = "tmux:/tmp/tmux-1000/default:%3"

var t0 = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func stateRec(at time.Time, from, to, reason string) Record {
	return Record{At: at, Pane: pane, Kind: KindDecision, Decision: &respawn.Decision{At: at, Kind: respawn.DecisionState, From: from, To: to, Reason: reason}}
}

func decRec(at time.Time, kind respawn.DecisionKind, reason string) Record {
	return Record{At: at, Pane: pane, Kind: KindDecision, Decision: &respawn.Decision{At: at, Kind: kind, Reason: reason}}
}

// numbered is the i-th of a run of skip decisions, one second apart.
func numbered(i int) Record {
	return decRec(t0.Add(time.Duration(i)*time.Second), respawn.DecisionSkip, fmt.Sprint("record ", i))
}

func open(t *testing.T, opts Options) *Writer {
	t.Helper()
	w, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func closeW(t *testing.T, w *Writer) {
	t.Helper()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, dir, pane string) []Record {
	t.Helper()
	recs, err := Read(dir, pane, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func reasons(recs []Record) []string {
	var out []string
	for _, r := range recs {
		out = append(out, r.String())
	}
	return out
}

// A daemon that stops and starts again appends to the same files, and a
// reader sees both runs in order, with the controller's state on each
// line as far as the writer knew it.
func TestWriter_RestartSurvives(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "history")
	clock := clockwork.NewFakeClockAt(t0)
	w := open(t, Options{Dir: dir, Clock: clock})
	w.Write(Record{At: t0, Pane: pane, Kind: KindAttach, Reason: "profile default"})
	w.Write(stateRec(t0, "stopped", "watching", "started"))
	w.Write(decRec(t0.Add(time.Second), respawn.DecisionHook, "hook stop"))
	w.Write(Record{At: t0.Add(2 * time.Second), Pane: pane, Kind: KindDetach, Reason: "daemon stopping"})
	closeW(t, w)

	w = open(t, Options{Dir: dir, Clock: clock})
	w.Write(Record{At: t0.Add(time.Minute), Pane: pane, Kind: KindAttach, Reason: "profile default"})
	w.Write(stateRec(t0.Add(time.Minute), "stopped", "watching", "started"))
	w.Write(Record{At: t0.Add(time.Minute), Pane: "screen:1.w:0", Kind: KindNotAdopted, Reason: "bad config"})
	closeW(t, w)

	recs := read(t, dir, pane)
	want := []string{"attach: profile default", "state stopped -> watching: started", "hook: hook stop", "detach: daemon stopping",
		"attach: profile default", "state stopped -> watching: started"}
	if got := reasons(recs); !slices.Equal(got, want) {
		t.Fatalf("records:\n%q\nwant\n%q", got, want)
	}
	var states []string
	for _, r := range recs {
		if r.V != Version || r.Pane != pane {
			t.Fatalf("record %+v: want v%d of %s", r, Version, pane)
		}
		states = append(states, r.State)
	}
	if want := []string{"", "watching", "watching", "", "", "watching"}; !slices.Equal(states, want) {
		t.Errorf("states %q, want %q", states, want)
	}
	all := read(t, dir, "")
	if len(all) != 7 || !slices.IsSortedFunc(all, func(a, b Record) int { return a.At.Compare(b.At) }) ||
		!slices.ContainsFunc(all, func(r Record) bool { return r.Pane == "screen:1.w:0" }) {
		t.Errorf("all panes: %q, want 7 records in time order, screen:1.w:0's among them", reasons(all))
	}
	if since, _ := Read(dir, pane, t0.Add(time.Minute)); len(since) != 2 {
		t.Errorf("since a minute in: %d records, want 2", len(since))
	}
	checkModes(t, dir)
}

func checkModes(t *testing.T, dir string) {
	t.Helper()
	fi, err := os.Stat(dir)
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("dir: %v, mode %v; want 0700", err, fi.Mode())
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		fi, _ := e.Info()
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", e.Name(), fi.Mode())
		}
	}
}

// A pane's files never pass MaxSize each, nor Keep rotated ones, and what
// is left is the newest records, in order.
func TestWriter_RotatesAtSize(t *testing.T) {
	dir := t.TempDir()
	w := open(t, Options{Dir: dir, MaxSize: 1000, Keep: 2, Clock: clockwork.NewFakeClockAt(t0)})
	const n = 100
	for i := range n {
		w.Write(numbered(i))
	}
	closeW(t, w)
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
		if fi, _ := e.Info(); fi.Size() > 1000 {
			t.Errorf("%s has %d bytes, more than MaxSize", e.Name(), fi.Size())
		}
	}
	want := []string{fileName(pane), rotated(pane, 1), rotated(pane, 2)}
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Fatalf("files %q, want %q", names, want)
	}
	recs := read(t, dir, pane)
	if len(recs) == 0 || len(recs) >= n {
		t.Fatalf("%d records kept of %d", len(recs), n)
	}
	first := n - len(recs)
	for i, r := range recs {
		if want := fmt.Sprint("skip: record ", first+i); r.String() != want {
			t.Fatalf("record %d is %q, want %q: the newest records, in order", i, r.String(), want)
		}
	}
	// Each full file holds as many lines as fit: about 3 files' worth is kept.
	if perLine := 1000 / len(mustLine(t, numbered(50))); len(recs) < 2*perLine {
		t.Errorf("%d records kept; at least %d fit in two full files", len(recs), 2*perLine)
	}
}

func mustLine(t *testing.T, r Record) []byte {
	t.Helper()
	dir := t.TempDir()
	w := open(t, Options{Dir: dir})
	w.Write(r)
	closeW(t, w)
	b, _ := os.ReadFile(filepath.Join(dir, fileName(r.Pane)))
	return b
}

// Lines older than MaxAge go when the writer opens: a file of old lines
// only is removed, a mixed one keeps its young lines, a young one is left
// as it is; and when a file rotates, its aged rotated files go too.
func TestWriter_DropsAgedLines(t *testing.T) {
	dir := t.TempDir()
	clock := clockwork.NewFakeClockAt(t0)
	day := 24 * time.Hour
	writeLines := func(name string, ats ...time.Time) {
		var b bytes.Buffer
		for _, at := range ats {
			b.Write(mustLine(t, decRec(at, respawn.DecisionSkip, at.Format(time.DateOnly))))
		}
		if err := os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	writeLines(rotated(pane, 2), t0.Add(-20*day), t0.Add(-19*day))
	writeLines(rotated(pane, 1), t0.Add(-15*day), t0.Add(-13*day))
	writeLines(fileName(pane), t0.Add(-2*day), t0.Add(-day))
	writeLines(rotated(pane, 5), t0.Add(-day)) // beyond Keep
	writeLines("notes.txt")

	w := open(t, Options{Dir: dir, MaxSize: 600, Keep: 3, MaxAge: 14 * day, Clock: clock})
	if _, err := os.Stat(filepath.Join(dir, rotated(pane, 2))); !os.IsNotExist(err) {
		t.Errorf("a file of aged lines only is still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, rotated(pane, 5))); !os.IsNotExist(err) {
		t.Errorf("a file beyond Keep is still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "notes.txt")); err != nil {
		t.Errorf("a file not of the history was touched: %v", err)
	}
	want := []string{"skip: 2026-11-18", "skip: 2026-11-29", "skip: 2026-11-30"}
	if got := reasons(read(t, dir, pane)); !slices.Equal(got, want) {
		t.Fatalf("after open: %q, want %q", got, want)
	}

	// Ten days on, the lines of 2026-11-18 are 23 days old: the rotation
	// the next writes cause drops them.
	clock.Advance(10 * day)
	for i := range 6 {
		w.Write(decRec(clock.Now().Add(time.Duration(i)*time.Second), respawn.DecisionSkip, fmt.Sprint("new ", i)))
	}
	closeW(t, w)
	recs := read(t, dir, pane)
	cutoff := clock.Now().Add(-14 * day)
	var news int
	for _, r := range recs {
		if r.At.Before(cutoff) {
			t.Errorf("aged record kept after rotation: %s at %s", r, r.At)
		}
		if strings.HasPrefix(r.String(), "skip: new") {
			news++
		}
	}
	if news != 6 {
		t.Errorf("%d of 6 new records kept:\n%q", news, reasons(recs))
	}
}

// A line cut short by a kill mid-write is skipped by Read, and the next
// writer cuts it off before appending, so the next record stays whole.
func TestWriter_TruncatedLastLine(t *testing.T) {
	dir := t.TempDir()
	w := open(t, Options{Dir: dir})
	w.Write(numbered(1))
	w.Write(numbered(2))
	closeW(t, w)
	path := filepath.Join(dir, fileName(pane))
	line := mustLine(t, numbered(3))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(line[:len(line)/2])
	f.Close()

	if got := reasons(read(t, dir, pane)); !slices.Equal(got, []string{"skip: record 1", "skip: record 2"}) {
		t.Fatalf("with a cut last line: %q", got)
	}
	w = open(t, Options{Dir: dir})
	w.Write(numbered(4))
	closeW(t, w)
	if got := reasons(read(t, dir, pane)); !slices.Equal(got, []string{"skip: record 1", "skip: record 2", "skip: record 4"}) {
		t.Fatalf("after the next write: %q", got)
	}
	data, _ := os.ReadFile(path)
	if n := bytes.Count(data, []byte("\n")); n != 3 || !bytes.HasSuffix(data, []byte("}\n")) {
		t.Fatalf("file has %d lines, want 3 whole ones:\n%s", n, data)
	}
}

// When the disk falls behind, Write drops and counts instead of waiting;
// what was queued is written by Close.
func TestWriter_DropsWhenFull(t *testing.T) {
	dir := t.TempDir()
	w, err := newWriter(Options{Dir: dir, Buffer: 2})
	if err != nil {
		t.Fatal(err)
	}
	entered, hold := make(chan struct{}), make(chan struct{})
	first := true
	w.before = func() {
		if first {
			first = false
			close(entered)
			<-hold
		}
	}
	w.start()
	w.Write(numbered(1))
	select {
	case <-entered:
	case <-time.After(10 * time.Second):
		t.Fatal("the writer never took the first record")
	}
	var ok []bool
	for i := 2; i <= 6; i++ {
		ok = append(ok, w.Write(numbered(i)))
	}
	if want := []bool{true, true, false, false, false}; !slices.Equal(ok, want) {
		t.Fatalf("Write results %v, want %v", ok, want)
	}
	if w.Dropped() != 3 {
		t.Fatalf("Dropped = %d, want 3", w.Dropped())
	}
	close(hold)
	closeW(t, w)
	if w.Write(numbered(7)) || w.Dropped() != 4 {
		t.Fatalf("a write after Close was taken (dropped %d)", w.Dropped())
	}
	if got := reasons(read(t, dir, pane)); !slices.Equal(got, []string{"skip: record 1", "skip: record 2", "skip: record 3"}) {
		t.Fatalf("written: %q", got)
	}
}

// A blocking writer (replay) loses nothing however small its buffer.
func TestWriter_Block(t *testing.T) {
	dir := t.TempDir()
	w := open(t, Options{Dir: dir, Buffer: 1, Block: true, MaxAge: -1})
	for i := range 500 {
		if !w.Write(numbered(i)) {
			t.Fatalf("record %d dropped", i)
		}
	}
	closeW(t, w)
	if n := len(read(t, dir, pane)); n != 500 || w.Dropped() != 0 {
		t.Fatalf("%d records written, %d dropped; want 500, 0", n, w.Dropped())
	}
}

func TestWriter_NoPane(t *testing.T) {
	w := open(t, Options{Dir: t.TempDir()})
	w.Write(Record{At: t0, Kind: KindAttach})
	if err := w.Close(); err == nil || !strings.Contains(err.Error(), "names no pane") {
		t.Fatalf("Close = %v, want the record without a pane reported", err)
	}
}

// A history dir replaced by a file while the writer runs is an error that
// names the dir, reported once however many records fail, and writes
// work again, and say so, once the dir is back: no record goes silently
// to a file the dir no longer holds.
func TestWriter_DirReplacedByFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "history")
	clock := clockwork.NewFakeClockAt(t0)
	var changes []Status
	w, err := newWriter(Options{Dir: dir, Clock: clock, OnStatus: func(s Status) { changes = append(changes, s) }})
	if err != nil {
		t.Fatal(err)
	}
	w.write(numbered(1))
	if st := w.Status(); st.Err != nil || len(changes) != 0 {
		t.Fatalf("status after a write that worked: %+v, %d changes", st, len(changes))
	}

	if err := os.Rename(dir, dir+".old"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, []byte("not a dir\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Minute)
	failedAt := clock.Now()
	for i := 2; i <= 4; i++ {
		w.write(numbered(i))
		clock.Advance(time.Second)
	}
	st := w.Status()
	if !st.Failing() || !strings.Contains(st.Err.Error(), dir) || !strings.Contains(st.Err.Error(), "not a directory") || !st.At.Equal(failedAt) {
		t.Fatalf("status with the dir a file: %+v, want failing since %s with an error naming %s", st, failedAt, dir)
	}
	if len(changes) != 1 {
		t.Fatalf("%d status changes for one error met three times, want 1: %+v", len(changes), changes)
	}

	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	w.write(numbered(5))
	w.write(numbered(6))
	st = w.Status()
	if st.Failing() || !st.Recovered.Equal(clock.Now()) || st.Err == nil || !st.At.Equal(failedAt) {
		t.Fatalf("status once the dir is back: %+v, want the error kept and recovered at %s", st, clock.Now())
	}
	if len(changes) != 2 || changes[1].Recovered.IsZero() {
		t.Fatalf("status changes %+v, want the error then the recovery", changes)
	}
	w.start()
	if err := w.Close(); err == nil {
		t.Error("Close = nil, want the error met")
	}
	if got := reasons(read(t, dir, pane)); !slices.Equal(got, []string{"skip: record 5", "skip: record 6"}) {
		t.Fatalf("the new dir holds %q, want the records written once it was back", got)
	}
	if got := reasons(read(t, dir+".old", pane)); !slices.Equal(got, []string{"skip: record 1"}) {
		t.Fatalf("the old dir holds %q, want only the record written before it moved", got)
	}
}

// A pane whose writes fail holds the status failing while other panes
// write; its detach lets the others' next write end it.
func TestWriter_StatusFailingPane(t *testing.T) {
	dir := t.TempDir()
	clock := clockwork.NewFakeClockAt(t0)
	w, err := newWriter(Options{Dir: dir, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	const other = "screen:1.w:0"
	if err := os.Mkdir(filepath.Join(dir, fileName(other)), 0o700); err != nil { // its file cannot be opened
		t.Fatal(err)
	}
	w.write(Record{At: t0, Pane: other, Kind: KindAttach})
	w.write(numbered(1))
	if st := w.Status(); !st.Failing() {
		t.Fatalf("status %+v: want failing while %s cannot write", st, other)
	}
	w.write(Record{At: t0, Pane: other, Kind: KindDetach})
	w.write(numbered(2))
	if st := w.Status(); st.Failing() || st.Recovered.IsZero() {
		t.Fatalf("status %+v: want recovered once the failing pane went", st)
	}
	w.start()
	if err := w.Close(); err == nil {
		t.Error("Close = nil, want the error met")
	}
}
