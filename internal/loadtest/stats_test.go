//go:build linux

package loadtest

import (
	"testing"
	"time"
)

func TestSummarize(t *testing.T) {
	var ds []time.Duration
	for i := 100; i >= 1; i-- {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	got := Summarize(ds)
	want := Summary{N: 100, Min: 1 * time.Millisecond, P50: 50 * time.Millisecond, P90: 90 * time.Millisecond, P99: 99 * time.Millisecond, Max: 100 * time.Millisecond}
	if got != want {
		t.Fatalf("Summarize(1..100ms) = %v, want %v", got, want)
	}
	if ds[0] != 100*time.Millisecond {
		t.Fatal("Summarize sorted its argument")
	}
	one := Summarize([]time.Duration{7 * time.Millisecond})
	if one.P50 != 7*time.Millisecond || one.P99 != 7*time.Millisecond {
		t.Fatalf("one sample: %v", one)
	}
	if (Summarize(nil) != Summary{}) {
		t.Fatal("no samples should give the zero Summary")
	}
}

func TestShare(t *testing.T) {
	if got := Share(600*time.Millisecond, time.Minute); got != 1 {
		t.Fatalf("Share(0.6s, 60s) = %v%%, want 1%%", got)
	}
	if got := Share(time.Second, 0); got != 0 {
		t.Fatalf("Share over no wall time = %v", got)
	}
}
