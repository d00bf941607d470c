//go:build linux

package loadtest

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// Summary describes a set of durations.
type Summary struct {
	N                  int
	Min, P50, P90, P99 time.Duration
	Max                time.Duration
}

// Summarize returns the nearest-rank percentiles of ds (the smallest value
// that at least p of the samples do not exceed), so every figure is one
// that was measured.
func Summarize(ds []time.Duration) Summary {
	if len(ds) == 0 {
		return Summary{}
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	rank := func(p float64) time.Duration {
		i := int(math.Ceil(p*float64(len(s)))) - 1
		return s[max(i, 0)]
	}
	return Summary{N: len(s), Min: s[0], P50: rank(0.50), P90: rank(0.90), P99: rank(0.99), Max: s[len(s)-1]}
}

func (s Summary) String() string {
	return fmt.Sprintf("n=%d min %s p50 %s p90 %s p99 %s max %s", s.N, ms(s.Min), ms(s.P50), ms(s.P90), ms(s.P99), ms(s.Max))
}

// ms writes a duration in milliseconds with one decimal.
func ms(d time.Duration) string {
	return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond))
}

// Share is CPU time over wall time, in percent of one core.
func Share(cpu, wall time.Duration) float64 {
	if wall <= 0 {
		return 0
	}
	return 100 * float64(cpu) / float64(wall)
}

// MiB writes a byte count in MiB with one decimal.
func MiB(n int64) string {
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// Fit returns the least-squares line through the points (xs[i], ys[i]):
// y = intercept + slope*x. It needs two distinct xs at least.
func Fit(xs, ys []float64) (intercept, slope float64) {
	n := float64(len(xs))
	var sx, sy, sxx, sxy float64
	for i := range xs {
		sx += xs[i]
		sy += ys[i]
		sxx += xs[i] * xs[i]
		sxy += xs[i] * ys[i]
	}
	slope = (n*sxy - sx*sy) / (n*sxx - sx*sx)
	return (sy - slope*sx) / n, slope
}
