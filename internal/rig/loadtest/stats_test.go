//go:build linux

package loadtest

import (
	"math"
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

func TestFit(t *testing.T) {
	fixed, perPane := Fit([]float64{50, 100, 200}, []float64{1.0, 1.5, 2.5})
	if math.Abs(fixed-0.5) > 1e-9 || math.Abs(perPane-0.01) > 1e-9 {
		t.Fatalf("Fit of 0.5 + 0.01n = %v + %vn", fixed, perPane)
	}
	fixed, perPane = Fit([]float64{50, 100, 200}, []float64{1.0, 1.7, 2.5})
	if perPane <= 0.0095 || perPane >= 0.0105 || fixed <= 0.5 || fixed >= 0.7 {
		t.Fatalf("Fit of noisy points = %v + %vn", fixed, perPane)
	}
}

func TestParseSizes(t *testing.T) {
	got, err := parseSizes("50, 100,200")
	if err != nil || len(got) != 3 || got[0] != 50 || got[1] != 100 || got[2] != 200 {
		t.Fatalf("parseSizes = %v, %v", got, err)
	}
	for _, bad := range []string{"", "100,50", "50,50", "0", "x"} {
		if _, err := parseSizes(bad); err == nil {
			t.Errorf("parseSizes(%q) accepted", bad)
		}
	}
}

func TestBudgets(t *testing.T) {
	if b := cpuBudget(100); b > 2 {
		t.Fatalf("CPU budget at 100 panes %.2f%%, the target is 2%%", b)
	}
	if b := memBudget(50); b > 50<<20 {
		t.Fatalf("memory budget at 50 panes %s, the target is 50 MiB", MiB(b))
	}
}
