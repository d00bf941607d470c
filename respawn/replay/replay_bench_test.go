package replay

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/codeman-dev/codeman/agents/claude"
)

// oneHour repeats a real recording until it spans an hour of virtual time.
func oneHour(b *testing.B) *Cast {
	b.Helper()
	f, err := os.Open(filepath.Join("..", "..", "agents", "claude", "testdata", "replay", "long-work.cast"))
	if err != nil {
		b.Skip(err)
	}
	defer f.Close()
	one, err := Read(f, "long-work.cast")
	if err != nil {
		b.Fatal(err)
	}
	span := one.Events[len(one.Events)-1].Time + 30 // idle between repeats
	hour := &Cast{Name: "one-hour", Header: one.Header}
	for offset := 0.0; offset < 3600; offset += span {
		for _, ev := range one.Events {
			ev.Time += offset
			hour.Events = append(hour.Events, ev)
		}
	}
	return hour
}

func BenchmarkReplay_OneHour(b *testing.B) {
	c := oneHour(b)
	var bytes int
	for _, ev := range c.Events {
		bytes += len(ev.Data)
	}
	b.SetBytes(int64(bytes))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(c, Options{Config: testConfig(), Agent: claude.DefaultPatterns()}); err != nil {
			b.Fatal(err)
		}
	}
}
