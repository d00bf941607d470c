package config_test

import (
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/codeman-dev/codeman/config"
	"github.com/codeman-dev/codeman/respawn"
)

func TestPresetNames(t *testing.T) {
	want := []string{"overnight-autonomous", "ralph-todo", "solo-work", "subagent-workflow", "team-lead"}
	if got := config.PresetNames(); !slices.Equal(got, want) {
		t.Errorf("PresetNames = %v, want %v", got, want)
	}
}

// TestPresets_Values checks each preset against the original's: its
// idleTimeoutMs became completion_confirm, and no_output_timeout stays at
// least 20s above it.
func TestPresets_Values(t *testing.T) {
	tests := []struct {
		name                         string
		confirm, noOutput, interStep time.Duration
		duration                     time.Duration
	}{
		{"solo-work", 3 * time.Second, 30 * time.Second, 2 * time.Second, 60 * time.Minute},
		{"subagent-workflow", 45 * time.Second, 65 * time.Second, 3 * time.Second, 240 * time.Minute},
		{"team-lead", 90 * time.Second, 110 * time.Second, 5 * time.Second, 480 * time.Minute},
		{"ralph-todo", 8 * time.Second, 30 * time.Second, 3 * time.Second, 480 * time.Minute},
		{"overnight-autonomous", 10 * time.Second, 30 * time.Second, 3 * time.Second, 480 * time.Minute},
	}
	f := config.Default()
	f.Respawn.SendClear, f.Respawn.SendInit, f.Respawn.AutoAcceptPrompts = false, false, false
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := f.Profile(tt.name)
			if err != nil {
				t.Fatal(err)
			}
			if c.CompletionConfirm != tt.confirm || c.NoOutputTimeout != tt.noOutput ||
				c.InterStepDelay != tt.interStep || c.Duration != tt.duration {
				t.Errorf("confirm %v, no output %v, inter step %v, duration %v; want %v, %v, %v, %v",
					c.CompletionConfirm, c.NoOutputTimeout, c.InterStepDelay, c.Duration,
					tt.confirm, tt.noOutput, tt.interStep, tt.duration)
			}
			if !c.SendClear || !c.SendInit || !c.AutoAcceptPrompts {
				t.Errorf("clear %t, init %t, auto accept %t; want all on", c.SendClear, c.SendInit, c.AutoAcceptPrompts)
			}
			if c.UpdatePrompt == respawn.DefaultUpdatePrompt || len(c.KickstartPrompt) < 80 {
				t.Errorf("prompts not written out: update %q, kickstart %q", c.UpdatePrompt, c.KickstartPrompt)
			}
			if err := config.Validate(c); err != nil {
				t.Errorf("preset over the defaults is invalid: %v", err)
			}
		})
	}
}

func TestPresets_KeepLongerNoOutputTimeout(t *testing.T) {
	f := config.Default()
	f.Respawn.NoOutputTimeout = 5 * time.Minute
	for _, name := range config.PresetNames() {
		if c, _ := f.Profile(name); c.NoOutputTimeout != 5*time.Minute {
			t.Errorf("%s lowered no_output_timeout to %v", name, c.NoOutputTimeout)
		}
	}
}

func TestPresets_RalphTodoPrompts(t *testing.T) {
	c, _ := config.Default().Profile("ralph-todo")
	for _, want := range []string{"@fix_plan.md", "<promise>COMPLETE</promise>"} {
		if !strings.Contains(c.KickstartPrompt, want) {
			t.Errorf("kickstart prompt lacks %s: %q", want, c.KickstartPrompt)
		}
	}
	if !strings.Contains(c.UpdatePrompt, "@fix_plan.md") {
		t.Errorf("update prompt lacks @fix_plan.md: %q", c.UpdatePrompt)
	}
}

// TestPresets_ValidOverAnyValidConfig: a preset never makes a valid
// [respawn] invalid, so presets need no validation of their own.
func TestPresets_ValidOverAnyValidConfig(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := config.Default()
		f.Respawn = genValidConfig(t)
		name := rapid.SampledFrom(config.PresetNames()).Draw(t, "preset")
		c, err := f.Profile(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := config.Validate(c); err != nil {
			t.Fatalf("%s over %+v: %v", name, f.Respawn, err)
		}
	})
}

// TestPresetsTOML_Checked reads presets.toml as a user's [profile.NAME]
// tables are read: it may hold only keys of [respawn], each with a value
// of its type, and a duration that parses.
func TestPresetsTOML_Checked(t *testing.T) {
	data, err := os.ReadFile("presets.toml")
	if err != nil {
		t.Fatal(err)
	}
	text := regexp.MustCompile(`(?m)^\[`).ReplaceAllString(string(data), "[profile.")
	f, err := config.Parse("presets.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if got := slices.Sorted(maps.Keys(f.Profiles)); !slices.Equal(got, config.PresetNames()) {
		t.Errorf("tables %v, presets %v", got, config.PresetNames())
	}
}
