package copilot_test

import (
	"testing"

	"github.com/codeman-dev/codeman/agents/copilot"
)

// The stream over each recording: a turn's end is the idle footer drawn
// again after its work, once, within a moment of its agentStop (or, for a
// turn lost to an API error, which runs none, of its last failed
// attempt), and never while the turn still runs. The start's loading
// spinner and /clear's brief one end the same way.
func TestStream_Recordings(t *testing.T) {
	for _, scenario := range scenarios {
		t.Run(scenario, func(t *testing.T) {
			c := loadCast(t, scenario)
			hooks := c.HookTimes()
			s := copilot.New().NewStream()
			var completions []float64
			for _, ev := range c.Events {
				if ev.Kind == "o" && s.Feed([]byte(ev.Data)).Completion {
					completions = append(completions, ev.Time)
				}
			}
			for _, p := range hooks["userPromptSubmitted"] {
				end := next(hooks["agentStop"], p)
				if end < 0 {
					end = last(hooks["errorOccurred"])
				}
				var in, after []float64
				for _, at := range completions {
					switch {
					case at > p && at < end-0.1:
						in = append(in, at)
					case at >= end-0.1 && at <= end+1:
						after = append(after, at)
					}
				}
				if len(in) > 0 || len(after) != 1 {
					t.Errorf("turn of %.3fs-%.3fs: turn ends read at %v inside it and %v at its end, want none and one", p, end, in, after)
				}
			}
		})
	}
}

// next returns the first time in ts at or after t, -1 if none.
func next(ts []float64, t float64) float64 {
	for _, x := range ts {
		if x >= t {
			return x
		}
	}
	return -1
}

func last(ts []float64) float64 {
	if len(ts) == 0 {
		return -1
	}
	return ts[len(ts)-1]
}

// A chunk that only advances a tool's elapsed-time counter, which ticks
// every second while a permission prompt waits, is no output; the
// counter's digits among other text are.
func TestStream_CounterIsCosmetic(t *testing.T) {
	s := copilot.New().NewStream()
	for _, chunk := range []string{"\x1b[34A\b\b\b5s", "\b\b6s", "\b\b\b10s", "\x1b[2;5H1m 2s"} {
		if f := s.Feed([]byte(chunk)); !f.Cosmetic || f.Working {
			t.Errorf("%q: %+v, want cosmetic", chunk, f)
		}
	}
	for _, chunk := range []string{"s", "m", "5 files", "\x1b[94m◎\x1b[m 12s", "12345s"} {
		if f := s.Feed([]byte(chunk)); f.Cosmetic {
			t.Errorf("%q: cosmetic, want output", chunk)
		}
	}
}

// The spinner and the idle footer are read across chunk boundaries, a rune
// or an escape sequence split between two chunks included.
func TestStream_SplitChunks(t *testing.T) {
	s := copilot.New().NewStream()
	spin := []byte("\x1b[?25l\r\n\r\n \x1b[94m◉\x1b[m")
	if f := s.Feed(spin[:len(spin)-5]); f.Working {
		t.Fatalf("half a spinner rune read as work: %+v", f)
	}
	if f := s.Feed(spin[len(spin)-5:]); !f.Working {
		t.Fatalf("spinner split between chunks not read: %+v", f)
	}
	footer := []byte(" \x1b[1m←\x1b[m open side")
	if f := s.Feed(footer); f.Completion {
		t.Fatalf("half the footer read as the turn's end")
	}
	if f := s.Feed([]byte("bar · Interactive")); !f.Completion {
		t.Fatalf("idle footer split between chunks not read as the turn's end: %+v", f)
	}
	if f := s.Feed([]byte(" open sidebar ")); f.Completion {
		t.Error("idle footer again, with no work between: a second end")
	}
	s.Feed([]byte("◎"))
	s.Reset()
	if f := s.Feed([]byte(" open sidebar ")); f.Completion {
		t.Error("work seen before Reset still ends a turn")
	}
}

// BenchmarkStream_Recordings feeds the reader every output event of the
// recordings, as a pane's chunks reach it: it allocates nothing.
func BenchmarkStream_Recordings(b *testing.B) {
	var data [][]byte
	size := 0
	for _, scenario := range scenarios {
		for _, ev := range loadCast(b, scenario).Events {
			if ev.Kind == "o" {
				data = append(data, []byte(ev.Data))
				size += len(ev.Data)
			}
		}
	}
	s := copilot.New().NewStream()
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range data {
			s.Feed(d)
		}
	}
}
