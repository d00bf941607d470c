package codexhooks_test

import (
	"testing"

	"github.com/codeman-dev/codeman/agents/codex/codexhooks"
)

// Status says whether config.toml turns off the model-switch menu Codex
// opens at a usage limit.
func TestStatus_ModelNudge(t *testing.T) {
	for _, tc := range []struct {
		name, config, want string
	}{
		{"no config", "", codexhooks.NudgeShown},
		{"default", "model = \"gpt-5.5\"\n", codexhooks.NudgeShown},
		{"false", "[notice]\nhide_rate_limit_model_nudge = false\n", codexhooks.NudgeShown},
		{"another table", "[tui]\nhide_rate_limit_model_nudge = true\n", codexhooks.NudgeShown},
		{"set", "model = \"gpt-5.5\"\n\n[notice]\nhide_full_access_warning = true\nhide_rate_limit_model_nudge = true\n", codexhooks.NudgeHidden},
		{"dotted key", "notice.hide_rate_limit_model_nudge = true\n", codexhooks.NudgeHidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := testOptions(t)
			if tc.config != "" {
				writeFile(t, codexhooks.ConfigPath(opts.Home), tc.config)
			}
			st, err := codexhooks.Status(opts)
			if err != nil {
				t.Fatal(err)
			}
			if st.ModelNudge != tc.want {
				t.Errorf("ModelNudge %q, want %q", st.ModelNudge, tc.want)
			}
		})
	}
}
