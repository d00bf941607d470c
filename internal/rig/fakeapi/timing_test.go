package fakeapi_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/internal/rig/fakeapi"
)

// fakeClockServer returns a server timed by a fake clock.
func fakeClockServer(t *testing.T) (*fakeapi.Server, *clockwork.FakeClock) {
	api := fakeapi.New(t)
	clock := clockwork.NewFakeClock()
	api.Clock = clock
	api.PingInterval = 5 * time.Second
	return api, clock
}

// blockUntil waits, up to a deadline, until n timers are armed on clock.
func blockUntil(t *testing.T, clock *clockwork.FakeClock, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := clock.BlockUntilContext(ctx, n); err != nil {
		t.Fatalf("wait for %d timers: %v", n, err)
	}
}

func expectEvent(t *testing.T, sc *bufio.Scanner, name string) sseEvent {
	t.Helper()
	e := nextEvent(t, sc)
	if e.Name != name {
		t.Fatalf("got event %s %v, want %s", e.Name, e.Data, name)
	}
	return e
}

func TestServer_DelayPings(t *testing.T) {
	api, clock := fakeClockServer(t)
	api.Enqueue(fakeapi.Reply{Delay: 12 * time.Second, Text: "late"})

	sc := bufio.NewScanner(post(t, api.URL(), turnBody(true, "wait")).Body)
	expectEvent(t, sc, "message_start")
	blockUntil(t, clock, 2) // the delay and the ping ticker
	for range 2 {
		clock.Advance(5 * time.Second)
		expectEvent(t, sc, "ping")
	}
	clock.Advance(2 * time.Second)
	expectEvent(t, sc, "content_block_start")
	if d := expectEvent(t, sc, "content_block_delta"); d.Data["delta"].(map[string]any)["text"] != "late" {
		t.Errorf("delta %v", d.Data)
	}
}

func TestServer_ChunkPauses(t *testing.T) {
	api, clock := fakeClockServer(t)
	api.Enqueue(fakeapi.Reply{Chunks: []fakeapi.Chunk{{Text: "one "}, {Pause: 3 * time.Second, Text: "two"}}})

	sc := bufio.NewScanner(post(t, api.URL(), turnBody(true, "slow")).Body)
	expectEvent(t, sc, "message_start")
	expectEvent(t, sc, "content_block_start")
	expectEvent(t, sc, "content_block_delta")
	blockUntil(t, clock, 2)
	clock.Advance(3 * time.Second)
	if d := expectEvent(t, sc, "content_block_delta"); d.Data["delta"].(map[string]any)["text"] != "two" {
		t.Errorf("second delta %v", d.Data)
	}
	expectEvent(t, sc, "content_block_stop")
	expectEvent(t, sc, "message_delta")
	expectEvent(t, sc, "message_stop")
}

func TestServer_DelayedError(t *testing.T) {
	api, clock := fakeClockServer(t)
	api.Enqueue(fakeapi.Reply{Delay: 30 * time.Second, Status: 529})

	data, _ := json.Marshal(turnBody(true, "later"))
	got := make(chan int, 1)
	go func() {
		resp, err := http.Post(api.URL()+"/v1/messages", "application/json", bytes.NewReader(data))
		if err != nil {
			got <- 0
			return
		}
		resp.Body.Close()
		got <- resp.StatusCode
	}()
	blockUntil(t, clock, 1)
	select {
	case code := <-got:
		t.Fatalf("answered %d before the delay", code)
	default:
	}
	clock.Advance(30 * time.Second)
	if code := <-got; code != 529 {
		t.Errorf("status %d, want 529", code)
	}
}

func TestServer_CloseEndsWaitingStream(t *testing.T) {
	api, clock := fakeClockServer(t)
	api.Enqueue(fakeapi.Reply{Delay: time.Hour, Text: "never"})

	sc := bufio.NewScanner(post(t, api.URL(), turnBody(true, "hang")).Body)
	expectEvent(t, sc, "message_start")
	blockUntil(t, clock, 2)
	api.Close() // returns only once the handler is gone; goleak checks the rest
	for sc.Scan() {
		if sc.Text() != "" {
			t.Errorf("after Close got %q", sc.Text())
		}
	}
}

// A limit holds every fresh turn back until its reset, then lets the
// script answer.
func TestServer_LimitUntil(t *testing.T) {
	api, clock := fakeClockServer(t)
	reset := clock.Now().Add(time.Minute)
	api.LimitUntil(fakeapi.UsageLimit{Claim: "five_hour", ResetAt: reset})
	api.Handle("go on", fakeapi.Reply{Text: "on it"})

	resp := post(t, api.URL(), turnBody(false, "go on"))
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("anthropic-ratelimit-unified-representative-claim") != "five_hour" {
		t.Fatalf("before the reset: status %d, claim %q; want the usage limit", resp.StatusCode, resp.Header.Get("anthropic-ratelimit-unified-representative-claim"))
	}
	resp.Body.Close()
	clock.Advance(time.Minute)
	resp = post(t, api.URL(), turnBody(false, "go on"))
	defer resp.Body.Close()
	var msg struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&msg); err != nil || resp.StatusCode != http.StatusOK || len(msg.Content) == 0 || msg.Content[0].Text != "on it" {
		t.Fatalf("after the reset: status %d, %+v, %v; want the scripted reply", resp.StatusCode, msg, err)
	}
}
