package claude

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/respawn"
)

// redrawStream builds real Claude output for the benchmarks: every .ansi
// capture redrawn row by row with cursor positioning, as the TUI writes a
// full frame, followed by the output of any asciicast recording in
// testdata/.
func redrawStream(t testing.TB) []byte {
	t.Helper()
	var out bytes.Buffer
	for _, name := range screenFixtureNames(t, ".ansi") {
		if strings.Contains(name, "derived") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(screenDir, name))
		if err != nil {
			t.Fatal(err)
		}
		out.WriteString("\x1b[?2026h\x1b[H\x1b[2J")
		for i, row := range strings.Split(string(data), "\n") {
			fmt.Fprintf(&out, "\x1b[%d;1H%s\x1b[K", i+1, row)
		}
		out.WriteString("\x1b[?2026l")
	}
	for _, path := range castRecordings() {
		for _, ev := range castEvents(t, path) {
			if ev.kind == "o" {
				out.WriteString(ev.data)
			}
		}
	}
	return out.Bytes()
}

// castRecordings lists the Claude Code recordings under testdata/replay.
func castRecordings() []string {
	paths, _ := filepath.Glob(filepath.Join("testdata", "replay", "*.cast"))
	return paths
}

// castEvent is one event of an asciicast v2 recording: "o" output, or a
// marker ("m") such as the hook events codeman record writes.
type castEvent struct {
	at   float64
	kind string
	data string
}

func castEvents(t testing.TB, path string) []castEvent {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var events []castEvent
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	sc.Scan() // the header
	for sc.Scan() {
		var ev []any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil || len(ev) != 3 {
			t.Fatalf("%s: bad event %q", path, sc.Bytes())
		}
		at, _ := ev[0].(float64)
		kind, _ := ev[1].(string)
		data, _ := ev[2].(string)
		events = append(events, castEvent{at, kind, data})
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	return events
}

func benchmarkFeed(b *testing.B, chunk int) {
	input := redrawStream(b)
	d := NewStreamDetector(nil)
	b.SetBytes(int64(len(input)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for i := 0; i < len(input); i += chunk {
			d.Feed(input[i:min(i+chunk, len(input))])
		}
	}
}

// BenchmarkDetectorFeed is the stream detector over real Claude output in
// 4 KiB chunks, the size of a busy tmux %output burst.
func BenchmarkDetectorFeed(b *testing.B) { benchmarkFeed(b, 4096) }

// BenchmarkDetectorFeedRedraws feeds 512-byte chunks, about what tmux
// delivers per %output line for a redrawn status row (158-636 bytes in
// the load harness).
func BenchmarkDetectorFeedRedraws(b *testing.B) { benchmarkFeed(b, 512) }

// BenchmarkDetectorFeedSmallChunks feeds 64-byte chunks, as a pane that
// redraws only its spinner sends.
func BenchmarkDetectorFeedSmallChunks(b *testing.B) { benchmarkFeed(b, 64) }

// BenchmarkDetectorRecordedEvents feeds every output event of the
// recordings in testdata/ as it was recorded, one Feed per event, the way a
// controller receives a pane's output (median 42 bytes), with a new
// detector per recording.
func BenchmarkDetectorRecordedEvents(b *testing.B) {
	var casts [][][]byte
	total := 0
	for _, path := range castRecordings() {
		var events [][]byte
		for _, ev := range castEvents(b, path) {
			if ev.kind == "o" {
				events = append(events, []byte(ev.data))
				total += len(ev.data)
			}
		}
		casts = append(casts, events)
	}
	if total == 0 {
		b.Fatal("no output events in testdata/")
	}
	// Each iteration starts every recording on a copy of a new detector,
	// so that no allocation (and no garbage collection) falls into the
	// measurement.
	fresh := NewStreamDetector(nil)
	detectors := make([]StreamDetector, len(casts))
	b.SetBytes(int64(total))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		for i := range detectors {
			detectors[i] = *fresh
		}
		b.StartTimer()
		for i, events := range casts {
			d := &detectors[i]
			for _, ev := range events {
				d.Feed(ev)
			}
		}
	}
}

// BenchmarkDetectorClassify classifies every real screen once per
// iteration.
func BenchmarkDetectorClassify(b *testing.B) {
	p := DefaultPatterns()
	var screens []respawn.Screen
	for _, name := range screenFixtureNames(b, ".txt") {
		screens = append(screens, screenFixture(b, name))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, s := range screens {
			p.Classify(s)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(screens)), "ns/screen")
}
