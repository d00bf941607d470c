package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/respawn/replay"
)

// The recorder writes a cast replay reads: the size first, output and
// markers after, and times that never go back even when a hook marker is
// older than output already written.
func TestCastRecorder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.cast")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	rec := &castRecorder{file: f}
	for _, ev := range []api.RecordEvent{
		{At: t0, Kind: api.RecordSize, Data: "120x40"},
		{At: t0, Kind: api.RecordOutput, Data: "\x1b[H\x1b[2J❯ "},
		{At: t0.Add(2 * time.Second), Kind: api.RecordOutput, Data: "working"},
		{At: t0.Add(time.Second), Kind: api.RecordMarker, Data: `hook:{"hook_event_name":"Stop"}`},
	} {
		if err := rec.add(ev); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	r, _ := os.Open(path)
	defer r.Close()
	c, err := replay.Read(r, path)
	if err != nil {
		t.Fatal(err)
	}
	if c.Header.Width != 120 || c.Header.Height != 40 || len(c.Events) != 3 {
		t.Fatalf("cast %+v", c)
	}
	if m := c.Events[2]; m.Kind != "m" || m.Time != 2 {
		t.Fatalf("marker %+v, want kind m at 2s", m)
	}
	if err := (&castRecorder{file: f}).add(api.RecordEvent{Kind: api.RecordOutput}); err == nil {
		t.Fatal("a recording without its size first was accepted")
	}
}
