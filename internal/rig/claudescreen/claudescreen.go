// Package claudescreen builds Claude Code screens for tests from rows of
// real captures (agents/claude/testdata/screens, docs/claude-code.md): the
// core's tests and the Claude Code reader's read the same screens. It
// imports nothing of codeman's, so that any package's own tests can use
// it. Only tests import it.
package claudescreen

import "strings"

// Rows of an idle Claude Code 2.1.328 screen.
var (
	Rule       = strings.Repeat("─", 80)
	Prompt     = "❯\u00a0"
	FooterIdle = "  ⏸ manual mode on · ? for shortcuts"
	FooterBusy = "  ⏸ manual mode on · esc to interrupt"
	// Header is the banner above the conversation, with the blank row
	// under it.
	Header = []string{" ▐▛███▛█   Claude Code v2.1.328", "▝▜██████▀  Opus 5.5 · API Usage Billing", " ▝▝   ▝▝   /home/dev/proj", ""}
)

// Of is a screen: the header, then rows.
func Of(rows ...string) []string {
	return append(append([]string{}, Header...), rows...)
}

// Rows of a 5-hour limit that resets at 20:00 UTC, from real Claude Code
// 2.1.332 captures (agents/claude/testdata/screens/v2.1.332-*.txt).
const (
	LimitHit      = "  ⎿  You've hit your 5-hour limit · resets 8pm (UTC)"
	LimitBanner   = "● Usage limit reached · set to continue automatically at 8pm"
	LimitNotice   = "  ⚠ Usage limit reached · limit resets 8pm"
	ArmedAt       = "    Continuing automatically at 8pm · Esc to cancel"
	ArmedShortly  = "    Continuing shortly · Esc to cancel"
	AutoContinued = "● Usage limit reset · Continuing automatically"
)

// Armed is the limit with Claude Code's own continue armed for the reset;
// footer is ArmedAt or ArmedShortly.
func Armed(footer string) []string {
	return Of("❯ keep going", LimitHit, LimitBanner, "", Rule, Prompt, Rule, LimitNotice, footer, FooterIdle)
}

// AutoContinuedTurn: Claude Code continued by itself after the reset and
// finished that turn. Its prompt is not echoed, so the limit rows stay in
// the latest turn.
func AutoContinuedTurn() []string {
	return Of("❯ keep going", LimitHit, LimitBanner, AutoContinued, "● Back after the reset.",
		"✻ Brewed for 0s · done 8:01 PM", "", Rule, Prompt, Rule, FooterIdle)
}

// AutoContinueWorking: the same turn while it runs.
func AutoContinueWorking() []string {
	return Of("❯ keep going", LimitHit, LimitBanner, AutoContinued, "✽ Kneading… (running UserPromptSubmit hook · 0s)",
		"", Rule, Prompt, Rule, FooterBusy)
}
