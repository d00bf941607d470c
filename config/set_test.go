package config_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/config"
	"github.com/codeman-dev/codeman/respawn"
)

func TestSet(t *testing.T) {
	tests := []struct {
		key, value string
		check      func(respawn.Config) bool
	}{
		{"update_prompt", "summarise = then go on", func(c respawn.Config) bool { return c.UpdatePrompt == "summarise = then go on" }},
		{"kickstart_prompt", "", func(c respawn.Config) bool { return c.KickstartPrompt == "" }},
		{"send_clear", "false", func(c respawn.Config) bool { return !c.SendClear }},
		{"auto_accept_prompts", "FALSE", func(c respawn.Config) bool { return !c.AutoAcceptPrompts }},
		{"max_stuck_recoveries", "7", func(c respawn.Config) bool { return c.MaxStuckRecoveries == 7 }},
		{"completion_confirm", "5s", func(c respawn.Config) bool { return c.CompletionConfirm == 5*time.Second }},
		{"duration", "1h30m", func(c respawn.Config) bool { return c.Duration == 90*time.Minute }},
		{"duration", "0", func(c respawn.Config) bool { return c.Duration == 0 }},
		{"ai_idle_check.model", "sonnet", func(c respawn.Config) bool { return c.AIIdleCheck.Model == "sonnet" }},
		{"ai_plan_check.enabled", "false", func(c respawn.Config) bool { return !c.AIPlanCheck.Enabled }},
		{"ai_plan_check.max_context", "12000", func(c respawn.Config) bool { return c.AIPlanCheck.MaxContext == 12000 }},
		{"ai_idle_check.cooldown", "2m", func(c respawn.Config) bool { return c.AIIdleCheck.Cooldown == 2*time.Minute }},
	}
	for _, tt := range tests {
		t.Run(tt.key+"="+tt.value, func(t *testing.T) {
			c := respawn.DefaultConfig()
			if err := config.Set(&c, tt.key, tt.value); err != nil {
				t.Fatal(err)
			}
			if !tt.check(c) {
				t.Errorf("after Set: %+v", c)
			}
		})
	}
}

func TestSet_Errors(t *testing.T) {
	tests := []struct {
		key, value, want string
	}{
		{"send_clear", "yes", `key "send_clear": expected true or false, got "yes"`},
		{"max_stuck_recoveries", "3.5", `key "max_stuck_recoveries": expected an integer, got "3.5"`},
		{"completion_confirm", "10", `key "completion_confirm": invalid duration "10": missing unit`},
		{"ai_idle_check.timeout", "1 minute", `key "ai_idle_check.timeout": invalid duration "1 minute": unknown unit (use ms, s, m or h)`},
		{"ai_idle_check.cooldown", "fast", `key "ai_idle_check.cooldown": invalid duration "fast": expected a number and a unit, such as "10s" or "1m30s"`},
		{"ai_idle_check.modle", "x", `unknown key "ai_idle_check.modle" (did you mean "ai_idle_check.model"?)`},
		{"respawn.send_clear", "false", `unknown key "respawn.send_clear" (known keys: agent, update_prompt, inter_step_delay, send_clear, send_init, ` +
			`kickstart_prompt, completion_confirm, no_output_timeout, auto_accept_prompts, auto_accept_delay, stuck_detection, ` +
			`stuck_warning, stuck_recovery, max_stuck_recoveries, duration, resume_prompt, usage_limit_margin, api_error_backoff, ` +
			`ai_idle_check.enabled, ai_idle_check.model, ai_idle_check.max_context, ai_idle_check.timeout, ai_idle_check.cooldown, ` +
			`ai_plan_check.enabled, ai_plan_check.model, ai_plan_check.max_context, ai_plan_check.timeout, ai_plan_check.cooldown)`},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			c := respawn.DefaultConfig()
			err := config.Set(&c, tt.key, tt.value)
			if err == nil || err.Error() != tt.want {
				t.Errorf("Set(%q, %q) error:\n got %v\nwant %s", tt.key, tt.value, err, tt.want)
			}
			if c != respawn.DefaultConfig() {
				t.Errorf("a failed Set changed the config: %+v", c)
			}
		})
	}
}

// TestSet_EveryKey sets every key the printed config shows, so a key
// added to the file is also settable with --set.
func TestSet_EveryKey(t *testing.T) {
	var out bytes.Buffer
	if err := config.Default().Encode(&out, ""); err != nil {
		t.Fatal(err)
	}
	table := ""
	for line := range strings.Lines(out.String()) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			table = strings.Trim(line, "[]")
			continue
		}
		key, value, ok := strings.Cut(line, " = ")
		if !ok || !strings.HasPrefix(table, "respawn") {
			continue
		}
		if sub, ok := strings.CutPrefix(table, "respawn."); ok {
			key = sub + "." + key
		}
		c := respawn.DefaultConfig()
		if err := config.Set(&c, key, strings.Trim(value, `"`)); err != nil {
			t.Errorf("Set(%q, %s): %v", key, value, err)
		}
		if c != respawn.DefaultConfig() {
			t.Errorf("Set(%q, %s) with the default value changed the config", key, value)
		}
	}
}
