package wait_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/wait"
)

func TestUntil_ReturnsOnceCondHolds(t *testing.T) {
	calls := 0
	err := wait.Until("the third call", time.Minute, func() bool {
		calls++
		return calls == 3
	})
	if err != nil || calls != 3 {
		t.Errorf("Until = %v after %d calls, want nil after 3", err, calls)
	}
}

func TestUntil_TimesOutNamingWhat(t *testing.T) {
	calls := 0
	start := time.Now()
	err := wait.Until("the impossible", 30*time.Millisecond, func() bool {
		calls++
		return false
	})
	if err == nil || err.Error() != "timed out after 30ms waiting for the impossible" {
		t.Errorf("Until = %v, want a timeout naming the impossible", err)
	}
	if took := time.Since(start); took < 30*time.Millisecond {
		t.Errorf("Until gave up after %s, before its 30ms", took)
	}
	if calls < 3 {
		t.Errorf("cond called %d times in 30ms, want the first polls close together", calls)
	}
}

func TestFor_FailsTheTest(t *testing.T) {
	rec := &recordingTB{TB: t}
	wait.For(rec, "a condition", 10*time.Millisecond, func() bool { return false })
	if !strings.Contains(rec.fatal, "timed out after 10ms waiting for a condition") {
		t.Errorf("For failed with %q, want the timeout", rec.fatal)
	}
	rec = &recordingTB{TB: t}
	wait.For(rec, "a condition", time.Minute, func() bool { return true })
	if rec.fatal != "" {
		t.Errorf("For failed with %q on a condition that holds", rec.fatal)
	}
}

// recordingTB records Fatal and Fatalf instead of ending the test.
type recordingTB struct {
	testing.TB
	fatal string
}

func (r *recordingTB) Helper() {}

func (r *recordingTB) Fatal(args ...any) {
	r.fatal = strings.TrimSuffix(fmt.Sprintln(args...), "\n")
}

func (r *recordingTB) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
}
