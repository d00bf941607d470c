package copilot_test

import (
	"path/filepath"
	"testing"

	"github.com/codeman-dev/codeman/respawn/replay"
)

// scenarios are the recorded sessions (testdata/README.md), by name.
var scenarios = []string{"api-error", "clear-init", "permission", "plan", "question", "turn-ends", "usage-limit"}

func loadCast(t testing.TB, scenario string) *replay.Cast {
	t.Helper()
	path := filepath.Join("testdata", scenario+"-"+version+".cast")
	c, err := replay.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
