package replay

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzRead reads arbitrary recordings: none may panic, each one accepted
// stays within the limits, and writing it back gives the same recording.
// The seeds are the real recordings and a few hostile ones.
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "agents", "claude", "testdata", "replay", "*.cast"))
	if len(files) == 0 {
		f.Fatal("no recordings in agents/claude/testdata/replay")
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, seed := range []string{
		"",
		okHeader + `[0.1, "r", "100x30"]` + "\n" + `[0.2, "m", "hook:{\"hook_event_name\":\"Stop\"}"]`,
		`{"version":2,"width":100000000,"height":100000000}` + "\n" + `[0.1, "o", "x"]`,
		okHeader + `[1e9, "o", "x"]` + "\n",
		okHeader + `[0.1, "o", "\ud800 \u001b[1m"]` + "\n\n" + `[0.1, "i", "q"]`,
		okHeader + `[0.1, "o", "x", 1]`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Read(bytes.NewReader(data), "f.cast")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.cast") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		checkWithinLimits(t, c, defaultLimits)

		var out bytes.Buffer
		w, err := NewWriter(&out, c.Header)
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range c.Events {
			if err := w.Write(ev.Time, ev.Kind, ev.Data); err != nil {
				t.Fatal(err)
			}
		}
		again, err := Read(&out, "again.cast")
		if err != nil {
			t.Fatalf("reading what was written: %v\n%s", err, out.Bytes())
		}
		if !sameCast(c, again) {
			t.Fatalf("written and read again:\n%+v\nwant:\n%+v", again, c)
		}
	})
}

func checkWithinLimits(t *testing.T, c *Cast, lim limits) {
	t.Helper()
	if err := lim.checkHeader(c.Header); err != nil {
		t.Fatalf("accepted header: %v", err)
	}
	if len(c.Events) > lim.events {
		t.Fatalf("accepted %d events", len(c.Events))
	}
	var data int64
	prev := 0.0
	for _, ev := range c.Events {
		if err := lim.checkEvent(ev); err != nil {
			t.Fatalf("accepted event at line %d: %v", ev.Line, err)
		}
		if ev.Time < prev {
			t.Fatalf("accepted time %g after %g at line %d", ev.Time, prev, ev.Line)
		}
		prev = ev.Time
		data += int64(len(ev.Data))
	}
	if data > lim.data {
		t.Fatalf("accepted %d bytes of event data", data)
	}
}

// sameCast compares two recordings, ignoring line numbers and an empty
// env's absence.
func sameCast(a, b *Cast) bool {
	ha, hb := a.Header, b.Header
	if ha.Version != hb.Version || ha.Width != hb.Width || ha.Height != hb.Height ||
		ha.Timestamp != hb.Timestamp || !maps.Equal(ha.Env, hb.Env) || len(a.Events) != len(b.Events) {
		return false
	}
	for i, ev := range a.Events {
		ev.Line = b.Events[i].Line
		if ev != b.Events[i] {
			return false
		}
	}
	return true
}
