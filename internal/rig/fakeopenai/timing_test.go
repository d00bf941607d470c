package fakeopenai_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/internal/rig/fakeopenai"
	"github.com/codeman-dev/codeman/internal/rig/fakeserver"
)

// blockUntil waits, up to a deadline, until n timers are armed on clock.
func blockUntil(t *testing.T, clock *clockwork.FakeClock, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := clock.BlockUntilContext(ctx, n); err != nil {
		t.Fatalf("wait for %d timers: %v", n, err)
	}
}

// nextEvent reads one event from a live stream and checks its name.
func nextEvent(t *testing.T, sc *bufio.Scanner, want string) map[string]any {
	t.Helper()
	e, err := fakeserver.ReadEvent(sc)
	if err != nil {
		t.Fatalf("stream ended before %s: %v", want, err)
	}
	if e.Name != want {
		t.Fatalf("got event %s %v, want %s", e.Name, e.Data, want)
	}
	return e.Data
}

// The delay comes after response.created, so Codex shows its working
// status meanwhile; each chunk waits for its own pause.
func TestServer_DelayAndPauses(t *testing.T) {
	api := fakeopenai.New(t)
	clock := clockwork.NewFakeClock()
	api.Clock = clock
	api.Enqueue(fakeopenai.Reply{Delay: 30 * time.Second, Chunks: []fakeopenai.Chunk{
		{Text: "one "}, {Pause: 2 * time.Second, Text: "two"},
	}})

	sc := bufio.NewScanner(post(t, api.BaseURL(), turnBody("wait")).Body)
	nextEvent(t, sc, "response.created")
	blockUntil(t, clock, 1)
	clock.Advance(30 * time.Second)
	nextEvent(t, sc, "response.output_item.added")
	if d := nextEvent(t, sc, "response.output_text.delta"); d["delta"] != "one " {
		t.Errorf("first delta %v", d)
	}
	blockUntil(t, clock, 1)
	clock.Advance(2 * time.Second)
	if d := nextEvent(t, sc, "response.output_text.delta"); d["delta"] != "two" {
		t.Errorf("second delta %v", d)
	}
	nextEvent(t, sc, "response.output_item.done")
	nextEvent(t, sc, "response.completed")
}

// An error reply waits out its delay before the status is written.
func TestServer_ErrorDelay(t *testing.T) {
	api := fakeopenai.New(t)
	clock := clockwork.NewFakeClock()
	api.Clock = clock
	api.Enqueue(fakeopenai.Reply{Status: 503, Delay: 5 * time.Second})

	data, err := json.Marshal(turnBody("late error"))
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan int, 1)
	go func() {
		resp, err := http.Post(api.BaseURL()+"/responses", "application/json", bytes.NewReader(data))
		if err != nil {
			got <- 0
			return
		}
		resp.Body.Close()
		got <- resp.StatusCode
	}()
	blockUntil(t, clock, 1)
	select {
	case s := <-got:
		t.Fatalf("answered %d before the delay", s)
	default:
	}
	clock.Advance(5 * time.Second)
	if s := <-got; s != 503 {
		t.Errorf("status %d", s)
	}
}
