package claude

import (
	"testing"

	"github.com/codeman-dev/codeman/internal/rig/claudescreen"
	"github.com/codeman-dev/codeman/respawn"
)

// TestClassify_AutoContinue reads Claude Code's own continue at a usage
// limit, on real screens and on screens built from their rows.
func TestClassify_AutoContinue(t *testing.T) {
	p := DefaultPatterns()
	firedThenError := claudescreen.Of("❯ keep going", claudescreen.LimitHit, claudescreen.LimitBanner, claudescreen.AutoContinued,
		"● API Error: 529 Overloaded (fake).", "", claudescreen.Rule, claudescreen.Prompt, claudescreen.Rule, claudescreen.FooterIdle)
	tests := []struct {
		name   string
		screen respawn.Screen
		want   string // describeFacts
	}{
		{"Armed", respawn.Screen{Lines: claudescreen.Armed(claudescreen.ArmedAt)},
			`prompt_box usage_limit="You've hit your 5-hour limit · resets 8pm (UTC)" auto_continue=armed`},
		{"ArmedAfterReset", respawn.Screen{Lines: claudescreen.Armed(claudescreen.ArmedShortly)},
			`prompt_box usage_limit="You've hit your 5-hour limit · resets 8pm (UTC)" auto_continue=armed`},
		// The limit rows stay in the latest turn (Claude Code's prompt is
		// not echoed), but they are history now.
		{"FiredAndDone", respawn.Screen{Lines: claudescreen.AutoContinuedTurn()}, "completion prompt_box auto_continue=fired"},
		{"FiredWorking", respawn.Screen{Lines: claudescreen.AutoContinueWorking()}, "working prompt_box auto_continue=fired"},
		{"FiredThenError", respawn.Screen{Lines: firedThenError}, `prompt_box api_error="API Error: 529 Overloaded (fake)."`},
		{"Older2_1_328", screenFixture(t, "55-oauth-usage-limit.txt"),
			`prompt_box usage_limit="You've hit your 5-hour limit · resets 10:06pm (UTC)" auto_continue=armed`},
		{"Cancelled2_1_328", screenFixture(t, "56-oauth-usage-limit-esc.txt"),
			`prompt_box usage_limit="You've hit your 5-hour limit · resets 10:06pm (UTC)" auto_continue=off`},
		{"Stale", respawn.Screen{Lines: claudescreen.Of("❯ keep going", claudescreen.LimitHit, claudescreen.LimitBanner, "● Usage limit has reset · Press enter to continue",
			"", claudescreen.Rule, claudescreen.Prompt, claudescreen.Rule, "  ⚠ Your usage limit has reset", "    Press enter to continue", claudescreen.FooterIdle)},
			`prompt_box usage_limit="You've hit your 5-hour limit · resets 8pm (UTC)" auto_continue=stale`},
		{"NoBoxNoFooter", respawn.Screen{Lines: claudescreen.Of("❯ keep going", claudescreen.LimitHit, "", claudescreen.LimitNotice, claudescreen.ArmedAt)},
			`usage_limit="You've hit your 5-hour limit · resets 8pm (UTC)"`},
		{"Armed2_1_332", screenFixture(t, "v2.1.332-usage-limit-armed.txt"),
			`prompt_box usage_limit="You've hit your 5-hour limit · resets 5:33pm (UTC)" auto_continue=armed`},
		{"ArmedAfterReset2_1_332", screenFixture(t, "v2.1.332-usage-limit-reset.txt"),
			`prompt_box usage_limit="You've hit your 5-hour limit · resets 3:35pm (UTC)" auto_continue=armed`},
		{"Continued2_1_332", screenFixture(t, "v2.1.332-usage-limit-continued.txt"), "completion prompt_box auto_continue=fired"},
		{"Cancelled2_1_332", screenFixture(t, "v2.1.332-usage-limit-esc.txt"),
			`prompt_box usage_limit="You've hit your 5-hour limit · resets 5:33pm (UTC)" auto_continue=off`},
		{"MenuWithContinueOff2_1_332", screenFixture(t, "v2.1.332-usage-limit-menu.txt"),
			`dialog=limit_menu usage_limit="You've hit your 5-hour limit · resets 5:35pm (UTC)"`},
		{"Menu", screenFixture(t, "57-oauth-weekly-limit.txt"),
			`dialog=limit_menu usage_limit="You've hit your weekly limit · resets Dec 2, 7:07pm (UTC)"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := p.Classify(tt.screen)
			if got := describeFacts(f); got != tt.want {
				t.Errorf("facts = %s\nwant    %s\nevidence %q", got, tt.want, f.Evidence)
			}
		})
	}
}
