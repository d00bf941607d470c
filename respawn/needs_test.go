package respawn

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/claudescreen"
)

// wantNeed checks the pane's need for a person: kind "" means none.
func (h *harness) wantNeed(kind NeedKind, reason string) {
	h.t.Helper()
	st := h.c.Status(h.vt.Now, 0)
	switch {
	case kind == "" && st.NeedsYou != nil:
		h.t.Fatalf("needs you %s, want nobody needed\n%s", st.NeedsYou, h.dump())
	case kind == "":
		return
	case st.NeedsYou == nil:
		h.t.Fatalf("nobody needed, want %s\n%s", kind, h.dump())
	case st.NeedsYou.Kind != kind || !strings.Contains(st.NeedsYou.Reason, reason):
		h.t.Fatalf("needs you %s, want %s containing %q\n%s", st.NeedsYou, kind, reason, h.dump())
	}
	if want := "needs you: " + string(kind); st.Line != want {
		h.t.Fatalf("status line %q, want %q", st.Line, want)
	}
}

// A question announced by its hook is raised at once with its text, and
// cleared when it is answered.
func TestNeed_QuestionFromHook(t *testing.T) {
	h := newHarness(t, testConfig())
	h.work(2 * time.Second)
	h.screen = questionScreen()
	h.hook(HookQuestionPending, func(k *Hook) {
		k.Tool, k.Detail = "AskUserQuestion", "Which database should the project use?"
	})
	h.wantNeed(NeedQuestion, "Which database should the project use?")
	h.advance(10 * time.Minute)
	h.wantNeed(NeedQuestion, "Which database")
	h.wantSends()

	h.hook(HookQuestionAnswered, func(k *Hook) { k.Tool = "AskUserQuestion" })
	h.work(2 * time.Second)
	h.wantNeed("", "")
	h.wantDecision("no longer needs a person (question: Which database should the project use?)")
}

// Without hooks the screen tells: the question is raised once the
// controller reads the screen, and cleared when Claude works again.
func TestNeed_QuestionFromScreen(t *testing.T) {
	h := newHarness(t, testConfig())
	h.work(2 * time.Second)
	h.draw(questionScreen())
	h.advance(time.Minute)
	h.wantNeed(NeedQuestion, "Which database should the project use?")
	h.wantSends()
	h.work(2 * time.Second)
	h.wantNeed("", "")
}

// A permission prompt names the tool and its command.
func TestNeed_Permission(t *testing.T) {
	h := newHarness(t, testConfig())
	h.work(2 * time.Second)
	h.screen = permissionScreen()
	h.hook(HookPermissionPrompt, func(k *Hook) { k.Tool, k.Detail = "Bash", "rm -rf ./build-output" })
	h.wantNeed(NeedPermission, "Bash: rm -rf ./build-output")
	// Claude's reminder names nothing; what is asked stays known.
	h.advance(6 * time.Second)
	h.hook(HookPermissionPrompt, func(k *Hook) { k.Message = "Claude needs your permission" })
	h.wantNeed(NeedPermission, "Bash: rm -rf ./build-output")
	h.hook(HookToolFinished, func(k *Hook) { k.Tool = "Bash" })
	h.work(time.Second)
	h.wantNeed("", "")
}

// A person who answers with Esc leaves no hook behind: the screen read
// after their keys shows the prompt box again, and the need is cleared.
func TestNeed_ClearedByTheScreen(t *testing.T) {
	h := newHarness(t, testConfig())
	h.work(2 * time.Second)
	h.draw(permissionScreen())
	h.advance(time.Minute)
	h.wantNeed(NeedPermission, "")
	h.draw(idleScreen())
	h.wantNeed("", "")
}

// A prompt announced by its hook and declined with Esc: Codex reports the
// interrupt, no PostToolUse, and the need goes with the prompt, without
// waiting out the hook's expiry.
func TestNeed_ClearedByInterrupt(t *testing.T) {
	h := newHarness(t, testConfig())
	h.work(2 * time.Second)
	// A prompt the reader does not see: nothing on screen says it was
	// answered, so the hook's word stands.
	h.screen = idleScreen()
	h.hook(HookPermissionPrompt, func(k *Hook) { k.Tool, k.Detail = "Bash", "rm -rf ./build-output" })
	h.wantNeed(NeedPermission, "rm -rf ./build-output")
	h.advance(30 * time.Second)
	h.draw(idleScreen())
	h.wantNeed(NeedPermission, "rm -rf ./build-output")
	h.hook(HookInterrupted)
	h.wantNeed("", "")
	h.wantSends()
}

func TestNeed_Elicitation(t *testing.T) {
	h := newHarness(t, testConfig())
	h.work(2 * time.Second)
	h.screen = menuScreen()
	h.hook(HookElicitation, func(k *Hook) { k.Message = "MCP server github requests your input" })
	h.wantNeed(NeedElicitation, "MCP server github requests your input")
}

// A dialog codeman will not answer is a menu.
func TestNeed_Menu(t *testing.T) {
	h := newHarness(t, testConfig())
	h.work(2 * time.Second)
	h.draw(menuScreen())
	h.advance(time.Minute)
	h.wantNeed(NeedMenu, "Auto mode can't check actions")
	h.wantSends()
}

// A plan approval is not a need when codeman accepts it, and a menu when
// auto-accept is off.
func TestNeed_PlanMenu(t *testing.T) {
	for _, auto := range []bool{true, false} {
		cfg := testConfig()
		cfg.AutoAcceptPrompts = auto
		h := newHarness(t, cfg)
		h.work(2 * time.Second)
		h.screen = planScreen()
		h.hook(HookPlanApproval, func(k *Hook) { k.Tool = "ExitPlanMode" })
		h.draw(planScreen())
		h.advance(3 * time.Second)
		if auto {
			h.wantNeed("", "")
			h.advance(time.Minute)
			h.wantSends("press: Enter")
			continue
		}
		h.advance(time.Minute)
		h.wantNeed(NeedMenu, "auto_accept_prompts is off")
		h.wantSends()
	}
}

// Background work is Claude's own waiting: nobody is needed.
func TestNeed_BackgroundWorkIsNot(t *testing.T) {
	h := newHarness(t, testConfig())
	h.work(2 * time.Second)
	h.finishTurn()
	h.hook(HookStop, func(k *Hook) { k.Background = 2 })
	h.advance(time.Hour)
	h.wantNeed("", "")
}

// When the watchdog's recoveries run out, a person is called; output
// clears it.
func TestNeed_Stuck(t *testing.T) {
	cfg := testConfig()
	cfg.MaxStuckRecoveries = 1
	h := newHarnessShowing(t, cfg, shellScreen())
	h.advance(2 * time.Hour)
	h.wantNeed(NeedStuck, "1 recoveries done")
	h.work(time.Second)
	h.wantNeed("", "")
}

// Typing that keeps failing calls a person; a send that works clears it.
func TestNeed_SendFailed(t *testing.T) {
	h := newHarness(t, testConfig())
	h.sendErr = errors.New("pane is dead")
	h.finishTurn()
	h.untilState(Watching)
	for range 4 {
		h.advance(5 * time.Second)
	}
	h.wantNeed(NeedSendFailed, "pane is dead")
	h.sendErr = nil
	h.work(time.Second)
	h.wantNeed("", "")
}

// An invalid API key is an auth need at once, with the screen's line.
func TestNeed_Auth(t *testing.T) {
	h := newHarness(t, testConfig())
	h.work(2 * time.Second)
	h.screen = claudescreen.Of("❯ hello", "  ⎿  Invalid API key · Fix external API key", "", claudescreen.Rule, claudescreen.Prompt, claudescreen.Rule, claudescreen.FooterIdle)
	h.hook(HookTurnFailed, func(k *Hook) { k.Error = "authentication_failed" })
	h.hook(HookStop)
	h.advance(time.Minute)
	h.wantNeed(NeedAuth, "Invalid API key")
	h.wantSends()
}

// Turns that keep failing are backed off from maxAPIErrorWaits times;
// then codeman types nothing more and calls a person, until a person's
// prompt starts a turn.
func TestNeed_ErrorAfterBackoffs(t *testing.T) {
	cfg := testConfig()
	cfg.APIErrorBackoff = time.Minute
	h := newHarness(t, cfg)
	fail := func() {
		h.work(time.Second)
		h.screen = claudescreen.Of("❯ go on", "● API Error: 529 Overloaded", "", claudescreen.Rule, claudescreen.Prompt, claudescreen.Rule, claudescreen.FooterIdle)
		h.hook(HookTurnFailed, func(k *Hook) { k.Error = "server_error" })
		h.hook(HookStop)
		h.advance(20 * time.Second)
	}
	for i := range maxAPIErrorWaits {
		fail()
		h.wantNeed("", "")
		h.advance(cfg.APIErrorBackoff + cfg.CompletionConfirm)
		if got := len(h.sends()); got != i+1 {
			t.Fatalf("after failure %d: %d sends, want %d resumes\n%s", i+1, got, i+1, h.dump())
		}
	}
	fail()
	h.wantNeed(NeedError, "529 Overloaded")
	resumes := len(h.sends())
	h.advance(time.Hour)
	if got := len(h.sends()); got != resumes {
		t.Fatalf("typed after giving up: %v", h.sends()[resumes:])
	}
	h.hook(HookPromptSubmitted)
	h.work(time.Second)
	h.wantNeed("", "")
}

// The agents' words for a key or a sign-in that does not work are auth
// errors; their other API errors are not.
func TestIsAuthError(t *testing.T) {
	for line, want := range map[string]bool{
		"Invalid API key · Fix external API key":                                   true, // Claude Code
		"Authentication failed with provider at http://127.0.0.1:9/v1 (HTTP 401).": true, // Copilot
		"invalid x-api-key (fake)":                                                 true, // OpenCode, Anthropic's provider
		"Internal server error (fake)":                                             false,
		"Number of request tokens has exceeded your per-minute rate limit (fake)":  false,
		"Failed to get response from the AI model; retried 5 times (total retry wait time: 16.10 seconds) Last error: 500 The server had an error": false,
	} {
		if got := isAuthError(line); got != want {
			t.Errorf("isAuthError(%q) = %v, want %v", line, got, want)
		}
	}
}
