package history

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/respawn"
)

// A line longer than MaxLine and lines that are not records are skipped
// and counted; the records around them are read.
func TestEach_SkipsAndCounts(t *testing.T) {
	dir := t.TempDir()
	var b bytes.Buffer
	b.Write(mustLine(t, numbered(1)))
	b.WriteString("{\"v\":1,\"at\":\"2026-12-01T12:00:02Z\",\"pa\n") // cut short
	b.WriteString("not json\n\n")
	b.WriteString("{" + strings.Repeat("x", MaxLine) + "}\n")
	b.Write(mustLine(t, numbered(3)))
	if err := os.WriteFile(filepath.Join(dir, fileName(pane)), b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	var got []string
	skipped, err := Each(dir, "", time.Time{}, func(r Record) error { got = append(got, r.String()); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"skip: record 1", "skip: record 3"}; !slices.Equal(got, want) {
		t.Fatalf("records %q, want %q", got, want)
	}
	if skipped != (Skipped{Long: 1, Corrupt: 2}) {
		t.Fatalf("skipped %+v, want 1 long line and 2 that are not records", skipped)
	}
}

// Each merges the panes by time, a pane's rotated files first, and stops
// at fn's error.
func TestEach_MergesPanes(t *testing.T) {
	dir := t.TempDir()
	w := open(t, Options{Dir: dir, MaxSize: 600, Keep: 10, Clock: clockwork.NewFakeClockAt(t0)})
	const other = "screen:1.w:0"
	for i := range 10 {
		w.Write(numbered(2 * i))
		r := numbered(2*i + 1)
		r.Pane = other
		w.Write(r)
	}
	closeW(t, w)
	if names, _ := os.ReadDir(dir); len(names) < 4 {
		t.Fatalf("%d files, want rotated ones too", len(names))
	}
	var got []string
	if _, err := Each(dir, "", time.Time{}, func(r Record) error { got = append(got, r.String()); return nil }); err != nil {
		t.Fatal(err)
	}
	if all := reasons(read(t, dir, "")); !slices.Equal(got, all) || len(got) != 20 || got[0] != "skip: record 0" || got[19] != "skip: record 19" {
		t.Fatalf("Each gave %q; want the 20 records in time order, as Read gives %q", got, all)
	}
	stop := errors.New("enough")
	n := 0
	if _, err := Each(dir, "", time.Time{}, func(Record) error { n++; return stop }); !errors.Is(err, stop) || n != 1 {
		t.Fatalf("Each = %v after %d records, want fn's error after 1", err, n)
	}
}

// writeLarge writes a history file of pane of at least size bytes: one
// record of first, then records of rest.
func writeLarge(t *testing.T, path string, size int, first, rest time.Time) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	bw := bufio.NewWriter(f)
	bw.Write(mustLine(t, decRec(first, respawn.DecisionSkip, "old")))
	line := mustLine(t, decRec(rest, respawn.DecisionSkip, strings.Repeat("a reason of some length ", 8)))
	for n := 0; n < size; n += len(line) {
		bw.Write(line)
	}
	if err := errors.Join(bw.Flush(), f.Close()); err != nil {
		t.Fatal(err)
	}
}

// heapNow is the heap in use after a collection.
func heapNow() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// allocated runs fn and returns the bytes it allocated.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

const (
	largeFile  = 48 << 20
	heapBound  = 16 << 20 // well below the file's size
	pruneBound = 2 << 20  // buffers, and the records up to the first young one
)

// A history file far larger than memory should hold is read in bounded
// memory: its records are streamed, not collected.
func TestEach_LargeFileBoundedMemory(t *testing.T) {
	dir := t.TempDir()
	writeLarge(t, filepath.Join(dir, fileName(pane)), largeFile, t0, t0.Add(time.Second))
	base := heapNow()
	var peak uint64
	n := 0
	_, err := Each(dir, pane, time.Time{}, func(Record) error {
		if n++; n%4096 == 0 {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapAlloc)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if grew := peak - min(peak, base); n < 100000 || grew > heapBound {
		t.Fatalf("read %d records of a %d MiB file with the heap grown by %d MiB; want at most %d MiB", n, largeFile>>20, grew>>20, heapBound>>20)
	}
}

// The writer's start-up prune of a large file whose first line aged out
// keeps the young lines in bounded memory: they are copied, not read
// into memory, and not parsed.
func TestWriter_PruneLargeFileBoundedMemory(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, fileName(pane))
	writeLarge(t, path, largeFile, t0.Add(-20*24*time.Hour), t0)
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	alloc := allocated(func() { closeW(t, open(t, Options{Dir: dir, Clock: clockwork.NewFakeClockAt(t0)})) })
	after, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	old := int64(len(mustLine(t, decRec(t0.Add(-20*24*time.Hour), respawn.DecisionSkip, "old"))))
	if after.Size() != before.Size()-old {
		t.Fatalf("pruned file has %d bytes, want %d: the aged line dropped, the rest kept", after.Size(), before.Size()-old)
	}
	if alloc > pruneBound {
		t.Fatalf("pruning a %d MiB file allocated %d MiB; want at most %d MiB: it is copied, not held", largeFile>>20, alloc>>20, pruneBound>>20)
	}
}

// A report over the files digests what Report digests over the same
// records, and streams them: a large history is digested in bounded memory.
func TestReportDir(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, fileName(pane)))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range day() {
		f.Write(mustLine(t, r))
	}
	f.Close()
	m := time.Minute
	got, skipped, err := ReportDir(dir, at(45*m), at(95*m))
	if want := Report(day(), at(45*m), at(95*m)); err != nil || skipped.Lines() != 0 || !reflect.DeepEqual(got, want) {
		t.Fatalf("ReportDir = %+v, %+v, %v\nwant %+v", got, skipped, err, want)
	}

	large := t.TempDir()
	writeLarge(t, filepath.Join(large, fileName(pane)), largeFile, t0, t0.Add(time.Second))
	base := heapNow()
	var digests []Digest
	peak := peakHeap(func() { digests, _, err = ReportDir(large, t0, t0.Add(time.Hour)) })
	if err != nil || len(digests) != 1 {
		t.Fatalf("ReportDir of a large file = %+v, %v", digests, err)
	}
	if grew := peak - min(peak, base); grew > heapBound {
		t.Fatalf("digested a %d MiB file with the heap grown by %d MiB; want at most %d MiB", largeFile>>20, grew>>20, heapBound>>20)
	}
}

// peakHeap runs fn and returns the most heap in use seen while it ran,
// sampled every millisecond.
func peakHeap(fn func()) uint64 {
	done := make(chan struct{})
	peak := make(chan uint64)
	go func() {
		var most uint64
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			most = max(most, m.HeapAlloc)
			select {
			case <-done:
				peak <- most
				return
			case <-tick.C:
			}
		}
	}()
	fn()
	close(done)
	return <-peak
}
