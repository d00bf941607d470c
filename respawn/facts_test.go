package respawn

import "testing"

func TestAutoContinue_String(t *testing.T) {
	for a, want := range map[AutoContinue]string{AutoContinueNone: "none", AutoContinueArmed: "armed", AutoContinueFired: "fired",
		AutoContinueStale: "stale", AutoContinueOff: "off", 9: "unknown", -1: "unknown"} {
		if got := a.String(); got != want {
			t.Errorf("AutoContinue(%d) = %q, want %q", int(a), got, want)
		}
	}
}
