package claude

import "strings"

// Screens built from rows of real Claude Code captures (testdata/screens,
// docs/claude-code.md), as package respawn's core tests build them.
var (
	rowRule       = strings.Repeat("─", 80)
	rowPrompt     = "❯\u00a0"
	rowFooterIdle = "  ⏸ manual mode on · ? for shortcuts"
	rowFooterBusy = "  ⏸ manual mode on · esc to interrupt"
	header        = []string{" ▐▛███▛█   Claude Code v2.1.328", "▝▜██████▀  Opus 5.5 · API Usage Billing", " ▝▝   ▝▝   /home/dev/proj", ""}
)

func screenOf(rows ...string) []string {
	return append(append([]string{}, header...), rows...)
}

// Rows of a 5-hour limit that resets at 20:00 UTC, from real Claude Code
// 2.1.332 captures (testdata/screens/v2.1.332-*.txt).
const (
	rowLimitHit      = "  ⎿  You've hit your 5-hour limit · resets 8pm (UTC)"
	rowLimitBanner   = "● Usage limit reached · set to continue automatically at 8pm"
	rowLimitNotice   = "  ⚠ Usage limit reached · limit resets 8pm"
	rowArmedAt       = "    Continuing automatically at 8pm · Esc to cancel"
	rowArmedShortly  = "    Continuing shortly · Esc to cancel"
	rowAutoContinued = "● Usage limit reset · Continuing automatically"
)

// armedScreen: the limit, Claude Code's own continue armed for the reset.
func armedScreen(footer string) []string {
	return screenOf("❯ keep going", rowLimitHit, rowLimitBanner, "", rowRule, rowPrompt, rowRule, rowLimitNotice, footer, rowFooterIdle)
}

// autoContinuedScreen: Claude Code continued by itself after the reset and
// finished that turn. Its prompt is not echoed, so the limit rows stay in
// the latest turn.
func autoContinuedScreen() []string {
	return screenOf("❯ keep going", rowLimitHit, rowLimitBanner, rowAutoContinued, "● Back after the reset.",
		"✻ Brewed for 0s · done 8:01 PM", "", rowRule, rowPrompt, rowRule, rowFooterIdle)
}

// autoContinueWorkingScreen: the same turn while it runs.
func autoContinueWorkingScreen() []string {
	return screenOf("❯ keep going", rowLimitHit, rowLimitBanner, rowAutoContinued, "✽ Kneading… (running UserPromptSubmit hook · 0s)",
		"", rowRule, rowPrompt, rowRule, rowFooterBusy)
}
