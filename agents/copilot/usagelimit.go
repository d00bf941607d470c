package copilot

import (
	"strings"
	"time"

	"github.com/codeman-dev/codeman/respawn"
)

// usageLimitWords are what a failed turn's last error says when the
// provider's quota, not its rate, ran out: a 429 with "The usage limit has
// been reached", OpenAI's "You exceeded your current quota". A 429 for the
// request rate ("Rate limit reached for requests") is an API error: it
// passes within a minute.
var usageLimitWords = []string{"usage limit", "quota", "premium requests"}

// isUsageLimit reports a failure row's message that is a usage limit.
func isUsageLimit(msg string) bool {
	if !strings.HasPrefix(msg, "Failed to get response from the AI model") {
		return false
	}
	_, last, ok := strings.Cut(msg, "Last error: ")
	if !ok {
		return false
	}
	lower := strings.ToLower(last)
	for _, w := range usageLimitWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// findUsageLimit finds the newest usage-limit failure in text. Copilot
// prints no reset time for it, so ResetAt is zero.
func findUsageLimit(text string, _ time.Time) (respawn.UsageLimitError, bool) {
	rows := strings.Split(text, "\n")
	for r := len(rows) - 1; r >= 0; r-- {
		row := trimRow(rows[r])
		if !strings.HasPrefix(row, " "+failMark) {
			continue
		}
		for i := r; i < len(rows); i++ {
			rows[i] = trimRow(rows[i])
		}
		if msg := failureMessage(rows, r); isUsageLimit(msg) {
			return respawn.UsageLimitError{Line: msg}, true
		}
	}
	return respawn.UsageLimitError{}, false
}
