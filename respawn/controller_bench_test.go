package respawn

import (
	"context"
	"runtime"
	"testing"
)

// BenchmarkController_OutputWorking is one status-row redraw of a working
// pane handed to a controller whose loop waits, then the processor yielded,
// as the daemon's control client does between two reads of the stream: what
// a chunk costs, wake-ups included, once chunks no longer coalesce. Run it
// with -cpu 1, the daemon's GOMAXPROCS.
func BenchmarkController_OutputWorking(b *testing.B) {
	c := NewController(ControllerOptions{Pane: "p", Config: testConfig(), Agent: claudeReader, Terminal: newFakeTerminal(workingScreen())})
	decisions, cancel := c.Subscribe()
	defer cancel()
	c.Start(context.Background())
	defer c.Stop()
	chunk := []byte(chunkWorking)
	c.Output(chunk)
	if _, err := c.Status(1); err != nil { // the first chunk's decisions are made
		b.Fatal(err)
	}
	for len(decisions) > 0 {
		<-decisions
	}
	b.SetBytes(int64(len(chunk)))
	b.ReportAllocs()
	for b.Loop() {
		c.Output(chunk)
		runtime.Gosched()
	}
}
