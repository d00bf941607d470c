package aicheck

import (
	"regexp"
	"sync"
	"time"

	"github.com/codeman-dev/codeman/agents/codex"
	"github.com/codeman-dev/codeman/respawn"
)

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
	line, ok := newestLine(text, func(line string) bool {
		return bareLimitPattern().MatchString(line) || codexLimitPattern().MatchString(line)
	})
	if !ok {
		return respawn.UsageLimitError{}, false
	}
	// Codex prints the reset in its local zone, which codexEnv makes UTC.
	return respawn.UsageLimitError{Line: line, ResetAt: codex.ResetAt(line, now.UTC())}, true
}
