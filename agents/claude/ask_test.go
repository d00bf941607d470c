package claude

import (
	"slices"
	"testing"

	"github.com/codeman-dev/codeman/respawn"
)

// The dialogs a person answers, read off real Claude Code screens: what
// they ask, their options in order, the one under the selector, and the
// options that open a text box.
func TestClassify_Ask(t *testing.T) {
	p := DefaultPatterns()
	for _, tc := range []struct {
		fixture  string
		kind     respawn.NeedKind
		text     string
		options  []string
		selected int
		typed    []int
	}{
		{"14-bash-permission-prompt.txt", respawn.NeedPermission,
			"rm -rf ./build-output-does-not-exist && curl -s http://127.0.0.1:9/ || true",
			[]string{"Yes", "Yes, and don't ask again for rm -rf ./build-output-does-not-exist and curl -s http://127.0.0.1:9/ commands in /home/dev/proj",
				"Yes, and switch to auto mode · auto mode handles these prompts for you", "No"}, 0, nil},
		{"21-askuserquestion.txt", respawn.NeedQuestion, "Which database should the project use?",
			[]string{"PostgreSQL", "SQLite", "Redis", "Type something.", "Chat about this"}, 0, []int{3, 4}},
		{"25-askmulti-q2.txt", respawn.NeedQuestion, "Which language for the CLI?",
			[]string{"Go", "Rust", "Type something.", "Chat about this"}, 0, []int{2, 3}},
		{"32-plan-approval-prompt.txt", respawn.NeedMenu, "Ready to code?",
			[]string{"Yes, and use auto mode", "Yes, manually approve edits", "Tell Claude what to change"}, 0, nil},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			a := p.Classify(screenFixture(t, tc.fixture)).Ask
			if a.Kind != tc.kind || a.Text != tc.text || !slices.Equal(a.Options, tc.options) || a.Selected != tc.selected || !slices.Equal(a.Typed, tc.typed) {
				t.Errorf("Ask = %+v\nwant kind %s, text %q, options %q, selected %d, typed %v", a, tc.kind, tc.text, tc.options, tc.selected, tc.typed)
			}
			if a.Fingerprint() == "" {
				t.Error("no fingerprint")
			}
		})
	}
	// Screens with no dialog, a numbered list in a reply, a dialog of
	// Claude Code's own and a multi-select question (whose Enter ticks a
	// box) ask nothing a person answers from afar.
	for _, name := range []string{"10-idle-manual-mode.txt", "06-reply-done.txt", "16-working-spinner-5s.txt",
		"01-trust-dialog-yes-selected.txt", "23-askuserquestion-multi-q1.txt", "24-askmulti-q1-two-checked.txt"} {
		if a := p.Classify(screenFixture(t, name)).Ask; a.Open() {
			t.Errorf("%s: Ask = %+v, want none", name, a)
		}
	}
}
