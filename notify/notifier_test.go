package notify

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/internal/rig/wait"
)

const waitLong = 10 * time.Second

// recorder is a channel that keeps what it is sent.
type recorder struct {
	name string
	got  chan Message
	err  error // what Send returns
}

func newRecorder(name string) *recorder { return &recorder{name: name, got: make(chan Message, 100)} }

func (r *recorder) Name() string { return r.name }
func (r *recorder) Send(_ context.Context, m Message) error {
	r.got <- m
	return r.err
}

// blocker is a channel whose Send waits until its context ends.
type blocker struct{ entered chan struct{} }

func (b *blocker) Name() string { return "blocker" }
func (b *blocker) Send(ctx context.Context, _ Message) error {
	select {
	case b.entered <- struct{}{}:
	default:
	}
	<-ctx.Done()
	return ctx.Err()
}

// logLines collects a Notifier's log.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) log(msg string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprint(append([]any{msg}, args...)...))
}

func (l *logLines) count(sub string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, line := range l.lines {
		if strings.Contains(line, sub) {
			n++
		}
	}
	return n
}

func newTestNotifier(t *testing.T, o Options) (*Notifier, *clockwork.FakeClock) {
	t.Helper()
	fc := clockwork.NewFakeClockAt(t0)
	o.Clock = fc
	n, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n, fc
}

// armed waits until the Notifier's timer is armed.
func armed(t *testing.T, fc *clockwork.FakeClock) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	if err := fc.BlockUntilContext(ctx, 1); err != nil {
		t.Fatalf("the timer was never armed: %v", err)
	}
}

func expectNothing(t *testing.T, r *recorder, when string) {
	t.Helper()
	select {
	case m := <-r.got:
		t.Fatalf("%s: sent %q", when, m.Line())
	default:
	}
}

func receive(t *testing.T, r *recorder, what string) Message {
	t.Helper()
	return wait.Receive(t, what, waitLong, r.got, func(Message) bool { return true })
}

// The timer is armed by Raise itself, so advancing a fake clock short of
// a deadline runs nothing: nothing sent then is nothing sent at all.
func TestNotifier_AfterOnceRenotify(t *testing.T) {
	rec := newRecorder("rec")
	n, fc := newTestNotifier(t, Options{Policy: DefaultPolicy(), Extra: []Channel{rec}})
	n.Raise(permission("%3"))
	armed(t, fc)
	fc.Advance(29 * time.Second)
	expectNothing(t, rec, "29s into the hold")
	n.Raise(permission("%3")) // seen again: the same hold
	fc.Advance(time.Second)
	if m := receive(t, rec, "the first notification"); m.Count != 1 || m.Event != EventRaised {
		t.Fatalf("first = %+v", m)
	}
	armed(t, fc)
	fc.Advance(30*time.Minute - time.Second)
	expectNothing(t, rec, "just before renotify")
	fc.Advance(time.Second)
	if m := receive(t, rec, "the re-notification"); m.Count != 2 || !strings.Contains(m.Title, "still needs you") {
		t.Fatalf("second = %+v", m)
	}
	if st := n.Status(); st.Holds != 1 || len(st.Channels) != 1 || st.Channels[0].Sent != 2 {
		wait.For(t, "two sends in the status", waitLong, func() bool { return n.Status().Channels[0].Sent == 2 })
	}
}

func TestNotifier_ResolvedAndForget(t *testing.T) {
	rec := newRecorder("rec")
	p := DefaultPolicy()
	p.Resolved = true
	n, fc := newTestNotifier(t, Options{Policy: p, Extra: []Channel{rec}})
	n.Raise(permission("%3"))
	n.Raise(permission("%4"))
	armed(t, fc)
	fc.Advance(30 * time.Second)
	receive(t, rec, "a first notification")
	receive(t, rec, "a second notification")
	n.Forget("%4")
	n.Clear("%3", time.Time{})
	if m := receive(t, rec, "the resolved message"); m.Event != EventResolved || m.Hold.Pane != "%3" {
		t.Fatalf("resolved = %+v", m)
	}
	if st := n.Status(); st.Holds != 0 {
		t.Errorf("holds = %d, want 0", st.Holds)
	}
	fc.Advance(2 * time.Hour)
	expectNothing(t, rec, "after the clear and the forget")
}

// A channel that never returns neither blocks Raise nor holds up the
// others; once it is behind, its messages are dropped and counted, and
// Close cancels it.
func TestNotifier_BlockingChannel(t *testing.T) {
	blk := &blocker{entered: make(chan struct{}, 1)}
	rec := newRecorder("rec")
	logs := &logLines{}
	p := DefaultPolicy()
	p.After = 0
	n, _ := newTestNotifier(t, Options{Policy: p, RateLimit: 100, Extra: []Channel{blk, rec}, Log: logs.log})
	const panes = queueSize + 10
	n.Raise(permission("%0"))
	receive(t, rec, "message 0 on the other channel")
	wait.Receive(t, "the blocking channel's Send", waitLong, blk.entered, func(struct{}) bool { return true })
	for i := 1; i < panes; i++ {
		raised := make(chan struct{}, 1)
		go func() {
			n.Raise(permission(fmt.Sprintf("%%%d", i)))
			raised <- struct{}{}
		}()
		wait.Receive(t, "Raise to return while a channel blocks", waitLong, raised, func(struct{}) bool { return true })
		receive(t, rec, fmt.Sprintf("message %d on the other channel", i))
	}
	st := n.Status().Channels[0]
	if want := panes - 1 - queueSize; st.Name != "blocker" || st.Dropped != want {
		t.Errorf("blocking channel status = %+v, want %d dropped", st, want)
	}
	if logs.count("channel is behind") != st.Dropped {
		t.Errorf("logged %d drops, want %d", logs.count("channel is behind"), st.Dropped)
	}
	closed := make(chan struct{}, 1)
	go func() {
		n.Close()
		closed <- struct{}{}
	}()
	wait.Receive(t, "Close to cancel the blocked Send", waitLong, closed, func(struct{}) bool { return true })
	if logs.count("send failed") != 0 {
		t.Errorf("a send canceled by Close was logged as a failure: %q", logs.lines)
	}
	n.Raise(permission("%99")) // after Close: nothing, and no panic
}

func TestNotifier_FailuresLoggedAndKept(t *testing.T) {
	bad := newRecorder("bad")
	bad.err = errors.New("post https://ntfy.sh/…: 500 Internal Server Error")
	logs := &logLines{}
	p := DefaultPolicy()
	p.After = 0
	n, fc := newTestNotifier(t, Options{Policy: p, Extra: []Channel{bad}, Log: logs.log})
	n.Raise(permission("%3"))
	receive(t, bad, "the failing send")
	wait.For(t, "the failure in the status", waitLong, func() bool { return n.Status().Channels[0].Failed == 1 })
	st := n.Status().Channels[0]
	if st.LastError != bad.err.Error() || !st.LastErrorAt.Equal(fc.Now()) || st.Sent != 0 {
		t.Errorf("status = %+v", st)
	}
	if logs.count("send failed") != 1 {
		t.Errorf("log = %q, want one failure", logs.lines)
	}
}

func TestNotifier_RateLimitLoggedOnce(t *testing.T) {
	rec := newRecorder("rec")
	logs := &logLines{}
	p := DefaultPolicy()
	p.After = 0
	n, fc := newTestNotifier(t, Options{Policy: p, Extra: []Channel{rec}, Log: logs.log})
	for i := range DefaultRateLimit + 5 {
		n.Raise(permission(fmt.Sprintf("%%%d", i)))
	}
	for i := range DefaultRateLimit {
		receive(t, rec, fmt.Sprintf("message %d", i))
	}
	if st := n.Status(); st.RateDelayed != 5 || st.RateLimited != 0 {
		t.Errorf("rate delayed %d, limited %d; want 5, 0", st.RateDelayed, st.RateLimited)
	}
	if got := logs.count("rate limit reached"); got != 1 {
		t.Errorf("rate limit logged %d times, want once: %q", got, logs.lines)
	}
	expectNothing(t, rec, "over the limit")
	// The timer is armed for the end of the minute: the five go then.
	armed(t, fc)
	fc.Advance(time.Minute - time.Millisecond)
	expectNothing(t, rec, "just before the limit allows")
	fc.Advance(time.Millisecond)
	for i := range 5 {
		if m := receive(t, rec, fmt.Sprintf("delayed message %d", i)); m.Count != 1 {
			t.Errorf("delayed message = %+v, want a first one", m)
		}
	}
}

func TestNotifier_Test(t *testing.T) {
	good, bad := newRecorder("good"), newRecorder("bad")
	bad.err = errors.New("refused")
	n, _ := newTestNotifier(t, Options{Extra: []Channel{good, bad}})
	results := n.Test(context.Background())
	if len(results) != 2 || results[0].Channel != "good" || results[0].Err != nil || results[1].Channel != "bad" || results[1].Err == nil {
		t.Fatalf("results = %+v", results)
	}
	if m := <-good.got; m.Event != EventTest || !reflect.DeepEqual(m.Hold, Hold{}) {
		t.Errorf("test message = %+v", m)
	}
	st := n.Status()
	if st.Channels[0].Sent != 1 || st.Channels[1].Failed != 1 || st.Channels[1].LastError != "refused" {
		t.Errorf("status = %+v", st)
	}
}

func TestNotifier_BadURL(t *testing.T) {
	_, err := New(Options{URL: "ftp://user:pw@example.com/secret-topic"})
	if err == nil || strings.Contains(err.Error(), "secret") || strings.Contains(err.Error(), "pw") {
		t.Errorf("New = %v, want an error without the URL's secrets", err)
	}
}

// Whatever channel failed, its error is kept and logged without
// credentials.
func TestNotifier_FailureScrubbed(t *testing.T) {
	bad := newRecorder("bad")
	bad.err = errors.New("refused: Authorization: Basic Ym9iOnMzY3JldA==\nsecond line")
	logs := &logLines{}
	p := DefaultPolicy()
	p.After = 0
	n, _ := newTestNotifier(t, Options{Policy: p, Extra: []Channel{bad}, Log: logs.log})
	n.Raise(permission("%3"))
	receive(t, bad, "the failing send")
	wait.For(t, "the failure in the status", waitLong, func() bool { return n.Status().Channels[0].Failed == 1 })
	if got, want := n.Status().Channels[0].LastError, "refused: Authorization: Basic … second line"; got != want {
		t.Errorf("LastError = %q, want %q", got, want)
	}
	if logs.count("Ym9i") != 0 || logs.count("Basic …") != 1 {
		t.Errorf("log = %q", logs.lines)
	}
}

// boundedBlocker is a blocker that says how long it may take.
type boundedBlocker struct {
	blocker
	bound time.Duration
}

func (b *boundedBlocker) Timeout() time.Duration { return b.bound }

// A channel that does not answer is canceled at its bound, on the
// Notifier's clock, and the failure says after how long.
func TestNotifier_SendBounded(t *testing.T) {
	blk := &boundedBlocker{blocker: blocker{entered: make(chan struct{}, 1)}, bound: time.Minute}
	logs := &logLines{}
	p := DefaultPolicy()
	p.After = 0
	n, fc := newTestNotifier(t, Options{Policy: p, Extra: []Channel{blk}, Log: logs.log})
	n.Raise(permission("%3"))
	wait.Receive(t, "the channel's Send", waitLong, blk.entered, func(struct{}) bool { return true })
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	if err := fc.BlockUntilContext(ctx, 2); err != nil { // the renotify timer and the send's bound
		t.Fatal(err)
	}
	fc.Advance(time.Minute)
	wait.For(t, "the failure in the status", waitLong, func() bool { return n.Status().Channels[0].Failed == 1 })
	if st := n.Status().Channels[0]; st.LastError != "no answer after 1m" {
		t.Errorf("status = %+v", st)
	}
	if logs.count("no answer after 1m") != 1 {
		t.Errorf("log = %q", logs.lines)
	}
}
