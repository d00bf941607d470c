package codex_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/agents/codex"
	"github.com/codeman-dev/codeman/respawn"
)

// want is the part of ScreenFacts a saved screen must show. Tokens is -1
// and PlanMenu, Question and BackgroundWait stay unset on every screen.
type want struct {
	working, completion, promptBox, permission, dialog bool
	input, apiError, usageLimit, blocker               string
	evidence                                           []string // names that must be in Evidence
}

const (
	usageLimit5h = "You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/usage to purchase more credits or try again at 9:12 PM."
	usageLimitWk = "You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/usage to purchase more credits or try again at Dec 3rd, 2026 8:42 PM."
)

// Every saved screen of the recordings, read as the controller must.
func TestClassify_SavedScreens(t *testing.T) {
	cases := map[string]want{
		"idle":        {promptBox: true},
		"working":     {working: true, promptBox: true, evidence: []string{"status_row"}},
		"streaming":   {promptBox: true}, // text streaming: looks idle, the stream tells otherwise
		"done":        {completion: true, promptBox: true, evidence: []string{"completion"}},
		"turn-done":   {completion: true, promptBox: true, evidence: []string{"completion"}},
		"compacted":   {completion: true, promptBox: true, evidence: []string{"completion"}},
		"init-done":   {completion: true, promptBox: true, evidence: []string{"completion"}},
		"clear":       {promptBox: true},
		"new":         {promptBox: true},
		"exited":      {},
		"interrupted": {promptBox: true, evidence: []string{"interrupted"}},
		"approval": {permission: true, blocker: "Would you like to run the following command?",
			evidence: []string{"approval"}},
		"api-error": {promptBox: true, apiError: "We’re currently experiencing high demand, which may cause temporary errors.",
			evidence: []string{"api_error"}},
		"overloaded": {promptBox: true, apiError: "Selected model is at capacity. Please try a different model."},
		"rate-limit": {promptBox: true, apiError: "exceeded retry limit, last status: 429 Too Many Requests, request id: req_fake_1"},
		// The model menu after a limit is a dialog: Enter on it switches
		// the model.
		"usage-limit": {dialog: true, usageLimit: usageLimit5h, blocker: "Approaching rate limits",
			evidence: []string{"rate_limit_menu", "usage_limit"}},
		"weekly-limit":          {dialog: true, usageLimit: usageLimitWk, blocker: "Approaching rate limits"},
		"usage-limit-dismissed": {promptBox: true, usageLimit: usageLimit5h, evidence: []string{"usage_limit"}},
	}
	a := codex.New()
	for situation, w := range cases {
		t.Run(situation, func(t *testing.T) {
			checkFacts(t, a.Classify(loadScreen(t, situation)), w)
		})
	}
}

func checkFacts(t *testing.T, f respawn.ScreenFacts, w want) {
	t.Helper()
	got := want{working: f.Working, completion: f.Completion, promptBox: f.PromptBox, permission: f.Permission,
		dialog: f.Dialog, input: f.Input, apiError: f.APIError, usageLimit: f.UsageLimit, blocker: f.BlockerText}
	if g, w := got, w; g.working != w.working || g.completion != w.completion || g.promptBox != w.promptBox ||
		g.permission != w.permission || g.dialog != w.dialog || g.input != w.input || g.apiError != w.apiError ||
		g.usageLimit != w.usageLimit || g.blocker != w.blocker {
		t.Errorf("facts\n got %+v\nwant %+v\nevidence %q", got, w, f.Evidence)
	}
	if f.Tokens != -1 || f.PlanMenu || f.Question || f.BackgroundWait != 0 || f.AutoContinue != respawn.AutoContinueNone {
		t.Errorf("Claude-only facts set: %+v", f)
	}
	for _, name := range w.evidence {
		if !slices.ContainsFunc(f.Evidence, func(e string) bool { return strings.HasPrefix(e, name+": ") }) {
			t.Errorf("evidence %q lacks %q", f.Evidence, name)
		}
	}
}

// Screens of the recordings between the saved ones: the status row in its
// other forms, typed input and the slash-command popup.
func TestClassify_RecordedFrames(t *testing.T) {
	cases := []struct {
		scenario string
		at       float64
		w        want
	}{
		// "◦ Working (2s • esc to interrupt) · 1 background terminal running · …"
		{"turn-ends", 5.800, want{working: true, promptBox: true}},
		// The first reply line with the turn still running: no status row.
		{"turn-ends", 3.720, want{promptBox: true}},
		// "• Reconnecting... 1/1 (0s • esc to interrupt)" with the error under it.
		{"api-error", 3.100, want{working: true, promptBox: true}},
		// The prompt typed, not yet submitted: the footer's second row is gone.
		{"new", 6.320, want{promptBox: true, input: "say again"}},
		// "/new" typed over its popup, which is drawn above the composer.
		{"new", 2.990, want{promptBox: true, input: "/new"}},
		// The start screen right after /new: the footer is "? for shortcuts" alone.
		{"new", 3.200, want{promptBox: true}},
		// The prompt echoed, the status row not yet drawn.
		{"turn-ends", 3.600, want{promptBox: true}},
		// The menu closed with Esc: the limit stays the latest turn's.
		{"usage-limit", 11.500, want{promptBox: true, usageLimit: usageLimit5h}},
		// The approval prompt as the emulator draws it.
		{"approval", 10.000, want{permission: true, blocker: "Would you like to run the following command?"}},
	}
	a := codex.New()
	for _, tc := range cases {
		t.Run(tc.scenario, func(t *testing.T) {
			f := frameAt(t, frames(t, loadCast(t, tc.scenario)), tc.at)
			checkFacts(t, a.Classify(f.screen), tc.w)
			if t.Failed() {
				t.Logf("screen at %.3fs:\n%s", f.t, f.screen.Text())
			}
		})
	}
}

// On every frame of every recording: no idle-looking fact while Codex
// works or a person must answer, and the prompt box never under a dialog.
func TestClassify_NoIdleFactsUnderWorkOrDialogs(t *testing.T) {
	a := codex.New()
	for _, scenario := range scenarios {
		for _, fr := range frames(t, loadCast(t, scenario)) {
			f := a.Classify(fr.screen)
			blocked := f.Permission || f.Dialog
			if f.Completion && (f.Working || blocked || !f.PromptBox) || f.PromptBox && blocked {
				t.Errorf("%s at %.3fs: %+v\n%s", scenario, fr.t, f, fr.screen.Text())
			}
		}
	}
}
