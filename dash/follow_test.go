package dash

import (
	"context"
	"errors"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/internal/rig/wait"
)

// streamSource is a daemon whose event stream fails, opens or ends as the
// test says, one try at a time.
type streamSource struct {
	fakeSource
	tries chan func(opened func(), fn func(api.Event) error) error
}

func (s *streamSource) Follow(ctx context.Context, _ string, opened func(), fn func(api.Event) error) error {
	select {
	case try := <-s.tries:
		return try(opened, fn)
	case <-ctx.Done():
		return nil
	}
}

// The stream is retried after 250ms, then 500ms; once it opens the
// backoff starts over, and a stream the daemon ends is retried too.
func TestFollow_ReconnectsWithBackoff(t *testing.T) {
	src := &streamSource{tries: make(chan func(func(), func(api.Event) error) error)}
	clock := clockwork.NewFakeClockAt(t0)
	msgs := make(chan tea.Msg, 16)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { follow(ctx, src, clock, func(m tea.Msg) { msgs <- m }); close(done) }()
	t.Cleanup(func() { cancel(); <-done })

	down := errors.New("codeman daemon is not running")
	fail := func(func(), func(api.Event) error) error { return down }
	retryIn := func(want time.Duration) {
		t.Helper()
		m := wait.Receive(t, "a connMsg with an error", 5*time.Second, msgs, func(m tea.Msg) bool { _, ok := m.(connMsg); return ok }).(connMsg)
		if m.err == nil || m.retry != want {
			t.Fatalf("connMsg %+v, want an error and a retry in %s", m, want)
		}
		if err := clock.BlockUntilContext(ctx, 1); err != nil {
			t.Fatal(err)
		}
		clock.Advance(want)
	}

	src.tries <- fail
	retryIn(250 * time.Millisecond)
	src.tries <- fail
	retryIn(500 * time.Millisecond)
	src.tries <- func(opened func(), fn func(api.Event) error) error {
		opened()
		fn(api.Event{Pane: "%1", Kind: "decision"})
		return nil // the daemon stopped
	}
	if m := <-msgs; m != (connMsg{}) {
		t.Fatalf("after open: %+v, want connMsg{}", m)
	}
	if m, ok := (<-msgs).(eventMsg); !ok || m.e.Pane != "%1" {
		t.Fatalf("after open: %+v, want the event", m)
	}
	m := (<-msgs).(connMsg)
	if !errors.Is(m.err, errStreamEnded) || m.retry != 250*time.Millisecond {
		t.Fatalf("after the stream ended: %+v, want errStreamEnded and 250ms", m)
	}
}
