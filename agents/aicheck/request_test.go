package aicheck

import (
	"strings"
	"testing"
)

func TestValidateModel(t *testing.T) {
	valid := []string{"haiku", "sonnet", "claude-haiku-4-5", "claude-opus-4-5-20251101", "us.anthropic.claude-sonnet-4-5", "org/model_v2.1", strings.Repeat("m", maxModelLen)}
	for _, m := range valid {
		if err := validateModel(m); err != nil {
			t.Errorf("validateModel(%q) = %v, want nil", m, err)
		}
	}
	invalid := []string{"", "-p", "--dangerously-skip-permissions", "haiku opus", "haiku;id", "$(id)", "`id`", "a\nb", "modèle", "anthropic.claude-v2:1", strings.Repeat("m", maxModelLen+1)}
	for _, m := range invalid {
		if err := validateModel(m); err == nil {
			t.Errorf("validateModel(%q) = nil, want an error", m)
		}
	}
}
