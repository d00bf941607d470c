package respawn

import (
	"errors"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/claudescreen"
)

// aiConfig is testConfig with the AI idle check on.
func aiConfig() Config {
	cfg := testConfig()
	cfg.AIIdleCheck.Enabled = true
	return cfg
}

// wantNoCycle fails when a cycle started.
func (h *harness) wantNoCycle() {
	h.t.Helper()
	if n := h.c.Cycles(); n != 0 {
		h.t.Fatalf("%d cycles started\n%s", n, h.dump())
	}
}

// checkingHarness returns a core whose first AI idle check is running.
func checkingHarness(t *testing.T) *harness {
	t.Helper()
	h := newHarness(t, aiConfig())
	h.output(chunkText)
	h.advance(10 * time.Second)
	h.wantState(AIChecking)
	return h
}

// Each thing that speaks against idle keeps a cycle from starting, however
// long the pane stays silent, and the veto names it.
func TestGuard_IdleVeto(t *testing.T) {
	background := claudescreen.Of("✻ Waiting for 1 background agent to finish", "", claudescreen.Rule, claudescreen.Prompt, claudescreen.Rule, claudescreen.FooterIdle)
	for _, tc := range []struct {
		name   string
		cfg    func(*Config)
		appear func(h *harness)
		why    string
	}{
		{"working_screen", nil, func(h *harness) {
			h.screen = workingScreen()
			h.output(chunkText) // streaming text: only the footer says busy
		}, "screen shows Claude working"},
		{"question", nil, func(h *harness) { h.draw(questionScreen()) }, "a person must answer: question"},
		{"question_hook", nil, func(h *harness) {
			h.finishTurn()
			h.hook(HookQuestionPending)
		}, "a person must answer: AskUserQuestion pending (hook)"},
		{"plan_menu", func(c *Config) { c.AutoAcceptPrompts = false }, func(h *harness) { h.draw(planScreen()) }, "plan approval menu on screen"},
		{"background_screen", nil, func(h *harness) { h.draw(background) }, "1 background agent(s) still running"},
		{"background_hook", nil, func(h *harness) {
			h.finishTurn()
			h.hook(HookStop, func(k *Hook) { k.Background = 2 })
		}, "Stop hook reported 2 background task(s) running"},
		{"claude_exited", nil, func(h *harness) { h.draw(shellScreen()) }, "no Claude prompt box on screen"},
		{"typed_text", nil, func(h *harness) { h.draw(typedScreen()) }, "the prompt box holds typed text"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig()
			if tc.cfg != nil {
				tc.cfg(&cfg)
			}
			h := newHarness(t, cfg)
			h.work(5 * time.Second)
			tc.appear(h)
			h.advance(hookDialogExpiry - time.Minute)
			h.wantNoCycle()
			h.wantSends()
			h.wantDecision(tc.why)
		})
	}
}

// Idle is confirmed on a screen read after the last output: a question
// drawn during the confirmation keeps the cycle from starting.
func TestGuard_IdleRereadsScreen(t *testing.T) {
	h := newHarness(t, testConfig())
	h.work(5 * time.Second)
	h.finishTurn()
	h.advance(5 * time.Second)
	h.draw(questionScreen())
	h.advance(time.Minute)
	h.wantNoCycle()
	h.wantDecision("a person must answer: question")
}

// Output after a completion line restarts its completion_confirm of
// silence.
func TestGuard_ConfirmationWaitsForSilence(t *testing.T) {
	h := newHarness(t, testConfig())
	h.work(5 * time.Second)
	h.finishTurn()
	h.advance(5 * time.Second)
	h.output(chunkText)
	h.advance(9 * time.Second)
	h.wantNoCycle()
	h.wantState(ConfirmingIdle)
	h.advance(1100 * time.Millisecond)
	h.wantState(SendingUpdate)
}

// Output after a Stop hook restarts the hook's short silence.
func TestGuard_HookConfirmationWaitsForSilence(t *testing.T) {
	h := newHarness(t, testConfig())
	h.work(5 * time.Second)
	h.finishTurn()
	h.hook(HookStop)
	h.advance(2 * time.Second)
	h.output(chunkText)
	h.advance(2900 * time.Millisecond)
	h.wantNoCycle()
	h.advance(200 * time.Millisecond)
	h.wantState(SendingUpdate)
}

// no_output_timeout counts from the last output, not the first: a
// deadline that comes while output no screen was compared for yet waits
// for a screen, and then for the silence from that output. (Auto-accept
// is off: its screens would move the silence first.)
func TestGuard_SilenceCountsFromLastOutput(t *testing.T) {
	cfg := testConfig()
	cfg.AutoAcceptPrompts = false
	h := newHarness(t, cfg)
	h.output(chunkText)
	h.advance(25 * time.Second)
	h.output(chunkText)
	h.advance(29 * time.Second)
	h.wantNoCycle()
	h.advance(1100 * time.Millisecond)
	h.wantState(SendingUpdate)
}

// Output during a confirmation restarts no_output_timeout too: text that
// keeps coming never lets it fire.
func TestGuard_OutputDuringConfirmation(t *testing.T) {
	h := newHarness(t, testConfig())
	h.work(5 * time.Second)
	h.finishTurn()
	for range 30 {
		h.advance(4 * time.Second)
		h.output(chunkText)
	}
	h.wantNoCycle()
	h.wantState(ConfirmingIdle)
}

// Work a hook reports after a completion line cancels the confirmation,
// though the screen shows nothing new.
func TestGuard_WorkCancelsConfirmation(t *testing.T) {
	h := newHarness(t, testConfig())
	h.work(5 * time.Second)
	h.finishTurn()
	h.advance(5 * time.Second)
	h.hook(HookToolStarted, func(k *Hook) { k.Tool = "Bash" })
	h.wantState(Watching)
	h.advance(6 * time.Second)
	h.wantNoCycle()
}

// No AI check is asked while the screen, read again, shows a question.
// (Auto-accept is off: it would read the screen first.)
func TestGuard_NoCheckOnQuestion(t *testing.T) {
	cfg := aiConfig()
	cfg.AutoAcceptPrompts = false
	h := newHarness(t, cfg)
	h.advance(time.Second)
	h.draw(questionScreen())
	h.advance(time.Minute)
	if len(h.checks) != 0 {
		t.Fatalf("%d AI checks asked with a question on screen\n%s", len(h.checks), h.dump())
	}
	h.wantDecision("a person must answer: question")
}

// Work a hook reports during an AI check cancels it; its late IDLE answer
// starts nothing.
func TestGuard_WorkCancelsCheck(t *testing.T) {
	h := checkingHarness(t)
	h.hook(HookToolStarted, func(k *Hook) { k.Tool = "Bash" })
	h.wantState(Watching)
	h.answer(CheckResult{Verdict: VerdictIdle}, nil)
	h.wantNoCycle()
}

// Output during an AI check cancels it at once.
func TestGuard_OutputCancelsCheck(t *testing.T) {
	h := checkingHarness(t)
	h.output(chunkText)
	h.wantState(Watching)
	h.wantDecision("output during AI check")
}

// An IDLE verdict about a screen the pane has redrawn since starts no cycle.
func TestGuard_VerdictOnChangedScreen(t *testing.T) {
	h := checkingHarness(t)
	h.output("x") // too little to cancel the check
	h.wantState(AIChecking)
	h.answer(CheckResult{Verdict: VerdictIdle}, nil)
	h.wantNoCycle()
	h.wantDecision("the pane printed since")
}

// Only an IDLE verdict confirms idle.
func TestGuard_Verdict(t *testing.T) {
	for _, tc := range []struct {
		name string
		res  CheckResult
		err  error
	}{
		{"working", CheckResult{Verdict: VerdictWorking}, nil},
		{"unknown", CheckResult{Verdict: "MAYBE"}, nil},
		{"error", CheckResult{}, errors.New("exit status 1")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := checkingHarness(t)
			h.answer(tc.res, tc.err)
			h.wantState(Watching)
			h.wantNoCycle()
		})
	}
}

// A dialog a hook announced is not forgotten while the screen shows no
// prompt box: a plan menu drawn beside it is never accepted.
func TestGuard_HookDialogNeedsPromptBox(t *testing.T) {
	h := newHarness(t, testConfig())
	h.work(5 * time.Second)
	h.hook(HookQuestionPending)
	h.draw(planScreen())
	h.advance(hookDialogExpiry + 2*time.Minute)
	h.wantSends()
	h.wantDecision("plan menu not accepted: a person must answer: AskUserQuestion pending (hook)")
}

// A dialog a hook announced, that a screen then showed and a later screen
// no longer shows, was answered, with Esc too, which runs no hook: it is
// forgotten then, not after hookDialogExpiry, and the cycle goes on. One
// the screen never showed holds (TestGuard_BlockerBeforeStep).
func TestCore_HookDialogGoneFromScreen(t *testing.T) {
	h := newHarness(t, testConfig())
	h.work(5 * time.Second)
	h.hook(HookPermissionPrompt)
	h.draw(permissionScreen())
	h.advance(30 * time.Second)
	h.wantSends()
	h.finishTurn()
	h.advance(2 * time.Minute)
	h.wantDecision("permission prompt pending (hook) no longer on screen; forgotten")
	if sends := h.sends(); len(sends) == 0 || sends[0] != "submit: "+testConfig().UpdatePrompt {
		t.Fatalf("sent %v, want the update prompt once the prompt was answered\n%s", h.sends(), h.dump())
	}
}
