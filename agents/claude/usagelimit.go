package claude

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // reset times name IANA zones; hosts may lack zone files

	"github.com/codeman-dev/codeman/respawn"
)

// usageLimitGrace is how far in the past a printed reset time may lie and
// still be taken as just passed rather than as tomorrow's (or next year's):
// Claude Code prints minutes only, the line stays on screen after the
// reset, and a 5-hour limit never resets a day away. The claude -p checker
// uses the same hour.
const usageLimitGrace = time.Hour

// FindUsageLimit finds the newest usage-limit line in text, such as
//
//	You've hit your 5-hour limit · resets 10:06pm (UTC)
//	You've hit your weekly limit · resets Dec 2, 7:07pm (UTC)
//	Usage limit reached · limit resets 10:06pm
//	Claude AI usage limit reached|1767225600
//
// and returns it with ResetAt set to the next occurrence of its reset time
// after now (less usageLimitGrace): in the zone named in parentheses, else
// in now's location; a date picks that date, next year when it has passed;
// an epoch is taken as is. When the newest line names no zone, an older
// line of the same reset time lends its zone (capture 55 shows the zone in
// the transcript only). ResetAt stays zero when no time can be read.
func FindUsageLimit(text string, now time.Time) (respawn.UsageLimitError, bool) {
	var line string
	var reset resetSpec
	found := false
	rows := strings.Split(text, "\n")
	for i := len(rows) - 1; i >= 0; i-- {
		msg, ok := usageLimitMessage(rows[i])
		if !ok {
			continue
		}
		r := parseReset(msg)
		if !found {
			line, reset, found = msg, r, true
		} else if r.zone != "" && r.sameClock(reset) {
			reset.zone = r.zone
		}
		if reset.precise() {
			break
		}
	}
	if !found {
		return respawn.UsageLimitError{}, false
	}
	return respawn.UsageLimitError{Line: line, ResetAt: reset.at(now)}, true
}

// usageLimitMessage returns the usage-limit message in row, if any, using
// the built-in usage_limit patterns.
func usageLimitMessage(row string) (string, bool) {
	pats := DefaultPatterns()
	for _, i := range pats.screen {
		p := &pats.list[i]
		if p.Kind != PatternUsageLimit || !strings.Contains(row, p.lit) {
			continue
		}
		if m := p.Re.FindStringSubmatch(row); m != nil {
			return strings.TrimSpace(m[len(m)-1]), true
		}
	}
	return "", false
}

// resetSpec is a reset time as printed.
type resetSpec struct {
	epoch     int64 // unix seconds, when printed as one
	clock     bool  // hour and min are set
	hour, min int
	month     time.Month // 0 when no date was printed
	day       int
	zone      string // IANA zone name from the parentheses
}

// The reset-time regexps compile on first use: cmd/codeman imports this
// package, and the hook handler's start-up must stay cheap.
var (
	resetEpochRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\|(\d{9,12})\b`) })
	resetClockRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:resets?|reset at|automatically at)\s+(?:at\s+)?` +
			`(?:(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(?:at\s+)?)?` +
			`(\d{1,2})(?::(\d{2}))?(?:\s*([ap])\.?m\b\.?)?(?:\s*\(([^)]+)\))?` +
			`(?:[^\d:]|$)`) // no partial number: "13pm" is not 1 o'clock
	})
)

// monthPrefixes are the months as printed, by their first three letters.
var monthPrefixes = [...]string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}

func monthByPrefix(s string) time.Month {
	for i, p := range monthPrefixes {
		if strings.EqualFold(s, p) {
			return time.Month(i + 1)
		}
	}
	return 0
}

// parseReset reads the reset time of a usage-limit message.
func parseReset(msg string) resetSpec {
	if m := resetEpochRe().FindStringSubmatch(msg); m != nil {
		if n, err := strconv.ParseInt(m[1], 10, 64); err == nil {
			return resetSpec{epoch: n}
		}
	}
	m := resetClockRe().FindStringSubmatch(msg)
	if m == nil {
		return resetSpec{}
	}
	hour, _ := strconv.Atoi(m[3])
	minute := 0
	if m[4] != "" {
		minute, _ = strconv.Atoi(m[4])
	}
	r := resetSpec{zone: strings.TrimSpace(m[6])}
	switch strings.ToLower(m[5]) {
	case "a", "p":
		if hour < 1 || hour > 12 {
			return r
		}
		hour %= 12
		if strings.EqualFold(m[5], "p") {
			hour += 12
		}
	default:
		if hour > 23 {
			return r
		}
	}
	if minute > 59 {
		return r
	}
	r.clock, r.hour, r.min = true, hour, minute
	if m[1] != "" {
		r.month = monthByPrefix(m[1])
		r.day, _ = strconv.Atoi(m[2])
		if r.day < 1 || r.day > 31 {
			r.month, r.day = 0, 0
		}
	}
	return r
}

// precise reports a reset time that needs nothing from other lines.
func (r resetSpec) precise() bool { return r.epoch > 0 || r.clock && r.zone != "" }

func (r resetSpec) sameClock(o resetSpec) bool {
	return r.clock && o.clock && r.hour == o.hour && r.min == o.min
}

// at returns the reset time as seen at now, zero when none was printed.
func (r resetSpec) at(now time.Time) time.Time {
	if r.epoch > 0 {
		return time.Unix(r.epoch, 0).In(now.Location())
	}
	if !r.clock {
		return time.Time{}
	}
	loc := now.Location()
	if r.zone != "" {
		// A zone Go does not know (an abbreviation such as "PST") falls
		// back to now's location, which is where Claude usually runs.
		if z, err := time.LoadLocation(r.zone); err == nil {
			loc = z
		}
	}
	local := now.In(loc)
	earliest := now.Add(-usageLimitGrace)
	if r.month != 0 {
		for year := local.Year() - 1; ; year++ {
			if t := time.Date(year, r.month, r.day, r.hour, r.min, 0, 0, loc); !t.Before(earliest) {
				return t
			}
		}
	}
	for day := local.Day() - 1; ; day++ {
		if t := time.Date(local.Year(), local.Month(), day, r.hour, r.min, 0, 0, loc); !t.Before(earliest) {
			return t
		}
	}
}
