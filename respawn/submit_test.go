package respawn

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

// fakeKeys records what Submit does; the screen changes after the
// changeAfter'th Enter (0: never).
type fakeKeys struct {
	clock       *clockwork.FakeClock
	start       time.Time
	changeAfter int
	enters      int
	calls       []string
}

func (k *fakeKeys) note(s string) {
	k.calls = append(k.calls, fmt.Sprintf("%4dms %s", k.clock.Since(k.start).Milliseconds(), s))
}

func (k *fakeKeys) Type(_ context.Context, text string) error { k.note("type " + text); return nil }

func (k *fakeKeys) Press(_ context.Context, key Key) error {
	k.enters++
	k.note("press " + string(key))
	return nil
}

func (k *fakeKeys) Look(context.Context) ([]byte, error) {
	if k.changeAfter > 0 && k.enters >= k.changeAfter {
		return []byte("changed"), nil
	}
	return []byte("same"), nil
}

// submitOnFakeClock runs Submit while advancing the clock each time it
// waits.
func submitOnFakeClock(t *testing.T, k *fakeKeys, timing SendTiming) error {
	t.Helper()
	done := make(chan error, 1)
	ctx, stop := context.WithTimeout(context.Background(), 10*time.Second)
	defer stop()
	go func() { done <- Submit(ctx, k, "hi", timing, k.clock); stop() }()
	for {
		if err := k.clock.BlockUntilContext(ctx, 1); err != nil {
			return <-done
		}
		k.clock.Advance(50 * time.Millisecond)
	}
}

func TestSubmit(t *testing.T) {
	for _, tc := range []struct {
		name        string
		changeAfter int
		retries     int
		wantErr     string
		wantEnters  int
	}{
		{"first Enter lands", 1, 3, "", 1},
		{"second Enter lands", 2, 3, "", 2},
		{"never changes", 0, 2, "after 3 Enter presses", 3},
		{"no retries", 0, 0, "after 1 Enter presses", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := clockwork.NewFakeClock()
			k := &fakeKeys{clock: clock, start: clock.Now(), changeAfter: tc.changeAfter}
			timing := DefaultSendTiming()
			timing.EnterRetries = tc.retries
			err := submitOnFakeClock(t, k, timing)
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("Submit = %v, want %q", err, tc.wantErr)
			}
			if k.enters != tc.wantEnters {
				t.Fatalf("%d Enter presses, want %d: %q", k.enters, tc.wantEnters, k.calls)
			}
			// The text first, then Enter on its own after the pause.
			if want := []string{"   0ms type hi", " 100ms press Enter"}; !slices.Equal(k.calls[:2], want) {
				t.Fatalf("calls %q, want them to start %q", k.calls, want)
			}
		})
	}
}
