// Package wait polls a condition until it holds or a deadline passes, for
// tests whose subject has no event to wait on: a tmux pane's screen, a
// file, a process, a daemon's socket. Receive waits the same way for a
// value on a channel. A wait that times out says what it waited for and
// for how long.
//
// The first polls follow each other closely, so that a condition that soon
// holds is seen at once; the pause then grows to maxPause, so that a long
// wait on an expensive condition (a tmux capture, a status request) does
// not load the machine.
//
// It imports nothing of codeman, so that every package's own tests can use
// it, respawn's and tmux's included.
package wait

import (
	"fmt"
	"testing"
	"time"
)

// The pause between two polls starts at minPause and doubles up to
// maxPause.
const (
	minPause = 5 * time.Millisecond
	maxPause = 50 * time.Millisecond
)

// Until calls cond until it returns true, and returns nil then. When
// timeout passes first (cond is called once more at the deadline) it
// returns an error naming what, a description of the awaited condition
// such as "the idle prompt box".
func Until(what string, timeout time.Duration, cond func() bool) error {
	deadline := time.Now().Add(timeout)
	pause := minPause
	for !cond() {
		left := time.Until(deadline)
		if left <= 0 {
			return timedOut(what, timeout)
		}
		time.Sleep(min(pause, left))
		pause = min(2*pause, maxPause)
	}
	return nil
}

// timedOut says what a wait waited for, and how long.
func timedOut(what string, timeout time.Duration) error {
	return fmt.Errorf("timed out after %s waiting for %s", timeout, what)
}

// For is Until that fails the test when the wait times out.
func For(t testing.TB, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	if err := Until(what, timeout, cond); err != nil {
		t.Fatal(err)
	}
}
