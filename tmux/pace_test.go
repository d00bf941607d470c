package tmux

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

// chunkReader returns one scripted chunk per Read.
type chunkReader struct{ chunks [][]byte }

func (r *chunkReader) Read(b []byte) (int, error) {
	c := r.chunks[0]
	r.chunks = r.chunks[1:]
	return copy(b, c), nil
}

const testPace = 25 * time.Millisecond

type paceRig struct {
	clock  *clockwork.FakeClock
	kick   chan struct{}
	ready  chan int // what waiting reports, one value per poll
	urgent bool
	r      *pacedReader
}

// newPaceRig starts the fake clock on a slot boundary.
func newPaceRig(chunks ...[]byte) *paceRig {
	start := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	rig := &paceRig{clock: clockwork.NewFakeClockAt(start), kick: make(chan struct{}, 1), ready: make(chan int, 16)}
	rig.r = &pacedReader{
		r: &chunkReader{chunks: chunks}, pace: testPace,
		urgent: func() bool { return rig.urgent }, kick: rig.kick, clock: rig.clock,
		waiting: func() (int, bool) { return <-rig.ready, true },
	}
	return rig
}

// read reads in a goroutine and reports the bytes read when it returns.
func (rig *paceRig) read() <-chan int {
	done := make(chan int, 1)
	go func() {
		n, _ := rig.r.Read(make([]byte, readBuffer))
		done <- n
	}()
	return done
}

func mustReturn(t *testing.T, done <-chan int, what string) int {
	t.Helper()
	select {
	case n := <-done:
		return n
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: the read did not return", what)
		return 0
	}
}

func notReturned(t *testing.T, done <-chan int, what string) {
	t.Helper()
	select {
	case <-done:
		t.Fatalf("%s: the read returned", what)
	default:
	}
}

// waitSlot waits until the read sleeps on the fake clock, then moves the
// clock by d.
func (rig *paceRig) waitSlot(t *testing.T, d time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := rig.clock.BlockUntilContext(ctx, 1); err != nil {
		t.Fatalf("the read never waited for a slot: %v", err)
	}
	rig.clock.Advance(d)
}

// Output that trickles in is read at slot boundaries.
func TestPacedReader_ReadsAtSlotBoundaries(t *testing.T) {
	rig := newPaceRig([]byte("a\n"), []byte("b\n"))
	rig.clock.Advance(5 * time.Millisecond)
	mustReturn(t, rig.read(), "the first read") // nothing to wait for
	second := rig.read()
	rig.ready <- 0 // nothing yet: wait for the slot's end
	rig.waitSlot(t, 19*time.Millisecond)
	notReturned(t, second, "before the slot's end")
	rig.ready <- 2
	rig.waitSlot(t, time.Millisecond) // 25ms: the slot ends
	mustReturn(t, second, "the second read")
}

// An empty slot is skipped; a stream empty for idleAfter is read blocking,
// so a quiet pane costs no wake-ups.
func TestPacedReader_QuietStreamBlocks(t *testing.T) {
	rig := newPaceRig([]byte("a\n"), []byte("b\n"))
	mustReturn(t, rig.read(), "the first read")
	second := rig.read()
	for range idleAfter / testPace {
		rig.ready <- 0
		rig.waitSlot(t, testPace)
	}
	// idleAfter since the output: no poll, a read
	mustReturn(t, second, "the read of a quiet stream")
	if len(rig.ready) != 0 {
		t.Fatalf("%d polls left unasked", len(rig.ready))
	}
}

// Output already waiting is read at once: a flood is read as fast as it
// comes, so tmux never pauses the pane.
func TestPacedReader_WaitingOutputReadAtOnce(t *testing.T) {
	rig := newPaceRig([]byte("a\n"), bytes.Repeat([]byte("x"), 60<<10), []byte("c\n"))
	mustReturn(t, rig.read(), "the first read")
	rig.ready <- 60 << 10
	if n := mustReturn(t, rig.read(), "the flood"); n != 60<<10 {
		t.Fatalf("read %d bytes", n)
	}
	rig.ready <- 2
	mustReturn(t, rig.read(), "the rest of the flood")
}

// A command's reply is never paced: writing the command ends the wait,
// and a read while one waits does not wait at all.
func TestPacedReader_CommandEndsWait(t *testing.T) {
	rig := newPaceRig([]byte("a\n"), []byte("b\n"), []byte("c\n"))
	mustReturn(t, rig.read(), "the first read")
	second := rig.read()
	rig.ready <- 0
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := rig.clock.BlockUntilContext(ctx, 1); err != nil {
		t.Fatal(err)
	}
	rig.kick <- struct{}{}
	mustReturn(t, second, "the read once a command was written")

	rig.urgent = true
	mustReturn(t, rig.read(), "a read while a command waits")
}

// Two readers whose reads fell at different times in a slot wake together
// at its end.
func TestPacedReader_SlotsAreShared(t *testing.T) {
	a, b := newPaceRig([]byte("a\n"), []byte("a\n")), newPaceRig([]byte("b\n"), []byte("b\n"))
	b.clock = a.clock
	b.r.clock = a.clock
	mustReturn(t, a.read(), "a's first read")
	a.clock.Advance(10 * time.Millisecond)
	mustReturn(t, b.read(), "b's first read")
	a.ready <- 0
	b.ready <- 0
	aNext, bNext := a.read(), b.read()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.clock.BlockUntilContext(ctx, 2); err != nil {
		t.Fatal(err)
	}
	a.ready <- 1
	b.ready <- 1
	a.clock.Advance(15 * time.Millisecond) // the slot ends for both
	mustReturn(t, aNext, "a's second read")
	mustReturn(t, bNext, "b's second read")
}

// Output the poll found waiting is read with readNow, the read that cannot
// block; a read of a quiet stream, which blocks, is not.
func TestPacedReader_WaitingOutputReadWithoutBlocking(t *testing.T) {
	rig := newPaceRig([]byte("a\n"), []byte("b\n"), []byte("c\n"))
	var now []string
	rig.r.readNow = func(b []byte) (int, error) {
		n, err := rig.r.r.Read(b)
		now = append(now, string(b[:n]))
		return n, err
	}
	mustReturn(t, rig.read(), "the first read") // no output yet: a plain read
	rig.ready <- 2
	mustReturn(t, rig.read(), "the second read")
	quiet := rig.read()
	for range idleAfter / testPace {
		rig.ready <- 0
		rig.waitSlot(t, testPace)
	}
	mustReturn(t, quiet, "the read of a quiet stream")
	if len(now) != 1 || now[0] != "b\n" {
		t.Fatalf("read without blocking: %q, want only the output the poll found", now)
	}
}
