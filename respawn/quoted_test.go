package respawn

import (
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/claudescreen"
)

// Claude Code's own limit rows count wherever they are drawn; the same
// message inside a reply's rows does not.
func TestGuard_OwnLimitRows(t *testing.T) {
	box := []string{claudescreen.Rule, claudescreen.Prompt, claudescreen.Rule, claudescreen.FooterIdle}
	for _, tc := range []struct {
		name string
		rows []string
		want string
	}{
		{"hint_row", []string{"❯ go on", "  ⎿  You've hit your 5-hour limit · resets 8:00pm (UTC)"}, "You've hit your 5-hour limit · resets 8:00pm (UTC)"},
		{"notice_row", []string{"❯ go on", "● Usage limit reached · set to continue automatically at 5:33pm"}, "Usage limit reached · set to continue automatically at 5:33pm"},
		{"legacy_hint_row", []string{"❯ go on", "  ⎿  5-hour limit reached ∙ resets 3pm"}, "5-hour limit reached ∙ resets 3pm"},
		{"reply_row", []string{"❯ what did it say", "● It said:", "  You've hit your session limit · resets 7:30pm"}, ""},
		{"reply_first_row", []string{"❯ what did it say", "● You've hit your session limit · resets 7:30pm"}, ""},
		{"reply_sentence", []string{"❯ what did it say", "● It said ⎿  You've hit your 5-hour limit · resets 8:00pm (UTC) and stopped."}, ""},
		{"reply_legacy", []string{"❯ what did it say", "● Old versions said:", "  5-hour limit reached ∙ resets 3pm"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := claudeReader.Classify(Screen{Lines: claudescreen.Of(append(tc.rows, box...)...)})
			if f.UsageLimit != tc.want {
				t.Fatalf("UsageLimit = %q, want %q", f.UsageLimit, tc.want)
			}
		})
	}
	footer := claudescreen.Of("❯ go on", "● Done.", claudescreen.Rule, claudescreen.Prompt, claudescreen.Rule, "  ⚠ Usage limit reached · limit resets 5:33pm")
	if f := claudeReader.Classify(Screen{Lines: footer}); !strings.HasPrefix(f.UsageLimit, "Usage limit reached") {
		t.Fatalf("the footer's banner is no limit: %+v", f)
	}
}

// A turn that ended with a plain Stop hook is no usage limit, though its
// reply shows a row that reads exactly like Claude Code's limit notice
// ("● Usage limit reached · …", a reply whose first line is that): the
// cycle runs. The same screen after StopFailure is waited out.
func TestGuard_QuotedLimit(t *testing.T) {
	quoted := func() []string {
		return claudescreen.Of("❯ what did the banner say", "● Usage limit reached · limit resets 8:00pm", "", "✻ Churned for 3s · done 6:47 PM", "",
			claudescreen.Rule, claudescreen.Prompt, claudescreen.Rule, claudescreen.FooterIdle)
	}
	t.Run("stop", func(t *testing.T) {
		h := newHarness(t, testConfig())
		h.hook(HookPromptSubmitted)
		h.work(5 * time.Second)
		h.draw(quoted())
		h.hook(HookStop)
		h.advance(20 * time.Second)
		if s := h.sends(); len(s) == 0 || s[0] != "submit: "+DefaultUpdatePrompt {
			t.Fatalf("sent %q, want the update prompt first\n%s", s, h.dump())
		}
		h.wantDecision("usage-limit text on screen is part of a reply")
	})
	t.Run("stop_then_failure", func(t *testing.T) {
		// Claude Code went on by itself after the Stop (no prompt hook
		// for that) and hit the limit: the failure is the newer word.
		h := newHarness(t, testConfig())
		h.hook(HookPromptSubmitted)
		h.work(5 * time.Second)
		h.hook(HookStop)
		h.work(2 * time.Second)
		h.draw(quoted())
		h.hook(HookTurnFailed, func(k *Hook) { k.Error = "rate_limit" })
		h.advance(20 * time.Second)
		h.wantNoCycle()
		h.wantDecision("waiting out usage limit until 20:01:00")
	})
	t.Run("stop_failure", func(t *testing.T) {
		h := newHarness(t, testConfig())
		h.hook(HookPromptSubmitted)
		h.work(5 * time.Second)
		h.draw(quoted())
		h.hook(HookTurnFailed, func(k *Hook) { k.Error = "rate_limit" })
		h.advance(20 * time.Second)
		h.wantNoCycle()
		h.wantDecision("waiting out usage limit until 20:01:00")
	})
}
