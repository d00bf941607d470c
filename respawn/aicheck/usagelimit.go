package aicheck

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/codeman-dev/codeman/respawn"
)

// The messages Claude Code prints when a usage or rate limit stops a turn
// (reference/claude-code-tui.md §4.9–4.10, codeman-respawn.md §9.4). These
// are a local parser: package respawn's pattern table does not offer one
// to its checkers yet.
var (
	// `Claude AI usage limit reached|1767225600`, printed by older CLIs.
	epochLimitPattern = regexp.MustCompile(`(?i)claude ai usage limit reached\|(\d{9,11})`)
	// `You've hit your 5-hour limit · resets 10:06pm (UTC)`,
	// `5-hour limit reached ∙ resets 3pm`, `limit resets Dec 2, 7:07pm`.
	resetLimitPattern = regexp.MustCompile(`(?i)(?:hit your\b.*\blimit|out of extra usage|limit reached)\s*[·∙•|-]?\s*(?:limit\s+)?resets?\s+(?:at\s+)?([^()\n·∙•|]*?)\s*(?:\(([^()\n]+)\))?\s*(?:$|[·∙•|])`)
	// A limit without a reset time, and the API's rate-limit and overload
	// errors: `API Error: Request rejected (429) · …`,
	// `API Error: 529 Overloaded. …`.
	bareLimitPattern = regexp.MustCompile(`(?i)usage limit reached|hit your\b.*\blimit|out of extra usage|api error\b.*\b(?:429|529)\b|\b429 too many requests|\b529 overloaded|rate_limit_error|overloaded_error`)
	// `10:06pm`, `3am`, `Dec 2, 7:07pm`, `7:07 PM`.
	resetTimePattern = regexp.MustCompile(`(?i)^(?:([a-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+)?(\d{1,2})(?::(\d{2}))?\s*([ap]m)$`)
)

// resetGrace is how far in the past a printed reset time may lie and still
// be today's: Claude prints whole minutes, and clocks differ a little. A
// 5-hour limit never resets a day away, so anything older is tomorrow's.
const resetGrace = time.Hour

// findUsageLimit looks for a usage or rate limit message in text, line by
// line, and parses its reset time relative to now when it gives one.
func findUsageLimit(text string, now time.Time) (respawn.UsageLimitError, bool) {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if m := epochLimitPattern.FindStringSubmatch(line); m != nil {
			epoch, _ := strconv.ParseInt(m[1], 10, 64) // \d{9,11} always fits
			return respawn.UsageLimitError{Line: line, ResetAt: time.Unix(epoch, 0)}, true
		}
		if m := resetLimitPattern.FindStringSubmatch(line); m != nil {
			return respawn.UsageLimitError{Line: line, ResetAt: parseResetTime(m[1], m[2], now)}, true
		}
	}
	for _, line := range strings.Split(text, "\n") {
		if bareLimitPattern.MatchString(line) {
			return respawn.UsageLimitError{Line: strings.TrimSpace(line)}, true
		}
	}
	return respawn.UsageLimitError{}, false
}

// parseResetTime turns `10:06pm` or `Dec 2, 7:07pm` in zone (an IANA name;
// empty or unknown means now's zone) into the next such moment after now,
// allowing resetGrace. It returns the zero time when clock is not a time.
func parseResetTime(clock, zone string, now time.Time) time.Time {
	m := resetTimePattern.FindStringSubmatch(strings.TrimSpace(clock))
	if m == nil {
		return time.Time{}
	}
	hour, _ := strconv.Atoi(m[3])
	minute, _ := strconv.Atoi(m[4]) // "" when the minutes are left out: 0
	if hour < 1 || hour > 12 || minute > 59 {
		return time.Time{}
	}
	hour %= 12
	if strings.EqualFold(m[5], "pm") {
		hour += 12
	}
	loc := now.Location()
	if l, err := time.LoadLocation(strings.TrimSpace(zone)); err == nil && zone != "" {
		loc = l
	}
	local := now.In(loc)
	if m[1] == "" {
		reset := time.Date(local.Year(), local.Month(), local.Day(), hour, minute, 0, 0, loc)
		if reset.Before(now.Add(-resetGrace)) {
			reset = reset.AddDate(0, 0, 1)
		}
		return reset
	}
	month, ok := months[strings.ToLower(m[1])]
	day, _ := strconv.Atoi(m[2])
	if !ok || day < 1 || day > 31 {
		return time.Time{}
	}
	reset := time.Date(local.Year(), month, day, hour, minute, 0, 0, loc)
	if reset.Before(now.Add(-resetGrace)) {
		reset = reset.AddDate(1, 0, 0)
	}
	return reset
}

var months = map[string]time.Month{
	"jan": time.January, "feb": time.February, "mar": time.March, "apr": time.April,
	"may": time.May, "jun": time.June, "jul": time.July, "aug": time.August,
	"sep": time.September, "oct": time.October, "nov": time.November, "dec": time.December,
}
