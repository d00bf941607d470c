package fakeserver_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/internal/rig/fakeserver"
)

// armed waits, up to a deadline, until the code under test has that many
// timers armed on clock, so that advancing it reaches them; it returns
// clock.
func armed(t *testing.T, clock *clockwork.FakeClock, timers int) *clockwork.FakeClock {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := clock.BlockUntilContext(ctx, timers); err != nil {
		t.Fatalf("wait for %d timers: %v", timers, err)
	}
	return clock
}

func TestScript_ReplyOrder(t *testing.T) {
	s := fakeserver.ForTest(t, startToy)
	s.Enqueue(reply{Text: "queued 1"}, reply{Text: "queued 2"})
	s.Handle("rule", reply{Text: "by rule", Tool: true, Next: &reply{Text: "after the tool"}})
	s.SetDefault(reply{Text: "fallback"})

	first := ask(t, s, turn{Text: "a rule match"})
	if first.Text != "by rule" || !strings.HasPrefix(first.CallID, "call_toy_") {
		t.Fatalf("rule answer %+v", first)
	}
	for _, tc := range []struct {
		in   turn
		want string
	}{
		{turn{Text: "a rule match", Results: []string{"call_other", first.CallID}}, "after the tool"},
		{turn{Text: "a rule match", Results: []string{first.CallID}, Nonce: 1}, "fallback"}, // Next answers once; no rule or queue for a continuation
		{turn{Text: "anything"}, "queued 1"},
		{turn{Text: "anything else"}, "queued 2"},
		{turn{Text: "and more"}, "fallback"},
		{turn{Text: "a rule match", Title: true}, "title"},
	} {
		if got := ask(t, s, tc.in); got.Text != tc.want || got.CallID != "" {
			t.Errorf("%+v answered %+v, want %q", tc.in, got, tc.want)
		}
	}
}

func TestScript_HandleFuncSeesContinuations(t *testing.T) {
	s := fakeserver.ForTest(t, startToy)
	var seen []string
	s.HandleFunc(func(req request) (reply, bool) {
		seen = append(seen, req.LastUserText)
		return reply{Text: "by func"}, len(req.Results) > 0
	})
	if got := ask(t, s, turn{Text: "fresh"}); got.Text != "default" {
		t.Errorf("fresh turn answered %q, want the default", got.Text)
	}
	if got := ask(t, s, turn{Text: "continued", Results: []string{"call_x"}}); got.Text != "by func" {
		t.Errorf("continuation answered %q, want the rule's", got.Text)
	}
	ask(t, s, turn{Text: "named", Title: true})
	if want := []string{"fresh", "continued"}; !reflect.DeepEqual(seen, want) {
		t.Errorf("rule saw %q, want %q (never the title request)", seen, want)
	}
}

// An identical request after an error is a retry and gets the same error;
// an error that lapses does not stick.
func TestScript_RetryRepeatsError(t *testing.T) {
	s := fakeserver.ForTest(t, startToy)
	s.Enqueue(reply{Status: 500}, reply{Text: "fresh"}, reply{Status: 429, Lapses: true}, reply{Text: "through"})

	for i, tc := range []struct {
		in     turn
		status int
		text   string
		retry  bool
	}{
		{turn{Text: "go"}, 500, "", false},
		{turn{Text: "go"}, 500, "", true},
		{turn{Text: "go on"}, 200, "fresh", false},
		{turn{Text: "limited"}, 429, "", false},
		{turn{Text: "limited"}, 200, "through", false},
	} {
		got := ask(t, s, tc.in)
		if got.Status != tc.status || got.Text != tc.text {
			t.Errorf("request %d: %+v, want status %d text %q", i, got, tc.status, tc.text)
		}
		if retry := s.Requests()[i].Retry; retry != tc.retry {
			t.Errorf("request %d logged Retry %v, want %v", i, retry, tc.retry)
		}
	}
	if got := ask(t, s, turn{Text: "go", Nonce: 1}); got.Status != 200 {
		t.Errorf("a different body answered %+v, want the default", got)
	}
}

func TestServer_RequestLog(t *testing.T) {
	s := fakeserver.ForTest(t, startToy)
	s.SetDefault(reply{Status: 500})
	ask(t, s, turn{Text: "one"})
	resp := post(t, s, turn{Text: "two"})
	io.Copy(io.Discard, resp.Body)

	reqs := s.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests logged, want 2", len(reqs))
	}
	r := reqs[0]
	if r.Method != http.MethodPost || r.Path != "/turn" || r.LastUserText != "one" || r.Status != 500 ||
		r.At.IsZero() || r.Header.Get("Content-Type") != "application/json" || !strings.Contains(string(r.Body), `"one"`) {
		t.Errorf("logged %+v", r)
	}
	reqs[0].LastUserText = "changed"
	if s.Requests()[0].LastUserText != "one" {
		t.Error("Requests returned the log itself, not a copy")
	}
}

func TestServer_BadBodyLogged(t *testing.T) {
	s := fakeserver.ForTest(t, startToy)
	resp, err := http.Post(s.URL()+"/turn", "application/json", strings.NewReader("{not json"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if reqs := s.Requests(); resp.StatusCode != 400 || len(reqs) != 1 || reqs[0].Status != 400 || string(reqs[0].Body) != "{not json" {
		t.Errorf("status %d, log %+v", resp.StatusCode, reqs)
	}
}

func TestServer_WaitForRequest(t *testing.T) {
	s := fakeserver.ForTest(t, startToy)
	ask(t, s, turn{Text: "early"})
	byText := func(text string) func(request) bool {
		return func(r request) bool { return r.LastUserText == text }
	}
	if r, err := s.WaitForRequest(byText("early"), time.Second); err != nil || r.LastUserText != "early" {
		t.Errorf("past request: %+v, %v", r, err)
	}

	done := make(chan request, 1)
	go func() {
		r, err := s.WaitForRequest(byText("later"), 10*time.Second)
		if err != nil {
			t.Errorf("future request: %v", err)
		}
		done <- r
	}()
	ask(t, s, turn{Text: "other"})
	ask(t, s, turn{Text: "later"})
	if r := <-done; r.LastUserText != "later" {
		t.Errorf("future request %+v", r)
	}
}

func TestServer_WaitForRequestTimesOut(t *testing.T) {
	s := fakeserver.ForTest(t, startToy)
	clock := clockwork.NewFakeClock()
	s.Clock = clock
	errc := make(chan error, 1)
	go func() {
		_, err := s.WaitForRequest(func(request) bool { return true }, time.Minute)
		errc <- err
	}()
	armed(t, clock, 1).Advance(time.Minute)
	if err := <-errc; err == nil || !strings.Contains(err.Error(), "none matched in 1m0s (0 requests)") {
		t.Errorf("error %v, want none matched", err)
	}
}

func TestServer_CloseEndsWaits(t *testing.T) {
	s, err := startToy("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	clock := clockwork.NewFakeClock()
	s.Clock = clock
	s.SetDefault(reply{Text: "never", Delay: time.Hour})
	errc := make(chan error, 1)
	go func() {
		_, err := s.WaitForRequest(func(request) bool { return false }, time.Hour)
		errc <- err
	}()
	sc := bufio.NewScanner(post(t, s, turn{Text: "hang", Stream: true}).Body)
	armed(t, clock, 3) // the request wait, the delay and the ping ticker

	s.Close() // returns only once the handler is gone; goleak checks the rest
	s.Close() // a second Close is a no-op
	if err := <-errc; err == nil || !strings.Contains(err.Error(), "server closed") {
		t.Errorf("WaitForRequest error %v, want server closed", err)
	}
	// The stream ends cleanly or cut off, whichever of the handler's return
	// and the connection's close comes first.
	if e, err := fakeserver.ReadEvent(sc); err == nil {
		t.Errorf("after Close read %+v; want the end of the stream", e)
	}
}

func TestBackend_WaitPings(t *testing.T) {
	s := fakeserver.ForTest(t, startToy)
	clock := clockwork.NewFakeClock()
	s.Clock = clock
	s.Enqueue(reply{Text: "late", Delay: 12 * time.Second})

	resp := post(t, s, turn{Text: "wait", Stream: true})
	if resp.Header.Get("Content-Type") != "text/event-stream" || resp.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("headers %v", resp.Header)
	}
	sc := bufio.NewScanner(resp.Body)
	armed(t, clock, 2) // the delay and the ping ticker
	for range 2 {
		clock.Advance(5 * time.Second)
		if e, err := fakeserver.ReadEvent(sc); err != nil || e.Name != "ping" {
			t.Fatalf("read %+v, %v; want a ping", e, err)
		}
	}
	clock.Advance(2 * time.Second)
	e, err := fakeserver.ReadEvent(sc)
	if err != nil || e.Name != "text" || e.Data["text"] != "late" || !strings.HasPrefix(e.Data["id"].(string), "msg_toy_") {
		t.Fatalf("read %+v, %v; want the text", e, err)
	}
	if _, err := fakeserver.ReadEvent(sc); !errors.Is(err, io.EOF) {
		t.Errorf("after the text: %v, want the end", err)
	}
}

func TestListen_Fails(t *testing.T) {
	if _, err := fakeserver.Listen("127.0.0.1:-1", format); err == nil || !strings.Contains(err.Error(), "listen on 127.0.0.1:-1") {
		t.Errorf("error %v, want listen on", err)
	}
}

// A server closed before it serves lets its port go.
func TestServer_CloseBeforeServe(t *testing.T) {
	b, err := fakeserver.Listen("127.0.0.1:0", format)
	if err != nil {
		t.Fatal(err)
	}
	b.Server().Close()
	if _, err := http.Get(b.Server().URL()); err == nil {
		t.Error("the port still answers after Close")
	}
}
