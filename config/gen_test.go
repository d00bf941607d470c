package config_test

import (
	"time"
	"unicode"

	"pgregory.net/rapid"

	"github.com/codeman-dev/codeman/agents"
	"github.com/codeman-dev/codeman/config"
	"github.com/codeman-dev/codeman/respawn"
)

// genValidConfig draws a Config that passes Validate.
func genValidConfig(t *rapid.T) respawn.Config {
	c := respawn.Config{
		Agent:              rapid.SampledFrom(append(agents.Names(), agents.Auto)).Draw(t, "agent"),
		UpdatePrompt:       "x" + genConfigText(t, "update_prompt", 300),
		InterStepDelay:     genConfigDuration(t, "inter_step_delay", 100*time.Millisecond, time.Minute),
		SendClear:          rapid.Bool().Draw(t, "send_clear"),
		SendInit:           rapid.Bool().Draw(t, "send_init"),
		KickstartPrompt:    genConfigText(t, "kickstart_prompt", 300),
		CompletionConfirm:  genConfigDuration(t, "completion_confirm", time.Second, 10*time.Minute),
		AutoAcceptPrompts:  rapid.Bool().Draw(t, "auto_accept_prompts"),
		AutoAcceptDelay:    genConfigDuration(t, "auto_accept_delay", 0, time.Minute),
		StuckDetection:     rapid.Bool().Draw(t, "stuck_detection"),
		StuckWarning:       genConfigDuration(t, "stuck_warning", time.Minute, 2*time.Hour),
		MaxStuckRecoveries: rapid.IntRange(0, 100).Draw(t, "max_stuck_recoveries"),
		Duration:           genConfigDuration(t, "duration", 0, 48*time.Hour),
		ResumePrompt:       genConfigText(t, "resume_prompt", 100),
		UsageLimitMargin:   genConfigDuration(t, "usage_limit_margin", 0, time.Hour),
		APIErrorBackoff:    genConfigDuration(t, "api_error_backoff", 10*time.Second, 24*time.Hour),
		AIIdleCheck:        genConfigCheck(t, "ai_idle_check"),
		AIPlanCheck:        genConfigCheck(t, "ai_plan_check"),
	}
	c.NoOutputTimeout = genConfigDuration(t, "no_output_timeout", max(5*time.Second, c.CompletionConfirm), time.Hour)
	c.StuckRecovery = genConfigDuration(t, "stuck_recovery", c.StuckWarning+1, 3*time.Hour)
	if err := config.Validate(c); err != nil {
		t.Fatalf("generated an invalid config: %v", err)
	}
	return c
}

func genConfigCheck(t *rapid.T, table string) respawn.CheckConfig {
	return respawn.CheckConfig{
		Enabled:    rapid.Bool().Draw(t, table+".enabled"),
		Model:      rapid.StringMatching(`[a-zA-Z0-9._/-]{1,100}`).Draw(t, table+".model"),
		MaxContext: rapid.IntRange(1000, 500000).Draw(t, table+".max_context"),
		Timeout:    genConfigDuration(t, table+".timeout", 10*time.Second, 5*time.Minute),
		Cooldown:   genConfigDuration(t, table+".cooldown", time.Second, 5*time.Minute),
	}
}

// genConfigDuration draws round values most of the time and odd ones (down to
// the nanosecond) sometimes.
func genConfigDuration(t *rapid.T, label string, lo, hi time.Duration) time.Duration {
	if rapid.Bool().Draw(t, label+".round") {
		units := rapid.Int64Range(int64(lo/time.Millisecond), int64(hi/time.Millisecond)).Draw(t, label)
		return max(lo, min(hi, time.Duration(units)*time.Millisecond))
	}
	return time.Duration(rapid.Int64Range(int64(lo), int64(hi)).Draw(t, label))
}

// genConfigText draws prompt-like text: any printable characters, quotes,
// backslashes, TOML punctuation, tabs and newlines.
func genConfigText(t *rapid.T, label string, maxLen int) string {
	r := rapid.RuneFrom([]rune{'\n', '\t', '"', '\'', '\\', '#', '=', '[', '$'}, unicode.L, unicode.N, unicode.P, unicode.S, unicode.Zs)
	return rapid.StringOfN(r, 0, maxLen, -1).Draw(t, label)
}

// genConfigNotify draws a valid [notify] table.
func genConfigNotify(t *rapid.T) config.Notify {
	var command []string
	if n := rapid.IntRange(0, 3).Draw(t, "command.len"); n > 0 {
		command = []string{"x" + genConfigText(t, "command.program", 20)}
		for i := 1; i < n; i++ {
			command = append(command, genConfigText(t, "command.arg", 30))
		}
	}
	renotify := time.Duration(0)
	if rapid.Bool().Draw(t, "renotify.on") {
		renotify = genConfigDuration(t, "renotify", time.Minute, 7*24*time.Hour)
	}
	url := rapid.SampledFrom([]string{"", "https://ntfy.sh/my-topic", "http://127.0.0.1:8080/hook?token=a%20b", "https://u:p@example.com/"}).Draw(t, "url")
	answer := config.NotifyAnswer{
		Kinds:         rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"question", "permission", "menu"}), 1, 3, rapid.ID[string]).Draw(t, "answer.kinds"),
		TokenLifetime: genConfigDuration(t, "answer.token_lifetime", time.Minute, 24*time.Hour),
	}
	if url != "" && rapid.Bool().Draw(t, "answer.on") {
		answer.Topic = "https://ntfy.sh/replies-" + rapid.StringMatching(`[a-z0-9]{1,12}`).Draw(t, "answer.topic")
		answer.AccessToken = rapid.SampledFrom([]string{"", "tk_abc123"}).Draw(t, "answer.access_token")
	}
	return config.Notify{
		Answer:             answer,
		Command:            command,
		Desktop:            rapid.Bool().Draw(t, "desktop"),
		URL:                url,
		Format:             rapid.SampledFrom([]string{"text", "json"}).Draw(t, "format"),
		RateLimitPerMinute: rapid.IntRange(1, 600).Draw(t, "rate_limit_per_minute"),
		NotifyPane: config.NotifyPane{
			Enabled:        rapid.Bool().Draw(t, "enabled"),
			NotifyAfter:    genConfigDuration(t, "notify_after", 0, 24*time.Hour),
			Renotify:       renotify,
			NotifyResolved: rapid.Bool().Draw(t, "notify_resolved"),
			NotifyBell:     rapid.Bool().Draw(t, "notify_bell"),
		},
	}
}

func genConfigPatterns(t *rapid.T) []respawn.PatternSpec {
	n := rapid.IntRange(0, 3).Draw(t, "patterns")
	var specs []respawn.PatternSpec
	for i := range n {
		kind := rapid.SampledFrom([]string{"working", "completion", "question"}).Draw(t, "kind")
		scope := "screen"
		if kind != "question" { // stream patterns are only for working and completion
			scope = rapid.SampledFrom([]string{"screen", "stream"}).Draw(t, "scope")
		}
		specs = append(specs, respawn.PatternSpec{
			Name:   "user-" + rapid.StringMatching(`[a-z0-9-]{0,20}`).Draw(t, "name") + string(rune('a'+i)),
			Kind:   kind,
			Scope:  scope,
			Regexp: rapid.SampledFrom([]string{`a+`, `\d+ crates`, `it's (done|over)\.`, `"quoted"\\`, `^\s*✻ \p{L}+ for`}).Draw(t, "regexp"),
		})
	}
	return specs
}
