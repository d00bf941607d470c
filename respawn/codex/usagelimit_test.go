package codex_test

import (
	"testing"
	"time"

	"github.com/codeman-dev/codeman/respawn"
	"github.com/codeman-dev/codeman/respawn/codex"
)

func TestFindUsageLimit(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	evening := time.Date(2026, 12, 1, 18, 42, 0, 0, time.UTC)
	cases := []struct {
		name string
		text string
		now  time.Time
		want time.Time // zero: no reset time
	}{
		{"same day", "■ " + usageLimit5h, evening, time.Date(2026, 12, 1, 21, 12, 0, 0, time.UTC)},
		{"full date", "■ " + usageLimitWk, evening, time.Date(2026, 12, 3, 20, 42, 0, 0, time.UTC)},
		// Codex prints local time without a zone: now's location.
		{"local zone", "■ " + usageLimit5h, evening.In(berlin), time.Date(2026, 12, 1, 21, 12, 0, 0, berlin)},
		// Past by less than the grace hour: just passed, not tomorrow's.
		{"just passed", "■ " + usageLimit5h, time.Date(2026, 12, 1, 21, 40, 0, 0, time.UTC), time.Date(2026, 12, 1, 21, 12, 0, 0, time.UTC)},
		{"tomorrow", "■ " + usageLimit5h, time.Date(2026, 12, 1, 23, 0, 0, 0, time.UTC), time.Date(2026, 12, 2, 21, 12, 0, 0, time.UTC)},
		{"no such date", "■ You’ve hit your usage limit. Try again at Feb 30th, 2027 1:00 AM.", evening, time.Time{}},
		{"no such date, no year", "■ You’ve hit your usage limit. Try again at Feb 30th 1:00 AM.", evening, time.Time{}},
		{"morning", "■ You’ve hit your usage limit. Try again at 12:05 AM.", evening, time.Date(2026, 12, 2, 0, 5, 0, 0, time.UTC)},
		{"date without year", "■ You’ve hit your usage limit. Try again at Jan 2nd 9:00 AM.", evening, time.Date(2027, 1, 2, 9, 0, 0, 0, time.UTC)},
		{"ASCII apostrophe", "■ You've hit your usage limit, try again at 9:12 PM.", evening, time.Date(2026, 12, 1, 21, 12, 0, 0, time.UTC)},
		{"no time", "■ You’ve hit your usage limit. Try again later.", evening, time.Time{}},
	}
	a := codex.New()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			text := "› keep going\n\n" + tc.text + "\n\n› Ask Codex to do anything"
			ul, ok := a.FindUsageLimit(text, tc.now)
			if !ok {
				t.Fatal("no usage limit found")
			}
			if !ul.ResetAt.Equal(tc.want) || !tc.want.IsZero() && ul.ResetAt.Location() != tc.now.Location() {
				t.Errorf("ResetAt %v, want %v", ul.ResetAt, tc.want)
			}
		})
	}
}

// The line FindUsageLimit reports is the one Classify reports, so that the
// core knows a limit it waits out when it sees it again.
func TestFindUsageLimit_SameLineAsClassify(t *testing.T) {
	a := codex.New()
	for _, situation := range []string{"usage-limit", "weekly-limit", "usage-limit-dismissed"} {
		s := loadScreen(t, situation)
		ul, ok := a.FindUsageLimit(s.Text(), time.Date(2026, 12, 1, 18, 42, 0, 0, time.UTC))
		if f := a.Classify(s); !ok || ul.Line != f.UsageLimit || ul.ResetAt.IsZero() {
			t.Errorf("%s: FindUsageLimit %+v, %v; Classify %q", situation, ul, ok, f.UsageLimit)
		}
	}
}

// Errors, an agent quoting the message and the limit warning row are no
// usage limit.
func TestFindUsageLimit_None(t *testing.T) {
	a := codex.New()
	for _, text := range []string{
		"■ Selected model is at capacity. Please try a different model.",
		"• You’ve hit your usage limit. Try again at 9:12 PM. is what Codex prints",
		"                        ⚠ 5h limit: only <1% left · resets at 21:12 · /status",
	} {
		if ul, ok := a.FindUsageLimit(text, time.Now()); ok {
			t.Errorf("%q: found %+v", text, ul)
		}
	}
}

func TestCommands(t *testing.T) {
	a := codex.New()
	if a.Name() != "codex" {
		t.Errorf("Name %q", a.Name())
	}
	for step, want := range map[respawn.Step]string{respawn.StepClear: "/new", respawn.StepInit: "/init", respawn.StepUpdate: ""} {
		if got := a.Command(step); got != want {
			t.Errorf("Command(%s) = %q, want %q", step, got, want)
		}
	}
}
