package opencode

import (
	"strings"
	"time"

	"github.com/codeman-dev/codeman/respawn"
)

// usageLimitWords are what an API error says when the account's quota,
// not its request rate, ran out. A per-minute rate limit ("Number of
// request tokens has exceeded your per-minute rate limit") is an API
// error: it passes within a minute, and OpenCode retried it already.
var usageLimitWords = []string{"usage limit", "quota", "credit balance"}

func isUsageLimit(msg string) bool {
	lower := strings.ToLower(msg)
	for _, w := range usageLimitWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// findUsageLimit finds the usage limit a failed turn shows on the screen
// text. OpenCode prints no reset time, so ResetAt is zero.
func findUsageLimit(text string, _ time.Time) (respawn.UsageLimitError, bool) {
	f := New().Classify(respawn.Screen{Lines: strings.Split(text, "\n")})
	if f.UsageLimit == "" {
		return respawn.UsageLimitError{}, false
	}
	return respawn.UsageLimitError{Line: f.UsageLimit}, true
}
