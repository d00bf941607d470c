package codex_test

import (
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/agents/codex"
	"github.com/codeman-dev/codeman/respawn"
)

// screenOf lays rows out as Codex does: the header at the top, the given
// bottom rows at the bottom of a 30-row pane.
func screenOf(transcript, bottom string) respawn.Screen {
	lines := append([]string{"", "  >_ OpenAI Codex (v0.171.0)", "     ~/proj", ""}, strings.Split(transcript, "\n")...)
	b := strings.Split(bottom, "\n")
	for len(lines)+len(b) < 30 {
		lines = append(lines, "")
	}
	return respawn.Screen{Lines: append(lines, b...), Width: 200, Height: 30}
}

const footer = "› Ask Codex to do anything\n\n  GPT-5.5 default · ~/proj\n  ← for agents · ? for shortcuts"

// The dialogs docs/codex.md describes but the recordings do not hold, as
// the documented rows: each replaces the composer and none of them shows
// anything idle.
func TestClassify_DocumentedDialogs(t *testing.T) {
	cases := map[string]struct {
		bottom     string
		permission bool
		blocker    string
	}{
		"hooks review": {bottom: "  Hooks need review\n  14 hooks are new or changed.\n  Hooks can run outside the sandbox after you trust them.\n\n" +
			"› 1. Review hooks\n  2. Trust all and continue\n  3. Continue without trusting (hooks won't run)\n\n  enter confirm · esc skip",
			blocker: "Hooks need review"},
		"folder trust": {bottom: "  Folder access\n  Trust this folder?\n\n› 1. Trust and continue\n  2. Back to Agent Command Center\n\n  enter continue · esc back",
			blocker: "Folder access"},
		"model migration": {bottom: "  Meet GPT-6 Sol\n\n› 1. Try new model\n  2. Use existing model\n\n  enter/esc confirm · ^c quit",
			blocker: "› 1. Try new model"},
		"warnings view": {bottom: "  Warnings · 1 of 2 · Startup\n  bubblewrap not found on PATH\n\n  k keep & next · esc dismiss & close · ^o copy · ←/→ warning",
			blocker: "Warnings · 1 of 2 · Startup"},
		"edit approval": {bottom: "  Would you like to make the following edits?\n\n  README.md (+1 -0)\n\n› 1. Yes, proceed (y)\n  2. No, and tell Codex what to do differently (esc)\n\n  Press enter to confirm or esc to cancel",
			permission: true, blocker: "Would you like to make the following edits?"},
		"unknown menu": {bottom: "  Pick a reasoning effort\n\n› 1. Low\n  2. High\n\n  enter select · esc back",
			blocker: "› 1. Low"},
		"transcript browsing": {bottom: "› say hello\n\n  Browsing transcript · 1 of 2 · ↵ rewind · esc back",
			blocker: "Browsing transcript · 1 of 2 · ↵ rewind · esc back"},
	}
	a := codex.New()
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := a.Classify(screenOf("› say hello\n\n• Hello!\n\n  Worked for 2s • 18:41", tc.bottom))
			if f.Permission != tc.permission || f.Dialog == tc.permission || f.BlockerText != tc.blocker {
				t.Errorf("Permission %v Dialog %v BlockerText %q, want Permission %v, a dialog, %q",
					f.Permission, f.Dialog, f.BlockerText, tc.permission, tc.blocker)
			}
			if f.PromptBox || f.Completion || f.Working || f.Blocker() == "" {
				t.Errorf("idle facts under a dialog: %+v", f)
			}
		})
	}
}

// What the agent says in its reply is no dialog: the composer is on screen.
func TestClassify_DialogWordsInTheTranscript(t *testing.T) {
	f := codex.New().Classify(screenOf("› plan it\n\n• Would you like to run the following command?\n  › 1. Yes\n  enter select · esc back\n\n  Worked for 2s • 18:41", footer))
	if f.Dialog || f.Permission || !f.PromptBox || !f.Completion {
		t.Errorf("%+v", f)
	}
}

// A finished turn, an older turn's error and a new prompt: only the latest
// turn counts.
func TestClassify_LatestTurnOnly(t *testing.T) {
	a := codex.New()
	older := "› deploy\n\n■ Selected model is at capacity. Please try a different model.\n\n› deploy again\n\n• Deployed.\n\n  Worked for 3s • 18:41"
	if f := a.Classify(screenOf(older, footer)); f.APIError != "" || !f.Completion {
		t.Errorf("an older turn's error counted: %+v", f)
	}
	running := "› say hello\n\n• Hello!\n\n  Worked for 2s • 18:41\n\n› and again"
	if f := a.Classify(screenOf(running, footer)); f.Completion {
		t.Errorf("the previous turn's end counted after a new prompt: %+v", f)
	}
	typed := strings.Replace(footer, "Ask Codex to do anything", "fix the tests", 1)
	if f := a.Classify(screenOf("", typed)); f.Input != "fix the tests" || !f.PromptBox {
		t.Errorf("typed text: %+v", f)
	}
	// Text that reads like a menu option in the composer: no prompt box
	// (nothing is typed into it), and no dialog either.
	numbered := strings.Replace(footer, "Ask Codex to do anything", "1. fix the tests", 1)
	if f := a.Classify(screenOf("", numbered)); f.PromptBox || f.Dialog {
		t.Errorf("numbered draft: %+v", f)
	}
}
