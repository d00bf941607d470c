package api

import (
	"testing"
	"time"
)

func TestAge(t *testing.T) {
	now := time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		ago  time.Duration
		want string
	}{
		{0, "now"}, {42 * time.Second, "42s"}, {5*time.Minute + 3*time.Second, "5m03s"},
		{2*time.Hour + 5*time.Minute, "2h05m"}, {76 * time.Hour, "3d04h"},
	} {
		if got := Age(now, now.Add(-tt.ago)); got != tt.want {
			t.Errorf("Age(%s ago) = %q, want %q", tt.ago, got, tt.want)
		}
	}
	if got := Age(now, time.Time{}); got != "-" {
		t.Errorf("Age(zero) = %q, want -", got)
	}
}
