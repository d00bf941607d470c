package opencode_test

import (
	"testing"

	"github.com/codeman-dev/codeman/agents/opencode"
)

// The stream over each recording: the working bar is read while a turn
// runs, and never once its session.idle came, until the next prompt.
func TestStream_Recordings(t *testing.T) {
	for _, scenario := range scenarios {
		t.Run(scenario, func(t *testing.T) {
			c := loadCast(t, scenario)
			hooks := c.HookTimes()
			prompts, idles := hooks["chat.message"], hooks["session.idle"]
			s := opencode.New().NewStream()
			worked := false
			for _, ev := range c.Events {
				if ev.Kind != "o" || !s.Feed([]byte(ev.Data)).Working {
					continue
				}
				worked = true
				for i, idle := range idles {
					next := c.Events[len(c.Events)-1].Time + 1
					for _, p := range prompts {
						if p > idle {
							next = p
							break
						}
					}
					if ev.Time > idle+0.5 && ev.Time < next {
						t.Errorf("%.3fs: working, after turn %d ended at %.3fs", ev.Time, i+1, idle)
					}
				}
			}
			if !worked {
				t.Error("no work read in a recording of a turn")
			}
		})
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
	s := opencode.New().NewStream()
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range data {
			s.Feed(d)
		}
	}
}
