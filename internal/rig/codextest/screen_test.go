package codextest_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/codeman-dev/codeman/internal/rig/codextest"
)

// The screen predicates against the recorded screens of the pinned CLI.
func TestScreenPredicates(t *testing.T) {
	for _, tc := range []struct {
		screen                          string
		ready, working, dialog, approve bool
		done                            bool
	}{
		{screen: "idle", ready: true},
		{screen: "working", working: true},
		// While the reply streams nothing on screen says so: the pane
		// title and the hooks do (docs/codex.md).
		{screen: "streaming", ready: true},
		{screen: "done", ready: true, done: true},
		{screen: "turn-done", ready: true, done: true},
		{screen: "approval", dialog: true, approve: true},
		{screen: "interrupted", ready: true},
		{screen: "api-error", ready: true},
		{screen: "usage-limit", dialog: true},
		{screen: "usage-limit-dismissed", ready: true},
		{screen: "init-done", ready: true, done: true},
		{screen: "clear", ready: true},
	} {
		data, err := os.ReadFile(filepath.Join(screenDir, "v"+codextest.Version+"-"+tc.screen+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		s := string(data)
		if got := codextest.PromptReady(s); got != tc.ready {
			t.Errorf("%s: PromptReady = %t", tc.screen, got)
		}
		if got := codextest.Working(s); got != tc.working {
			t.Errorf("%s: Working = %t", tc.screen, got)
		}
		if got := codextest.DialogOpen(s); got != tc.dialog {
			t.Errorf("%s: DialogOpen = %t", tc.screen, got)
		}
		if got := codextest.ApprovalOpen(s); got != tc.approve {
			t.Errorf("%s: ApprovalOpen = %t", tc.screen, got)
		}
		if got := codextest.Done(1)(s); got != tc.done {
			t.Errorf("%s: Done(1) = %t", tc.screen, got)
		}
	}
}

func TestErrorLine(t *testing.T) {
	for name, want := range map[string]string{
		"api-error":   "■ We’re currently experiencing high demand, which may cause temporary errors.",
		"overloaded":  "■ Selected model is at capacity. Please try a different model.",
		"interrupted": "■ Conversation interrupted - use /feedback if something went wrong",
	} {
		data, err := os.ReadFile(filepath.Join(screenDir, "v"+codextest.Version+"-"+name+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		if got := codextest.ErrorLine.FindString(string(data)); got != want {
			t.Errorf("%s: ErrorLine found %q, want %q", name, got, want)
		}
	}
}
