package config_test

import (
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/config"
	"github.com/codeman-dev/codeman/respawn"
)

func TestConfig_Validate(t *testing.T) {
	tests := []struct {
		name   string
		change func(*respawn.Config)
		want   string // "" for valid
	}{
		{"Defaults", func(*respawn.Config) {}, ""},
		{"AgentClaude", func(c *respawn.Config) { c.Agent = "claude" }, ""},
		{"AgentUnknown", func(c *respawn.Config) { c.Agent = "gemini" }, `agent must be claude, codex, copilot, opencode or auto, not "gemini"`},
		{"UpdatePromptEmpty", func(c *respawn.Config) { c.UpdatePrompt = " \n" }, "update_prompt must not be empty"},
		{"UpdatePromptLong", func(c *respawn.Config) { c.UpdatePrompt = strings.Repeat("é", 10001) }, "update_prompt must be at most 10000 characters, not 10001"},
		{"UpdatePromptAtLimit", func(c *respawn.Config) { c.UpdatePrompt = strings.Repeat("é", 10000) }, ""},
		{"UpdatePromptMultiline", func(c *respawn.Config) { c.UpdatePrompt = "one\n\ttwo" }, ""},
		{"PromptEscape", func(c *respawn.Config) { c.KickstartPrompt = "go\x1b" }, "kickstart_prompt must not contain the control character U+001B (only newlines and tabs)"},
		{"PromptCarriageReturn", func(c *respawn.Config) { c.ResumePrompt = "a\r\nb" }, "resume_prompt must not contain the control character U+000D (only newlines and tabs)"},
		{"PromptInvalidUTF8", func(c *respawn.Config) { c.ResumePrompt = "\xff" }, "resume_prompt must be valid UTF-8"},
		{"ResumePromptEmpty", func(c *respawn.Config) { c.ResumePrompt = "" }, ""},
		{"InterStepLow", func(c *respawn.Config) { c.InterStepDelay = 99 * time.Millisecond }, "inter_step_delay must be between 100ms and 1m, not 99ms"},
		{"InterStepHigh", func(c *respawn.Config) { c.InterStepDelay = time.Minute + 1 }, "inter_step_delay must be between 100ms and 1m, not 1m0.000000001s"},
		{"ConfirmLow", func(c *respawn.Config) { c.CompletionConfirm = 0 }, "completion_confirm must be between 1s and 10m, not 0s"},
		{"ConfirmHigh", func(c *respawn.Config) {
			c.CompletionConfirm, c.NoOutputTimeout = 11*time.Minute, time.Hour
		}, "completion_confirm must be between 1s and 10m, not 11m"},
		{"NoOutputLow", func(c *respawn.Config) { c.NoOutputTimeout = 4 * time.Second }, "no_output_timeout must be between 5s and 1h, not 4s"},
		{"NoOutputHigh", func(c *respawn.Config) { c.NoOutputTimeout = 61 * time.Minute }, "no_output_timeout must be between 5s and 1h, not 1h1m"},
		{"NoOutputBelowConfirm", func(c *respawn.Config) { c.NoOutputTimeout = 9 * time.Second }, "no_output_timeout must be at least completion_confirm (10s), not 9s"},
		{"NoOutputEqualsConfirm", func(c *respawn.Config) { c.NoOutputTimeout = 10 * time.Second }, ""},
		{"AutoAcceptZero", func(c *respawn.Config) { c.AutoAcceptDelay = 0 }, ""},
		{"AutoAcceptHigh", func(c *respawn.Config) { c.AutoAcceptDelay = 2 * time.Minute }, "auto_accept_delay must be between 0s and 1m, not 2m"},
		{"AutoAcceptNegative", func(c *respawn.Config) { c.AutoAcceptDelay = -time.Second }, "auto_accept_delay must be between 0s and 1m, not -1s"},
		{"StuckWarningLow", func(c *respawn.Config) { c.StuckWarning = 30 * time.Second }, "stuck_warning must be at least 1m, not 30s"},
		{"StuckRecoveryLow", func(c *respawn.Config) { c.StuckRecovery = 0 }, "stuck_recovery must be at least 1m, not 0s"},
		{"StuckWarningNotBelowRecovery", func(c *respawn.Config) { c.StuckWarning = 10 * time.Minute }, "stuck_warning must be below stuck_recovery (10m), not 10m"},
		{"StuckRecoveriesHigh", func(c *respawn.Config) { c.MaxStuckRecoveries = 101 }, "max_stuck_recoveries must be between 0 and 100, not 101"},
		{"StuckRecoveriesZero", func(c *respawn.Config) { c.MaxStuckRecoveries = 0 }, ""},
		{"DurationNegative", func(c *respawn.Config) { c.Duration = -time.Minute }, "duration must be at least 0s, not -1m"},
		{"DurationLong", func(c *respawn.Config) { c.Duration = 72 * time.Hour }, ""},
		{"MarginHigh", func(c *respawn.Config) { c.UsageLimitMargin = 2 * time.Hour }, "usage_limit_margin must be between 0s and 1h, not 2h"},
		{"BackoffLow", func(c *respawn.Config) { c.APIErrorBackoff = 9 * time.Second }, "api_error_backoff must be between 10s and 24h, not 9s"},
		{"BackoffHigh", func(c *respawn.Config) { c.APIErrorBackoff = 25 * time.Hour }, "api_error_backoff must be between 10s and 24h, not 25h"},
		{"ModelEmpty", func(c *respawn.Config) { c.AIIdleCheck.Model = "" }, "ai_idle_check.model must match ^[a-zA-Z0-9._/-]+$, not \"\""},
		{"ModelShell", func(c *respawn.Config) { c.AIPlanCheck.Model = "haiku; rm -rf /" }, "ai_plan_check.model must match ^[a-zA-Z0-9._/-]+$, not \"haiku; rm -rf /\""},
		{"ModelLong", func(c *respawn.Config) { c.AIPlanCheck.Model = strings.Repeat("m", 101) }, "ai_plan_check.model must be at most 100 characters, not 101"},
		{"ModelProvider", func(c *respawn.Config) { c.AIIdleCheck.Model = "us.anthropic.claude-3-5/haiku_v1" }, ""},
		{"ContextLow", func(c *respawn.Config) { c.AIIdleCheck.MaxContext = 999 }, "ai_idle_check.max_context must be between 1000 and 500000, not 999"},
		{"ContextHigh", func(c *respawn.Config) { c.AIPlanCheck.MaxContext = 500001 }, "ai_plan_check.max_context must be between 1000 and 500000, not 500001"},
		{"CheckTimeoutLow", func(c *respawn.Config) { c.AIIdleCheck.Timeout = 9 * time.Second }, "ai_idle_check.timeout must be between 10s and 5m, not 9s"},
		{"CheckTimeoutHigh", func(c *respawn.Config) { c.AIPlanCheck.Timeout = 301 * time.Second }, "ai_plan_check.timeout must be between 10s and 5m, not 5m1s"},
		{"CooldownLow", func(c *respawn.Config) { c.AIIdleCheck.Cooldown = 0 }, "ai_idle_check.cooldown must be between 1s and 5m, not 0s"},
		{"CooldownHigh", func(c *respawn.Config) { c.AIPlanCheck.Cooldown = 6 * time.Minute }, "ai_plan_check.cooldown must be between 1s and 5m, not 6m"},
		{"DisabledCheckStillChecked", func(c *respawn.Config) {
			c.AIIdleCheck.Enabled, c.AIIdleCheck.Model = false, "bad model"
		}, "ai_idle_check.model must match ^[a-zA-Z0-9._/-]+$, not \"bad model\""},
		{"FirstProblemWins", func(c *respawn.Config) {
			c.InterStepDelay, c.AIPlanCheck.Cooldown = 0, 0
		}, "inter_step_delay must be between 100ms and 1m, not 0s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := respawn.DefaultConfig()
			tt.change(&c)
			err := config.Validate(c)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Validate = %v, want nil", err)
			case tt.want != "" && (err == nil || err.Error() != tt.want):
				t.Errorf("Validate:\n got %v\nwant %s", err, tt.want)
			}
		})
	}
}

// TestParse_TablesValidated checks the limits of [screen], [tmux] and
// [checks].
func TestParse_TablesValidated(t *testing.T) {
	tests := []struct {
		name, text, want string // want "" for valid
	}{
		{"ScreenLow", "[screen]\npoll_interval = \"199ms\"", `config.toml:2: key "screen.poll_interval": must be between 200ms and 10s, not 199ms`},
		{"ScreenHigh", "[screen]\npoll_interval = \"11s\"", `config.toml:2: key "screen.poll_interval": must be between 200ms and 10s, not 11s`},
		{"ScreenEdge", "[screen]\npoll_interval = \"10s\"", ""},
		{"ScreenSendPause", "[screen]\nsend_pause = \"5001ms\"", `config.toml:2: key "screen.send_pause": must be between 0s and 5s, not 5.001s`},
		{"SendPauseNegative", "[tmux]\nsend_pause = \"-1ns\"", `config.toml:2: key "tmux.send_pause": must be between 0s and 5s, not -1ns`},
		{"SendPauseHigh", "[tmux]\nsend_pause = \"6s\"", `config.toml:2: key "tmux.send_pause": must be between 0s and 5s, not 6s`},
		{"EnterRetriesNegative", "[tmux]\nenter_retries = -1", `config.toml:2: key "tmux.enter_retries": must be between 0 and 10, not -1`},
		{"TmuxZero", "[tmux]\nsend_pause = \"0s\"\nenter_retries = 0", ""},
		{"ConcurrentZero", "[checks]\nmax_concurrent = 0", `config.toml:2: key "checks.max_concurrent": must be between 1 and 16, not 0`},
		{"ConcurrentHigh", "[checks]\nmax_concurrent = 17", `config.toml:2: key "checks.max_concurrent": must be between 1 and 16, not 17`},
		{"ConcurrentEdge", "[checks]\nmax_concurrent = 16\nclaude_path = \"claude\"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := config.Parse("config.toml", []byte(tt.text))
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Parse = %v, want nil", err)
			case tt.want != "" && (err == nil || err.Error() != tt.want):
				t.Errorf("Parse:\n got %v\nwant %s", err, tt.want)
			}
		})
	}
}
