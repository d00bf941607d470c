package wait_test

import (
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/wait"
)

func TestReceive_SkipsUntilMatch(t *testing.T) {
	ch := make(chan int, 3)
	ch <- 1
	ch <- 2
	ch <- 3
	if got := wait.Receive(t, "an even number", time.Minute, ch, func(n int) bool { return n%2 == 0 }); got != 2 {
		t.Errorf("Receive = %d, want 2", got)
	}
	if len(ch) != 1 {
		t.Errorf("Receive took %d values past the match", 1-len(ch))
	}
}

func TestReceive_TimesOutNamingWhat(t *testing.T) {
	rec := &recordingTB{TB: t}
	wait.Receive(rec, "a value", 10*time.Millisecond, make(chan int), func(int) bool { return true })
	if !strings.Contains(rec.fatal, "timed out after 10ms waiting for a value") {
		t.Errorf("Receive failed with %q, want the timeout", rec.fatal)
	}
}

func TestReceive_FailsOnClose(t *testing.T) {
	rec := &recordingTB{TB: t}
	ch := make(chan int)
	close(ch)
	wait.Receive(rec, "a value", time.Minute, ch, func(int) bool { return true })
	if !strings.Contains(rec.fatal, "channel closed while waiting for a value") {
		t.Errorf("Receive failed with %q, want the closed channel", rec.fatal)
	}
}
