package wait

import (
	"testing"
	"time"
)

// Receive takes values from ch until match accepts one and returns it. It
// fails the test when timeout passes first, or when ch is closed, naming
// what, a description of the awaited value such as "a decision containing
// \"cycle 1 starts\"".
func Receive[T any](t testing.TB, what string, timeout time.Duration, ch <-chan T, match func(T) bool) T {
	t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		select {
		case v, ok := <-ch:
			if !ok {
				t.Fatalf("channel closed while waiting for %s", what)
				return v
			}
			if match(v) {
				return v
			}
		case <-deadline.C:
			t.Fatal(timedOut(what, timeout))
			var zero T
			return zero
		}
	}
}
