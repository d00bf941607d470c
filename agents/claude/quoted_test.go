package claude

import "testing"

// A reply of the real Claude Code 2.1.332 that quotes a usage limit in
// three forms, a completion line, "esc to interrupt", a permission question
// and a numbered list reads as a finished turn: no limit, no work, no
// dialog.
func TestClassify_QuotedBanners(t *testing.T) {
	f := DefaultPatterns().Classify(screenFixture(t, "v2.1.332-quoted-banners.txt"))
	if f.UsageLimit != "" || f.Working || f.Blocker() != "" || f.PlanMenu || !f.Completion || !f.PromptBox {
		t.Fatalf("facts = %+v, want a finished turn with nothing else", f)
	}
}
