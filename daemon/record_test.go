package daemon

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/respawn/replay"
)

// recording collects a pane's recording until stop.
type recording struct {
	mu     sync.Mutex
	events []api.RecordEvent
	stop   context.CancelFunc
	done   chan error
}

func (r *rig) record(addr string) *recording {
	r.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	rec := &recording{stop: cancel, done: make(chan error, 1)}
	go func() {
		rec.done <- r.client.Record(ctx, addr, func(ev api.RecordEvent) error {
			rec.mu.Lock()
			defer rec.mu.Unlock()
			rec.events = append(rec.events, ev)
			return nil
		})
	}()
	r.t.Cleanup(cancel)
	return rec
}

func (rec *recording) has(kind, text string) bool {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for _, ev := range rec.events {
		if ev.Kind == kind && strings.Contains(ev.Data, text) {
			return true
		}
	}
	return false
}

// cast writes the recording as an asciicast and reads it back.
func (rec *recording) cast(t *testing.T) *replay.Cast {
	t.Helper()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.events) == 0 || rec.events[0].Kind != api.RecordSize {
		t.Fatalf("recording does not start with the size: %+v", rec.events)
	}
	var b bytes.Buffer
	w, err := replay.NewWriter(&b, replay.Header{Width: 200, Height: 50})
	if err != nil {
		t.Fatal(err)
	}
	start, last := rec.events[0].At, 0.0
	for _, ev := range rec.events[1:] {
		at := max(ev.At.Sub(start).Seconds(), last)
		last = at
		if err := w.Write(at, ev.Kind, ev.Data); err != nil {
			t.Fatal(err)
		}
	}
	c, err := replay.Read(&b, "recording")
	if err != nil {
		t.Fatalf("the recording does not read back: %v", err)
	}
	return c
}

// A controlled pane's recording has its output and its hook events, and
// reads back as a cast.
func TestRecord_ControlledPane(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	addr, _ := r.session("work", "hello")
	r.attach(addr)
	rec := r.record(addr)
	r.waitFor("output and a Stop hook in the recording", 30*time.Second, func() bool {
		return rec.has(api.RecordOutput, "❯") && rec.has(api.RecordMarker, `hook:{"hook_event_name":"Stop"`)
	})
	rec.stop()
	if err := <-rec.done; err != nil {
		t.Fatalf("record: %v", err)
	}
	if c := rec.cast(t); len(c.Events) < 2 {
		t.Fatalf("cast has %d events", len(c.Events))
	}
}

// A pane no controller watches is recorded without being typed into, and
// stays uncontrolled.
func TestRecord_UncontrolledPane(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	addr, log := r.session("work", "hello")
	started := time.Now()
	rec := r.record(addr)
	r.waitFor("output and a Stop hook in the recording", 30*time.Second, func() bool {
		return rec.has(api.RecordSize, "x") && rec.has(api.RecordMarker, `"Stop"`)
	})
	rec.stop()
	<-rec.done
	if in := inputsAfter(t, log, started); len(in) > 0 {
		t.Fatalf("recording typed into the pane: %+v", in)
	}
	if h := r.health(); h.Panes != 0 || h.Controllers != 0 {
		t.Fatalf("health after recording %+v", h)
	}
}

// A screen window's recording redraws each new hardcopy.
func TestRecord_ScreenWindow(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	addr, _ := r.screenSession("hello")
	rec := r.record(addr)
	r.waitFor("a redraw with the prompt box", 30*time.Second, func() bool {
		return rec.has(api.RecordOutput, clearScreen) && rec.has(api.RecordOutput, "❯")
	})
	rec.stop()
	<-rec.done
	rec.cast(t)
}

func TestRecord_NoSuchPane(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	err := r.client.Record(context.Background(), "tmux:"+r.tmux.Socket()+":%77", func(api.RecordEvent) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "%77") {
		t.Fatalf("record of a missing pane: %v", err)
	}
}
