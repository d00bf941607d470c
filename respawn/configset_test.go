package respawn_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode"

	"pgregory.net/rapid"

	"github.com/codeman-dev/codeman/respawn"
)

func TestConfig_Set(t *testing.T) {
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
			if err := c.Set(tt.key, tt.value); err != nil {
				t.Fatal(err)
			}
			if !tt.check(c) {
				t.Errorf("after Set: %+v", c)
			}
		})
	}
}

func TestConfig_SetErrors(t *testing.T) {
	tests := []struct {
		key, value, want string
	}{
		{"send_clear", "yes", `key "send_clear": expected true or false, got "yes"`},
		{"max_stuck_recoveries", "3.5", `key "max_stuck_recoveries": expected an integer, got "3.5"`},
		{"completion_confirm", "10", `key "completion_confirm": invalid duration "10": missing unit`},
		{"ai_idle_check.timeout", "1 minute", `key "ai_idle_check.timeout": invalid duration "1 minute": unknown unit (use ms, s, m or h)`},
		{"ai_idle_check.cooldown", "fast", `key "ai_idle_check.cooldown": invalid duration "fast": expected a number and a unit, such as "10s" or "1m30s"`},
		{"ai_idle_check.modle", "x", `unknown key "ai_idle_check.modle" (did you mean "ai_idle_check.model"?)`},
		{"respawn.send_clear", "false", `unknown key "respawn.send_clear" (known keys: update_prompt, inter_step_delay, send_clear, send_init, ` +
			`kickstart_prompt, completion_confirm, no_output_timeout, auto_accept_prompts, auto_accept_delay, stuck_detection, ` +
			`stuck_warning, stuck_recovery, max_stuck_recoveries, duration, resume_prompt, usage_limit_margin, api_error_backoff, ` +
			`ai_idle_check.enabled, ai_idle_check.model, ai_idle_check.max_context, ai_idle_check.timeout, ai_idle_check.cooldown, ` +
			`ai_plan_check.enabled, ai_plan_check.model, ai_plan_check.max_context, ai_plan_check.timeout, ai_plan_check.cooldown)`},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			c := respawn.DefaultConfig()
			err := c.Set(tt.key, tt.value)
			if err == nil || err.Error() != tt.want {
				t.Errorf("Set(%q, %q) error:\n got %v\nwant %s", tt.key, tt.value, err, tt.want)
			}
			if c != respawn.DefaultConfig() {
				t.Errorf("a failed Set changed the config: %+v", c)
			}
		})
	}
}

// TestConfig_SetEveryKey sets every key the printed config shows, so a key
// added to the file is also settable with --set.
func TestConfig_SetEveryKey(t *testing.T) {
	var out bytes.Buffer
	if err := respawn.DefaultFile().Encode(&out, ""); err != nil {
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
		if err := c.Set(key, strings.Trim(value, `"`)); err != nil {
			t.Errorf("Set(%q, %s): %v", key, value, err)
		}
		if c != respawn.DefaultConfig() {
			t.Errorf("Set(%q, %s) with the default value changed the config", key, value)
		}
	}
}

func TestFile_EncodeRoundTrip(t *testing.T) {
	for _, path := range []string{"testdata/config/good/full.toml", "testdata/config/good/styles.toml"} {
		f := mustLoadConfig(t, path)
		for _, profile := range f.ProfileNames() {
			want, _ := f.Profile(profile)
			var out bytes.Buffer
			if err := f.Encode(&out, profile); err != nil {
				t.Fatal(err)
			}
			g, err := respawn.ParseFile("printed.toml", out.Bytes())
			if err != nil {
				t.Fatalf("%s profile %q: parse printed: %v\n%s", path, profile, err, out.String())
			}
			if g.Respawn != want || g.Screen != f.Screen || g.Tmux != f.Tmux || g.Checks != f.Checks ||
				!sameConfigPatterns(g.Patterns, f.Patterns) || len(g.Profiles) != 0 {
				t.Errorf("%s profile %q: printed config parses to %+v", path, profile, g)
			}
		}
	}
}

func TestFile_EncodeUnknownProfile(t *testing.T) {
	var out bytes.Buffer
	if err := respawn.DefaultFile().Encode(&out, "nope"); err == nil || out.Len() != 0 {
		t.Errorf("Encode(nope) = %v, wrote %q", err, out.String())
	}
}

// TestFile_EncodeRoundTripProperty prints random valid files and parses
// them back.
func TestFile_EncodeRoundTripProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := respawn.DefaultFile()
		f.Respawn = genValidConfig(t)
		f.Screen.PollInterval = genConfigDuration(t, "poll_interval", 200*time.Millisecond, 10*time.Second)
		f.Tmux.SendPause = genConfigDuration(t, "send_pause", 0, 5*time.Second)
		f.Tmux.EnterRetries = rapid.IntRange(0, 10).Draw(t, "enter_retries")
		f.Checks.ClaudePath = genConfigText(t, "claude_path", 50)
		f.Checks.MaxConcurrent = rapid.IntRange(1, 16).Draw(t, "max_concurrent")
		f.Patterns = genConfigPatterns(t)
		var out bytes.Buffer
		if err := f.Encode(&out, ""); err != nil {
			t.Fatal(err)
		}
		g, err := respawn.ParseFile("printed.toml", out.Bytes())
		if err != nil {
			t.Fatalf("parse printed: %v\n%s", err, out.String())
		}
		if g.Respawn != f.Respawn {
			t.Fatalf("Respawn round trip:\n got %+v\nwant %+v\n%s", g.Respawn, f.Respawn, out.String())
		}
		if g.Screen != f.Screen || g.Tmux != f.Tmux || g.Checks != f.Checks || !sameConfigPatterns(g.Patterns, f.Patterns) {
			t.Fatalf("tables round trip: got %+v\nwant %+v\n%s", g, f, out.String())
		}
	})
}

// sameConfigPatterns compares patterns without their lines, which differ
// between a file and its printed form.
func sameConfigPatterns(a, b []respawn.PatternSpec) bool {
	strip := func(ps []respawn.PatternSpec) []respawn.PatternSpec {
		out := make([]respawn.PatternSpec, len(ps))
		for i, p := range ps {
			p.Line = 0
			out[i] = p
		}
		return out
	}
	return reflect.DeepEqual(strip(a), strip(b))
}

// genValidConfig draws a Config that passes Validate.
func genValidConfig(t *rapid.T) respawn.Config {
	c := respawn.Config{
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
	if err := c.Validate(); err != nil {
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
