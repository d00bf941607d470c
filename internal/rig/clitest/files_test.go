package clitest_test

import (
	"reflect"
	"testing"

	"github.com/codeman-dev/codeman/internal/rig/clitest"
)

func TestMerge(t *testing.T) {
	base := map[string]any{
		"permissions":        map[string]any{"defaultMode": "default", "allow": []any{"Bash(ls)"}},
		"hooks":              map[string]any{"Stop": []any{"recorder"}},
		"spinnerTipsEnabled": false,
	}
	over := map[string]any{
		"permissions":        map[string]any{"allow": []any{"Bash(echo)"}},
		"hooks":              map[string]any{"Stop": []any{"codeman"}, "Notification": []any{"codeman"}},
		"spinnerTipsEnabled": true,
	}
	got := clitest.Merge(base, over)
	want := map[string]any{
		"permissions":        map[string]any{"defaultMode": "default", "allow": []any{"Bash(ls)", "Bash(echo)"}},
		"hooks":              map[string]any{"Stop": []any{"recorder", "codeman"}, "Notification": []any{"codeman"}},
		"spinnerTipsEnabled": true,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Merge = %v, want %v", got, want)
	}
	if len(base["hooks"].(map[string]any)["Stop"].([]any)) != 1 {
		t.Error("Merge modified its base")
	}
}

func TestWriteFiles_RefusesPathsOutsideTheDir(t *testing.T) {
	dir := t.TempDir()
	if err := clitest.WriteFiles(dir, map[string]string{"../escape.md": "x"}); err == nil {
		t.Error("WriteFiles wrote ../escape.md")
	}
	if err := clitest.WriteFiles(dir, map[string]string{"docs/a.md": "x"}); err != nil {
		t.Error(err)
	}
}
