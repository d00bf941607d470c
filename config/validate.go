package config

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/codeman-dev/codeman/agents"
	"github.com/codeman-dev/codeman/agents/claude"
	"github.com/codeman-dev/codeman/respawn"
)

// Limits of the keys. Where the original's HTTP API had a range
// it is kept; completion_confirm goes up to 10m because
// the team-lead preset wants 90s.
const (
	maxPromptChars     = 10000
	maxModelChars      = 100
	minStuckTime       = time.Minute // the watchdog looks once a minute
	minPollInterval    = 200 * time.Millisecond
	maxPollInterval    = 10 * time.Second
	maxSendPause       = 5 * time.Second
	maxEnterRetries    = 10
	maxConcurrentLimit = 16
)

// validModelName is what claude --model accepts from us: the original refused
// anything else before it reached a shell.
var validModelName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z0-9._/-]+$`) })

// keyProblem is the first problem Validate found. Its Error is a sentence
// that starts with the key.
type keyProblem struct {
	key    string // as in the file, dotted under a sub-table
	other  string // a second key the problem involves, or ""
	reason string // the rest of the sentence
}

func (p *keyProblem) Error() string { return p.key + " " + p.reason }

// Validate returns the first invalid key of c, as a sentence naming it.
// Every configuration that reaches a controller through codeman passed it:
// among others, it rules out timers of zero length.
func Validate(c respawn.Config) error {
	if p := problem(c); p != nil {
		return p
	}
	return nil // not a nil *keyProblem, which is a non-nil error
}

// problem returns the first invalid key of c.
func problem(c respawn.Config) *keyProblem {
	return firstProblem(
		agentProblem(c.Agent),
		promptProblem("update_prompt", c.UpdatePrompt, true),
		durationProblem("inter_step_delay", c.InterStepDelay, 100*time.Millisecond, time.Minute),
		promptProblem("kickstart_prompt", c.KickstartPrompt, false),
		durationProblem("completion_confirm", c.CompletionConfirm, time.Second, 10*time.Minute),
		durationProblem("no_output_timeout", c.NoOutputTimeout, 5*time.Second, time.Hour),
		notBelowProblem("no_output_timeout", c.NoOutputTimeout, "completion_confirm", c.CompletionConfirm),
		durationProblem("auto_accept_delay", c.AutoAcceptDelay, 0, time.Minute),
		minDurationProblem("stuck_warning", c.StuckWarning, minStuckTime),
		minDurationProblem("stuck_recovery", c.StuckRecovery, minStuckTime),
		belowProblem("stuck_warning", c.StuckWarning, "stuck_recovery", c.StuckRecovery),
		intProblem("max_stuck_recoveries", c.MaxStuckRecoveries, 0, 100),
		minDurationProblem("duration", c.Duration, 0),
		promptProblem("resume_prompt", c.ResumePrompt, false),
		durationProblem("usage_limit_margin", c.UsageLimitMargin, 0, time.Hour),
		durationProblem("api_error_backoff", c.APIErrorBackoff, 10*time.Second, 24*time.Hour),
		checkProblem("ai_idle_check", c.AIIdleCheck),
		checkProblem("ai_plan_check", c.AIPlanCheck),
	)
}

// agentProblem refuses an agent codeman does not know.
func agentProblem(name string) *keyProblem {
	if agents.Valid(name) != nil {
		return &keyProblem{key: "agent", reason: fmt.Sprintf("must be %s or %s, not %q", strings.Join(agents.Names(), ", "), agents.Auto, name)}
	}
	return nil
}

// checkProblem validates one AI check's sub-table.
func checkProblem(table string, c respawn.CheckConfig) *keyProblem {
	return firstProblem(
		modelProblem(table+".model", c.Model),
		intProblem(table+".max_context", c.MaxContext, 1000, 500000),
		durationProblem(table+".timeout", c.Timeout, 10*time.Second, 5*time.Minute),
		durationProblem(table+".cooldown", c.Cooldown, time.Second, 5*time.Minute),
	)
}

// problem returns the first invalid key of [screen], and below of [tmux]
// and [checks].
func (s Screen) problem() *keyProblem {
	return firstProblem(
		durationProblem("poll_interval", s.PollInterval, minPollInterval, maxPollInterval),
		durationProblem("send_pause", s.SendPause, 0, maxSendPause),
		intProblem("enter_retries", s.EnterRetries, 0, maxEnterRetries),
	)
}

func (t Tmux) problem() *keyProblem {
	return firstProblem(
		durationProblem("send_pause", t.SendPause, 0, maxSendPause),
		intProblem("enter_retries", t.EnterRetries, 0, maxEnterRetries),
	)
}

func (c Checks) problem() *keyProblem {
	return intProblem("max_concurrent", c.MaxConcurrent, 1, maxConcurrentLimit)
}

// patternProblem checks the keys of one [[pattern]] on its own, so that
// errors name the key; claude.CompilePatterns has the last word (the
// caller runs it too) and these checks only place its rules on a key.
func patternProblem(p respawn.PatternSpec) *keyProblem {
	if p.Name == "" {
		return &keyProblem{key: "name", reason: "must not be empty"}
	}
	if _, err := claude.ParsePatternKind(p.Kind); err != nil {
		return &keyProblem{key: "kind", reason: err.Error()}
	}
	if p.Scope != "screen" && p.Scope != "stream" {
		return &keyProblem{key: "scope", reason: fmt.Sprintf("must be \"screen\" or \"stream\", not %q", p.Scope)}
	}
	if p.Regexp == "" {
		return &keyProblem{key: "regexp", reason: "must not be empty"}
	}
	if _, err := regexp.Compile(p.Regexp); err != nil {
		return &keyProblem{key: "regexp", reason: "does not compile: " + err.Error()}
	}
	return nil
}

// firstProblem returns the first non-nil problem.
func firstProblem(problems ...*keyProblem) *keyProblem {
	for _, p := range problems {
		if p != nil {
			return p
		}
	}
	return nil
}

func durationProblem(key string, d, lo, hi time.Duration) *keyProblem {
	if d >= lo && d <= hi {
		return nil
	}
	return &keyProblem{key: key, reason: fmt.Sprintf("must be between %s and %s, not %s",
		formatDuration(lo), formatDuration(hi), formatDuration(d))}
}

func minDurationProblem(key string, d, lo time.Duration) *keyProblem {
	if d >= lo {
		return nil
	}
	return &keyProblem{key: key, reason: fmt.Sprintf("must be at least %s, not %s",
		formatDuration(lo), formatDuration(d))}
}

func notBelowProblem(key string, d time.Duration, otherKey string, other time.Duration) *keyProblem {
	if d >= other {
		return nil
	}
	return &keyProblem{key: key, other: otherKey, reason: fmt.Sprintf("must be at least %s (%s), not %s",
		otherKey, formatDuration(other), formatDuration(d))}
}

func belowProblem(key string, d time.Duration, otherKey string, other time.Duration) *keyProblem {
	if d < other {
		return nil
	}
	return &keyProblem{key: key, other: otherKey, reason: fmt.Sprintf("must be below %s (%s), not %s",
		otherKey, formatDuration(other), formatDuration(d))}
}

func intProblem(key string, n, lo, hi int) *keyProblem {
	if n >= lo && n <= hi {
		return nil
	}
	return &keyProblem{key: key, reason: fmt.Sprintf("must be between %d and %d, not %d", lo, hi, n)}
}

// promptProblem checks text that is typed into the pane. Control
// characters other than newline and tab are refused: an Escape would
// interrupt Claude and a carriage return would submit half a prompt.
func promptProblem(key, s string, required bool) *keyProblem {
	if required && strings.TrimSpace(s) == "" {
		return &keyProblem{key: key, reason: "must not be empty"}
	}
	if !utf8.ValidString(s) {
		return &keyProblem{key: key, reason: "must be valid UTF-8"}
	}
	if n := utf8.RuneCountInString(s); n > maxPromptChars {
		return &keyProblem{key: key, reason: fmt.Sprintf("must be at most %d characters, not %d", maxPromptChars, n)}
	}
	for _, r := range s {
		if unicode.IsControl(r) && r != '\n' && r != '\t' {
			return &keyProblem{key: key, reason: fmt.Sprintf("must not contain the control character %U (only newlines and tabs)", r)}
		}
	}
	return nil
}

func modelProblem(key, model string) *keyProblem {
	if n := utf8.RuneCountInString(model); n > maxModelChars {
		return &keyProblem{key: key, reason: fmt.Sprintf("must be at most %d characters, not %d", maxModelChars, n)}
	}
	if !validModelName().MatchString(model) {
		return &keyProblem{key: key, reason: fmt.Sprintf("must match %s, not %q", validModelName(), model)}
	}
	return nil
}
