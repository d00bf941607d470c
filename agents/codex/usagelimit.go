package codex

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/codeman-dev/codeman/respawn"
)

// usageLimitGrace is how far in the past a printed reset time may lie and
// still be taken as just passed rather than as tomorrow's: the line stays
// on screen after the reset. It is the hour claude.FindUsageLimit allows.
const usageLimitGrace = time.Hour

// resetRe reads the reset time Codex prints in its local zone: "try again
// at 9:12 PM." the same day, "try again at Dec 3rd, 2026 8:42 PM." further
// out. It compiles on first use, as respawn's reset regexps do.
var resetRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\btry again at\s+` +
		`(?:(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(?:(\d{4}),?\s+)?)?` +
		`(\d{1,2}):(\d{2})(?:\s*([ap])\.?m\b)?`)
})

// usageLimitMessage returns the message of the usage-limit block that
// starts at row r ("■ You’ve hit your usage limit. … try again at 9:12
// PM."), without the "■ ", its wrapped rows joined.
func usageLimitMessage(rows []string, r int) (string, bool) {
	msg, ok := blockMessage(rows, r)
	if !ok || !isUsageLimit(msg) {
		return "", false
	}
	return msg, true
}

// isUsageLimit reports whether a "■" message is a usage limit rather than
// an API error. Codex writes a typographic apostrophe; an ASCII one is
// taken too.
func isUsageLimit(msg string) bool {
	return strings.HasPrefix(msg, "You’ve hit your usage limit") || strings.HasPrefix(msg, "You've hit your usage limit")
}

// findUsageLimit finds the newest usage-limit block in text and returns
// its message, read across its wrapped rows, with ResetAt the printed time in now's location (Codex prints
// local time and no zone): a full date is taken as is, a date without a
// year or a bare time is the next occurrence after now less
// usageLimitGrace. ResetAt stays zero when no time is printed ("try again
// later").
func findUsageLimit(text string, now time.Time) (respawn.UsageLimitError, bool) {
	rows := strings.Split(text, "\n")
	for i := len(rows) - 1; i >= 0; i-- {
		if msg, ok := usageLimitMessage(rows, i); ok {
			return respawn.UsageLimitError{Line: msg, ResetAt: ResetAt(msg, now)}, true
		}
	}
	return respawn.UsageLimitError{}, false
}

// ResetAt reads the reset time of a usage-limit message ("… try again at
// 9:12 PM.") as seen at now, in now's location, zero when none is printed.
// codex exec's errors say it as the screen does.
func ResetAt(msg string, now time.Time) time.Time {
	m := resetRe().FindStringSubmatch(msg)
	if m == nil {
		return time.Time{}
	}
	hour, _ := strconv.Atoi(m[4])
	minute, _ := strconv.Atoi(m[5])
	switch strings.ToLower(m[6]) {
	case "a", "p":
		if hour < 1 || hour > 12 {
			return time.Time{}
		}
		hour %= 12
		if strings.EqualFold(m[6], "p") {
			hour += 12
		}
	}
	if hour > 23 || minute > 59 {
		return time.Time{}
	}
	loc, earliest := now.Location(), now.Add(-usageLimitGrace)
	if m[1] != "" {
		month := monthOf(m[1])
		day, _ := strconv.Atoi(m[2])
		if day < 1 || day > 31 {
			return time.Time{}
		}
		if m[3] != "" {
			year, _ := strconv.Atoi(m[3])
			if t := time.Date(year, month, day, hour, minute, 0, 0, loc); t.Day() == day {
				return t
			}
			return time.Time{} // no such date: time.Date would roll it over
		}
		for year := now.In(loc).Year() - 1; year <= now.In(loc).Year()+4; year++ {
			if t := time.Date(year, month, day, hour, minute, 0, 0, loc); t.Day() == day && !t.Before(earliest) {
				return t
			}
		}
		return time.Time{}
	}
	local := now.In(loc)
	for day := local.Day() - 1; ; day++ {
		if t := time.Date(local.Year(), local.Month(), day, hour, minute, 0, 0, loc); !t.Before(earliest) {
			return t
		}
	}
}

var months = [...]string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}

// monthOf returns the month a name begins with; the regexp only passes
// the twelve.
func monthOf(name string) time.Month {
	for i, p := range months {
		if strings.EqualFold(name[:3], p) {
			return time.Month(i + 1)
		}
	}
	return time.January
}
