package aicheck

import (
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/codeman-dev/codeman/agents/claude"
	"github.com/codeman-dev/codeman/respawn"
)

// bareLimitPattern matches the limits claude -p prints without a reset
// time: the API's rate-limit and overload errors (`API Error: Request
// rejected (429) · …`, `API Error: 529 Overloaded. …`) and a limit message
// whose time did not parse. They pause checks like a usage limit does, but
// the screen detector does not treat them as usage limits, so they are
// matched here.
var bareLimitPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)usage limit reached|hit your\b.*\blimit|out of extra usage|api error\b.*\b(?:429|529)\b|\b429 too many requests|\b529 overloaded|rate_limit_error|overloaded_error`)
})

// findUsageLimit looks for a usage or rate limit message in the output of
// claude -p. Messages with a reset time are parsed by
// claude.FindUsageLimit, shared with the screen detector.
func findUsageLimit(text string, now time.Time) (respawn.UsageLimitError, bool) {
	if ul, ok := claude.FindUsageLimit(text, now); ok {
		return ul, true
	}
	for _, line := range strings.Split(text, "\n") {
		if bareLimitPattern().MatchString(line) {
			return respawn.UsageLimitError{Line: strings.TrimSpace(line)}, true
		}
	}
	return respawn.UsageLimitError{}, false
}

// newestLine returns the last line of text, trimmed, that match accepts:
// the newest error wins, as on a screen.
func newestLine(text string, match func(string) bool) (string, bool) {
	lines := strings.Split(text, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if line := strings.TrimSpace(lines[i]); match(line) {
			return line, true
		}
	}
	return "", false
}
