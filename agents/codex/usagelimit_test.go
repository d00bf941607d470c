package codex_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/agents/codex"
	"github.com/codeman-dev/codeman/hooks"
	"github.com/codeman-dev/codeman/respawn"
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

// limitWidths are the pane widths the usage limit is recorded at
// (testdata/README.md): Codex wraps the message itself, and below
// 167 columns its reset time is on a row under the "■" row.
var limitWidths = []string{"80col", "120col", "166col", "250col"}

// limitResetOf is the reset the fake API gave the recording at width:
// 2h30m after its first second, cut to the minute, in UTC, the zone Codex
// ran in.
func limitResetOf(t *testing.T, width string) (reset, recorded time.Time) {
	t.Helper()
	c := loadCast(t, "usage-limit-"+width)
	recorded = time.Unix(c.Header.Timestamp, 0).UTC()
	return recorded.Truncate(time.Minute).Add(2*time.Hour + 30*time.Minute), recorded
}

// At every width the reset time read from the screen is the real one,
// the message Classify reports is the one FindUsageLimit does, and it is
// the message whole, as the failed request's hook carries it.
func TestFindUsageLimit_Widths(t *testing.T) {
	a := codex.New()
	for _, width := range limitWidths {
		for _, situation := range []string{"usage-limit-" + width, "usage-limit-" + width + "-dismissed"} {
			t.Run(situation, func(t *testing.T) {
				reset, recorded := limitResetOf(t, width)
				s := loadScreen(t, situation)
				ul, ok := a.FindUsageLimit(s.Text(), recorded.Add(10*time.Second))
				if !ok || !ul.ResetAt.Equal(reset) {
					t.Errorf("FindUsageLimit %+v, %v; want the reset at %s", ul, ok, reset.Format(time.Kitchen))
				}
				if f := a.Classify(s); f.UsageLimit != ul.Line {
					t.Errorf("Classify's usage limit %q, FindUsageLimit's %q", f.UsageLimit, ul.Line)
				}
				if want := strings.Replace(usageLimit5h, "9:12 PM", reset.Format("3:04 PM"), 1); ul.Line != want {
					t.Errorf("line %q, want %q", ul.Line, want)
				}
			})
		}
	}
}

// Rows under a limit's "■" row that are not its wrapped text stay out of
// it: the next item, the limit warning, a dialog, the composer.
func TestFindUsageLimit_BlockEnds(t *testing.T) {
	a := codex.New()
	now := time.Date(2026, 12, 1, 18, 42, 0, 0, time.UTC)
	for _, below := range []string{
		"",
		"• try again at 11:00 PM.",
		"                                            ⚠ 5h limit: only <1% left · resets at 23:00 · /status",
		"  Approaching rate limits try again at 11:00 PM.",
		"› try again at 11:00 PM.",
	} {
		text := "› keep going\n\n■ You’ve hit your usage limit. Upgrade to Pro.\n" + below + "\n\n› Ask Codex to do anything"
		ul, ok := a.FindUsageLimit(text, now)
		if !ok || !ul.ResetAt.IsZero() || ul.Line != "You’ve hit your usage limit. Upgrade to Pro." {
			t.Errorf("under %q: %+v, %v; want the first row alone, no reset time", below, ul, ok)
		}
	}
}

// The failed PostModelRequest's error is the limit's message whole: the
// hook names the reset time at any width of the pane, and any other
// failure is no usage limit.
func TestHookUsageLimit(t *testing.T) {
	a := codex.New()
	now := time.Date(2026, 12, 1, 18, 42, 0, 0, time.UTC)
	payload, err := os.ReadFile("../../hooks/testdata/codex/post-model-request-usage-limit.json")
	if err != nil {
		t.Fatal(err)
	}
	h, ok := hooks.InterpretPayload(payload)
	if !ok || h.Kind != respawn.HookTurnFailed {
		t.Fatalf("payload read as %+v, %v", h, ok)
	}
	ul, ok := a.HookUsageLimit(h.Error, now)
	if !ok || ul.Line != usageLimit5h || !ul.ResetAt.Equal(time.Date(2026, 12, 1, 21, 12, 0, 0, time.UTC)) {
		t.Errorf("HookUsageLimit %+v, %v", ul, ok)
	}
	for _, msg := range []string{"", "We’re currently experiencing high demand, which may cause temporary errors.", "rate_limit"} {
		if ul, ok := a.HookUsageLimit(msg, now); ok {
			t.Errorf("%q read as a usage limit: %+v", msg, ul)
		}
	}
}
