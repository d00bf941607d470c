package aicheck

import (
	"testing"
	"time"
	_ "time/tzdata" // the zones below must load on any machine
)

func TestFindUsageLimit(t *testing.T) {
	now := time.Date(2026, 3, 10, 20, 0, 0, 0, time.UTC)
	utc := func(month time.Month, day, hour, minute int) time.Time {
		return time.Date(2026, month, day, hour, minute, 0, 0, time.UTC)
	}
	tests := []struct {
		name  string
		text  string
		found bool
		line  string
		reset time.Time // zero when none
	}{
		{"FiveHour", "You've hit your 5-hour limit · resets 10:06pm (UTC)", true, "", utc(3, 10, 22, 6)},
		{"SessionTomorrow", "You've hit your session limit · resets 1:20am (Europe/Vienna)", true, "", utc(3, 11, 0, 20)},
		{"WeeklyWithDate", "  ⎿  You've hit your weekly limit · resets Dec 2, 7:07pm (UTC)", true, "You've hit your weekly limit · resets Dec 2, 7:07pm (UTC)", utc(12, 2, 19, 7)},
		{"ExtraUsage", "You're out of extra usage · resets 11:30am (Asia/Colombo)", true, "", utc(3, 11, 6, 0)},
		{"HourOnly", "You've hit your limit · resets 2pm (America/Toronto)", true, "", utc(3, 11, 18, 0)},
		{"OldFormNoZone", "5-hour limit reached ∙ resets 3pm", true, "", utc(3, 11, 15, 0)},
		{"JustPassed", "You've hit your 5-hour limit · resets 7:59pm (UTC)", true, "", utc(3, 10, 19, 59)},
		{"Footer", "  ⚠ Usage limit reached · limit resets 10:06pm", true, "Usage limit reached · limit resets 10:06pm", utc(3, 10, 22, 6)},
		{"TrailingText", "You've hit your 5-hour limit · resets 10:06pm (UTC) · /upgrade", true, "", utc(3, 10, 22, 6)},
		{"Epoch", "Claude AI usage limit reached|1767225600", true, "", time.Unix(1767225600, 0)},
		{"UnknownZone", "You've hit your 5-hour limit · resets 10:06pm (Mars/Olympus)", true, "", utc(3, 10, 22, 6)},
		{"BadClock", "You've hit your limit · resets 13pm (UTC)", true, "", time.Time{}},
		{"NoClock", "You've hit your 5-hour limit · resets soon", true, "", time.Time{}},
		{"ContinuingAutomatically", "● Usage limit reached · continuing automatically at 10:06pm · esc to cancel", true, "Usage limit reached · continuing automatically at 10:06pm · esc to cancel", utc(3, 10, 22, 6)},
		{"RateLimit429", "API Error: Request rejected (429) · Number of request tokens has exceeded your per-minute rate limit", true, "", time.Time{}},
		{"Overloaded529", "API Error: 529 Overloaded. This is a server-side issue, usually temporary", true, "", time.Time{}},
		{"ResetLineWins", "Usage limit reached · continuing automatically at 10:06pm\nYou've hit your 5-hour limit · resets 10:06pm (UTC)", true, "You've hit your 5-hour limit · resets 10:06pm (UTC)", utc(3, 10, 22, 6)},
		{"ServerError500", "API Error: 500 Internal server error. This is a server-side issue", false, "", time.Time{}},
		{"NumberInText", "The build took 429 seconds", false, "", time.Time{}},
		{"NotLoggedIn", "Not logged in · Please run /login", false, "", time.Time{}},
		{"Verdict", "IDLE\nThe prompt is empty.", false, "", time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, found := findUsageLimit(tt.text, now)
			if found != tt.found {
				t.Fatalf("findUsageLimit(%q) found = %t, want %t", tt.text, found, tt.found)
			}
			if !found {
				return
			}
			wantLine := tt.line
			if wantLine == "" {
				wantLine = tt.text
			}
			if got.Line != wantLine {
				t.Errorf("Line = %q, want %q", got.Line, wantLine)
			}
			if !got.ResetAt.Equal(tt.reset) {
				t.Errorf("ResetAt = %s, want %s", got.ResetAt, tt.reset)
			}
		})
	}
}
