package codex_test

import (
	"slices"
	"testing"

	"github.com/codeman-dev/codeman/agents/codex"
	"github.com/codeman-dev/codeman/respawn"
)

// An approval prompt of the real Codex CLI, read as a person answers it:
// the command it asks about and its options in order, the first under
// the selector.
func TestClassify_ApprovalAsk(t *testing.T) {
	a := codex.New().Classify(loadScreen(t, "approval")).Ask
	want := []string{"Yes, proceed (y)", "Yes, and don't ask again for commands that start with `rm -rf ./build-output` (p)",
		"No, and tell Codex what to do differently (esc)"}
	if a.Kind != respawn.NeedPermission || a.Text != "$ rm -rf ./build-output" || !slices.Equal(a.Options, want) || a.Selected != 0 {
		t.Errorf("Ask = %+v", a)
	}
	if i, err := a.Choose("deny"); err != nil || i != 2 {
		t.Errorf(`Choose("deny") = %d, %v; want the "No" option`, i, err)
	}
	for _, situation := range []string{"idle", "streaming", "done", "usage-limit"} {
		if a := codex.New().Classify(loadScreen(t, situation)).Ask; a.Open() {
			t.Errorf("%s: Ask = %+v, want none", situation, a)
		}
	}
}
