package claude

import (
	"testing"
	"time"
)

func TestFindUsageLimit(t *testing.T) {
	utc := time.UTC
	toronto, _ := time.LoadLocation("America/Toronto")
	colombo, _ := time.LoadLocation("Asia/Colombo")
	vienna, _ := time.LoadLocation("Europe/Vienna")
	now := time.Date(2026, 11, 29, 19, 0, 0, 0, utc) // the captures' day, 7pm UTC

	tests := []struct {
		name     string
		text     string
		now      time.Time
		wantLine string
		want     time.Time
	}{
		{"FiveHour", "  ⎿  You've hit your 5-hour limit · resets 10:06pm (UTC)", now,
			"You've hit your 5-hour limit · resets 10:06pm (UTC)", time.Date(2026, 11, 29, 22, 6, 0, 0, utc)},
		{"Weekly", "  ⎿  You've hit your weekly limit · resets Dec 2, 7:07pm (UTC)", now,
			"You've hit your weekly limit · resets Dec 2, 7:07pm (UTC)", time.Date(2026, 12, 2, 19, 7, 0, 0, utc)},
		{"ExtraUsage", "You're out of extra usage · resets 11:30am (Asia/Colombo)", now,
			"You're out of extra usage · resets 11:30am (Asia/Colombo)", time.Date(2026, 11, 30, 11, 30, 0, 0, colombo)},
		{"PlainLimit", "You've hit your limit · resets 2pm (America/Toronto)", now, // 2pm Toronto is 7pm UTC: exactly now
			"You've hit your limit · resets 2pm (America/Toronto)", time.Date(2026, 11, 29, 14, 0, 0, 0, toronto)},
		{"SessionLimit", "You've hit your session limit · resets 1:20am (Europe/Vienna)", now,
			"You've hit your session limit · resets 1:20am (Europe/Vienna)", time.Date(2026, 11, 30, 1, 20, 0, 0, vienna)},
		{"LegacyFiveHour", "5-hour limit reached ∙ resets 3pm", now,
			"5-hour limit reached ∙ resets 3pm", time.Date(2026, 11, 30, 15, 0, 0, 0, utc)},
		{"Notice", "  ⚠ Usage limit reached · limit resets 10:06pm", now,
			"Usage limit reached · limit resets 10:06pm", time.Date(2026, 11, 29, 22, 6, 0, 0, utc)},
		{"Epoch", "Claude AI usage limit reached|1767225600", now,
			"Claude AI usage limit reached|1767225600", time.Unix(1767225600, 0)},
		{"OlderCLI", "Claude usage limit reached. Your limit will reset at 5pm (America/Toronto).", now,
			"Claude usage limit reached. Your limit will reset at 5pm (America/Toronto).", time.Date(2026, 11, 29, 17, 0, 0, 0, toronto)},
		{"NowsZone", "You've hit your 5-hour limit · resets 10:06pm", now.In(colombo),
			"You've hit your 5-hour limit · resets 10:06pm", time.Date(2026, 11, 30, 22, 6, 0, 0, colombo)},
		{"UnknownZone", "You've hit your 5-hour limit · resets 10:06pm (PST)", now,
			"You've hit your 5-hour limit · resets 10:06pm (PST)", time.Date(2026, 11, 29, 22, 6, 0, 0, utc)},
		{"JustPassed", "You've hit your 5-hour limit · resets 6:30pm (UTC)", now,
			"You've hit your 5-hour limit · resets 6:30pm (UTC)", time.Date(2026, 11, 29, 18, 30, 0, 0, utc)},
		{"PassedLongAgo", "You've hit your 5-hour limit · resets 5:30pm (UTC)", now,
			"You've hit your 5-hour limit · resets 5:30pm (UTC)", time.Date(2026, 11, 30, 17, 30, 0, 0, utc)},
		{"JustPassedBeforeMidnight", "You've hit your 5-hour limit · resets 11:58pm (UTC)", time.Date(2026, 11, 30, 0, 5, 0, 0, utc),
			"You've hit your 5-hour limit · resets 11:58pm (UTC)", time.Date(2026, 11, 29, 23, 58, 0, 0, utc)},
		{"DatePassed", "You've hit your weekly limit · resets Nov 2, 7:07pm (UTC)", now,
			"You've hit your weekly limit · resets Nov 2, 7:07pm (UTC)", time.Date(2027, 11, 2, 19, 7, 0, 0, utc)},
		{"NoTime", "Usage limit reached · limit resets soon", now,
			"Usage limit reached · limit resets soon", time.Time{}},
		{"BadHour", "You've hit your limit · resets 13pm (UTC)", now,
			"You've hit your limit · resets 13pm (UTC)", time.Time{}},
		{"TwentyFourHour", "You've hit your limit · resets 22:06 (UTC)", now,
			"You've hit your limit · resets 22:06 (UTC)", time.Date(2026, 11, 29, 22, 6, 0, 0, utc)},
		{"Banner2_1_328", "● Usage limit reached · continuing automatically at 10:06pm · esc to cancel", now,
			"Usage limit reached · continuing automatically at 10:06pm · esc to cancel", time.Date(2026, 11, 29, 22, 6, 0, 0, utc)},
		{"Banner2_1_332", "● Usage limit reached · set to continue automatically at 8pm", now,
			"Usage limit reached · set to continue automatically at 8pm", time.Date(2026, 11, 29, 20, 0, 0, 0, utc)},
		{"BannerAgain", "● Usage limit reached again · set to continue automatically at 8:05pm", now,
			"Usage limit reached again · set to continue automatically at 8:05pm", time.Date(2026, 11, 29, 20, 5, 0, 0, utc)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := FindUsageLimit(tt.text, tt.now)
			if !ok {
				t.Fatalf("no usage limit in %q", tt.text)
			}
			if got.Line != tt.wantLine || !got.ResetAt.Equal(tt.want) {
				t.Errorf("got %q at %v, want %q at %v", got.Line, got.ResetAt, tt.wantLine, tt.want)
			}
		})
	}
}

func TestFindUsageLimit_Screens(t *testing.T) {
	now := time.Date(2026, 11, 29, 19, 0, 0, 0, time.UTC)
	tests := []struct {
		file     string
		wantLine string
		want     time.Time
	}{
		// The newest line is the footer's, which names no zone: it takes
		// the zone of the transcript's line with the same time.
		{"55-oauth-usage-limit.txt", "Usage limit reached · limit resets 10:06pm", time.Date(2026, 11, 29, 22, 6, 0, 0, time.UTC)},
		{"57-oauth-weekly-limit.txt", "You've hit your weekly limit · resets Dec 2, 7:07pm (UTC)", time.Date(2026, 12, 2, 19, 7, 0, 0, time.UTC)},
		{"56e-legacy-usage-limit-epoch-derived.txt", "Claude AI usage limit reached|1767225600", time.Unix(1767225600, 0)},
	}
	for _, tt := range tests {
		got, ok := FindUsageLimit(screenFixture(t, tt.file).Text(), now.In(time.FixedZone("X", 5*3600)))
		if !ok || got.Line != tt.wantLine || !got.ResetAt.Equal(tt.want) {
			t.Errorf("%s: got %q at %v (%v), want %q at %v", tt.file, got.Line, got.ResetAt, ok, tt.wantLine, tt.want)
		}
	}
}

// TestFindUsageLimit_ClassifiedLine checks the controller's path: the
// message Classify reports gives the reset time on its own.
func TestFindUsageLimit_ClassifiedLine(t *testing.T) {
	now := time.Date(2026, 11, 29, 19, 0, 0, 0, time.UTC)
	f := DefaultPatterns().Classify(screenFixture(t, "55-oauth-usage-limit.txt"))
	got, ok := FindUsageLimit(f.UsageLimit, now)
	if !ok || !got.ResetAt.Equal(time.Date(2026, 11, 29, 22, 6, 0, 0, time.UTC)) {
		t.Errorf("UsageLimit %q gives %v, %v", f.UsageLimit, got.ResetAt, ok)
	}
}

func TestFindUsageLimit_None(t *testing.T) {
	for _, text := range []string{
		"",
		"● API Error: Request rejected (429) · This request would exceed your account's rate limit. Please try again later. (fake)",
		"     /upgrade to increase your usage limit.",
		"● Automatic continue cancelled · /rate-limit-options to re-arm",
		"● Automatic continue cancelled · /rate-limit-options to wait again",
		"● Usage limit reset · Continuing automatically",
		"● Usage limit has reset · Press enter to continue",
		"    Continuing automatically at 8pm · Esc to cancel",
		"    Continuing shortly · Esc to cancel",
	} {
		if got, ok := FindUsageLimit(text, time.Now()); ok {
			t.Errorf("FindUsageLimit(%q) = %+v", text, got)
		}
	}
}
