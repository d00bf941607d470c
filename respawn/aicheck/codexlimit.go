package aicheck

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/codeman-dev/codeman/respawn"
)

// codexResetPattern matches the reset time of Codex's usage limit message,
// "You’ve hit your usage limit. … try again at 9:12 PM." on the day of the
// reset, "… try again at Dec 3rd, 2026 8:42 PM." further out. Codex prints
// it in its local zone, which codexEnv makes UTC.
var codexResetPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\btry again at\s+(?:([a-z]{3})[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\s+)?(\d{1,2}):(\d{2})\s*([ap])\.?m\b`)
})

// codexLimitPattern matches Codex's other limits, which carry no reset
// time: an overloaded model (a 503), a rate limit reported mid-stream, a
// used-up quota. Its usage limit ("You’ve hit your usage limit") and a
// 429 that outlasted the retries ("last status: 429 Too Many Requests")
// are claude's patterns too.
var codexLimitPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)selected model is at capacity|\brate limit exceeded\b|\bquota exceeded\b`)
})

// findCodexLimit looks for a usage or rate limit in the errors of codex
// exec. The newest line wins, as on a screen.
func findCodexLimit(text string, now time.Time) (respawn.UsageLimitError, bool) {
	lines := strings.Split(text, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		line := strings.TrimSpace(lines[i])
		if m := codexResetPattern().FindStringSubmatch(line); m != nil && bareLimitPattern().MatchString(line) {
			return respawn.UsageLimitError{Line: line, ResetAt: codexReset(m, now)}, true
		}
		if bareLimitPattern().MatchString(line) || codexLimitPattern().MatchString(line) {
			return respawn.UsageLimitError{Line: line}, true
		}
	}
	return respawn.UsageLimitError{}, false
}

// codexReset returns the reset time of a codexResetPattern match, in UTC:
// the date printed, or else the next time of day at that clock after now
// less the grace a just-passed reset gets. It is zero when the clock or
// the date is not one.
func codexReset(m []string, now time.Time) time.Time {
	hour, _ := strconv.Atoi(m[4])
	minute, _ := strconv.Atoi(m[5])
	if hour < 1 || hour > 12 || minute > 59 {
		return time.Time{}
	}
	hour %= 12
	if strings.EqualFold(m[6], "p") {
		hour += 12
	}
	if m[1] != "" {
		month := monthNumber(m[1])
		day, _ := strconv.Atoi(m[2])
		year, _ := strconv.Atoi(m[3])
		t := time.Date(year, month, day, hour, minute, 0, 0, time.UTC)
		if month == 0 || t.Day() != day {
			return time.Time{}
		}
		return t
	}
	now = now.UTC()
	t := time.Date(now.Year(), now.Month(), now.Day(), hour, minute, 0, 0, time.UTC)
	if t.Before(now.Add(-resetGrace)) {
		t = t.AddDate(0, 0, 1)
	}
	return t
}

// resetGrace is how far in the past a reset time of day may lie and still
// be taken as just passed rather than as tomorrow's, as for claude.
const resetGrace = time.Hour

// monthNumber returns the month of a three-letter English abbreviation,
// or 0.
func monthNumber(abbr string) time.Month {
	for m := time.January; m <= time.December; m++ {
		if strings.EqualFold(abbr, m.String()[:3]) {
			return m
		}
	}
	return 0
}
