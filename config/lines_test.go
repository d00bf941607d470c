package config_test

import (
	"testing"

	"github.com/codeman-dev/codeman/config"
)

// TestParse_KeyLines checks the line of each kind of problem in profiles,
// patterns and tables the file defines only through their keys.
func TestParse_KeyLines(t *testing.T) {
	const prompt = "[respawn]\nupdate_prompt = \"\"\"\nsummarise\n[profile.x]\nfoo = 1\n\"\"\"\n\n"
	tests := []struct {
		name, text, want string
	}{
		{"UnknownKeyInProfile", prompt + "[profile.night]\nsend_clear = false\nsend_clera = false\n",
			`config.toml:10: key "profile.night.send_clera": unknown key (did you mean "send_clear"?)`},
		{"UnknownKeyInProfileSubTable", prompt + "[profile.night.ai_plan_check]\nenabled = true\n\nmodle = \"x\"\n",
			`config.toml:11: key "profile.night.ai_plan_check.modle": unknown key (did you mean "model"?)`},
		{"UnknownKeyInPattern", "[[pattern]]\nname = \"a\"\nkind = \"working\"\nregexp = \"x\"\n\n[[pattern]]\nname = \"b\"\nkind = \"working\"\nregxp = \"y\"\n\n[[pattern]]\nname = \"c\"\nregxp = \"z\"\n",
			"config.toml:9: key \"pattern[1].regxp\": unknown key (did you mean \"regexp\"?)\n" +
				`config.toml:13: key "pattern[2].regxp": unknown key (did you mean "regexp"?)`},
		{"UnknownKeyInInlinePattern", "pattern = [\n  { name = \"a\", kind = \"working\", regexp = \"x\" },\n  { name = \"b\", knid = \"working\", regexp = \"y\" },\n]\n",
			`config.toml:3: key "pattern[1].knid": unknown key (did you mean "kind"?)`},
		{"TypeErrorInProfile", prompt + "[profile.night]\nmax_stuck_recoveries = \"5\"\n",
			`config.toml:9: key "profile.night.max_stuck_recoveries": expected an integer, got string "5"`},
		{"TypeErrorInPattern", "[[pattern]]\nname = \"a\"\nkind = \"working\"\nregexp = \"x\"\n[[pattern]]\nname = 2\n",
			`config.toml:6: key "pattern[1].name": expected a string, got integer 2`},
		{"BadDurationInProfileSubTable", prompt + "[profile.night.ai_idle_check]\ntimeout = \"5 minutes\"\n",
			`config.toml:9: key "profile.night.ai_idle_check.timeout": invalid duration "5 minutes": unknown unit (use ms, s, m or h)`},
		{"DurationAsIntegerInTmux", "[tmux]\n\nsend_pause = 100\n",
			`config.toml:3: key "tmux.send_pause": expected a duration string such as "10s", got integer 100`},
		{"MultilineValueHasItsKeysLine", "[respawn]\nsend_init = true\nkickstart_prompt = \"\"\"\ngo on\nand \\u001b stop\n\"\"\"\n",
			`config.toml:3: key "respawn.kickstart_prompt": must not contain the control character U+001B (only newlines and tabs)`},
		{"UnknownTableOnlyThroughSubTable", "\n[profile.x]\n[rofile.x.ai_idle_check]\nenabled = true\n",
			`config.toml:3: key "rofile": unknown key (did you mean "profile"?)`},
		{"UnknownTableOnlyThroughDottedKey", "[respawn]\n[checks]\nclaude.path = \"/bin/claude\"\n",
			`config.toml:3: key "checks.claude": unknown key`},
		{"BadProfileNameOnlyThroughSubTable", "[respawn]\n\n[profile.\"a b\".ai_idle_check]\nenabled = true\n",
			`config.toml:3: key "profile.a b": profile names may use only letters, digits, '_' and '-'`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := config.Parse("config.toml", []byte(tt.text))
			if err == nil || err.Error() != tt.want {
				t.Errorf("error:\n got %v\nwant %s", err, tt.want)
			}
		})
	}
}
