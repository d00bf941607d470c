package dash

import (
	"context"
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/codeman-dev/codeman/api"
	"github.com/jonboulle/clockwork"
)

// Reconnection backoff while the daemon is away: from minBackoff, doubled
// after each failure up to maxBackoff, and back to minBackoff once the
// stream opens.
const (
	minBackoff = 250 * time.Millisecond
	maxBackoff = 5 * time.Second
)

// errStreamEnded is a stream that the daemon closed (it stopped).
var errStreamEnded = errors.New("the daemon closed the event stream")

// follow sends the daemon's events to the dash until ctx ends: a connMsg
// when the stream opens, an eventMsg for each event, and a connMsg with
// the error and the wait before the next try when the stream fails or
// ends, as it does when the daemon restarts.
func follow(ctx context.Context, src Source, clock clockwork.Clock, send func(tea.Msg)) {
	backoff := minBackoff
	for {
		err := src.Follow(ctx, "", func() {
			backoff = minBackoff
			send(connMsg{})
		}, func(e api.Event) error {
			send(eventMsg{e})
			return nil
		})
		if ctx.Err() != nil {
			return
		}
		if err == nil {
			err = errStreamEnded
		}
		send(connMsg{err: err, retry: backoff})
		select {
		case <-ctx.Done():
			return
		case <-clock.After(backoff):
		}
		backoff = min(2*backoff, maxBackoff)
	}
}
