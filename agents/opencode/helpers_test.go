package opencode_test

import (
	"path/filepath"
	"testing"

	"github.com/codeman-dev/codeman/respawn/replay"
)

// scenarios are the recorded sessions (testdata/README.md), by name.
var scenarios = []string{"api-error", "clear-init", "permission", "question", "tool-slow", "turn-ends"}

func loadCast(t testing.TB, scenario string) *replay.Cast {
	t.Helper()
	c, err := replay.ReadFile(filepath.Join("testdata", scenario+"-"+version+".cast"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}
