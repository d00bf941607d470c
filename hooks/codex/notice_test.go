package codex_test

import (
	"testing"

	"github.com/codeman-dev/codeman/hooks/codex"
)

// Status says whether config.toml turns off the model-switch menu Codex
// opens at a usage limit.
func TestStatus_ModelNudge(t *testing.T) {
	for _, tc := range []struct {
		name, config, want string
	}{
		{"no config", "", codex.NudgeShown},
		{"default", "model = \"gpt-5.5\"\n", codex.NudgeShown},
		{"false", "[notice]\nhide_rate_limit_model_nudge = false\n", codex.NudgeShown},
		{"another table", "[tui]\nhide_rate_limit_model_nudge = true\n", codex.NudgeShown},
		{"set", "model = \"gpt-5.5\"\n\n[notice]\nhide_full_access_warning = true\nhide_rate_limit_model_nudge = true\n", codex.NudgeHidden},
		{"dotted key", "notice.hide_rate_limit_model_nudge = true\n", codex.NudgeHidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := testOptions(t)
			if tc.config != "" {
				writeFile(t, codex.ConfigPath(opts.Home), tc.config)
			}
			st, err := codex.Status(opts)
			if err != nil {
				t.Fatal(err)
			}
			if st.ModelNudge != tc.want {
				t.Errorf("ModelNudge %q, want %q", st.ModelNudge, tc.want)
			}
		})
	}
}
