package respawn

import (
	"testing"
	"time"
)

// planCheckConfig is testConfig with the AI plan check on.
func planCheckConfig() Config {
	cfg := testConfig()
	cfg.AIPlanCheck.Enabled = true
	return cfg
}

// The Enter of a plan approval is pressed only when auto-accept is on, the
// screen read again shows the plan menu and nothing a person must answer,
// the pane was silent for auto_accept_delay, nothing was pressed since the
// last output, and no plan check runs or speaks against it.
func TestGuard_Accept(t *testing.T) {
	t.Run("accepted", func(t *testing.T) {
		h := newHarness(t, testConfig())
		h.draw(planScreen())
		h.advance(8100 * time.Millisecond)
		h.wantSends("press: Enter")
	})
	t.Run("turned_off", func(t *testing.T) {
		h := newHarness(t, testConfig())
		h.draw(planScreen())
		h.advance(4 * time.Second)
		cfg := testConfig()
		cfg.AutoAcceptPrompts = false
		h.c.SetConfig(h.vt.Now, cfg)
		h.advance(time.Minute)
		h.wantSends()
	})
	t.Run("second_enter", func(t *testing.T) {
		h := newHarness(t, testConfig())
		h.draw(planScreen())
		h.advance(2 * time.Minute) // the menu stays: nothing printed after Enter
		h.wantSends("press: Enter")
	})
	t.Run("check_running", func(t *testing.T) {
		h := newHarness(t, planCheckConfig())
		h.draw(planScreen())
		h.advance(8100 * time.Millisecond)
		if len(h.checks) != 1 {
			t.Fatalf("%d plan checks asked, want 1\n%s", len(h.checks), h.dump())
		}
		h.hook(HookPlanApproval, func(k *Hook) { k.Tool = "ExitPlanMode" })
		h.output("x") // too little to cancel the check
		h.advance(20 * time.Second)
		h.wantSends()
	})
	t.Run("question_drawn", func(t *testing.T) {
		h := newHarnessShowing(t, testConfig(), planScreen())
		h.advance(time.Second)
		h.draw(questionScreen())
		h.advance(time.Minute)
		h.wantSends()
	})
	t.Run("no_plan_menu", func(t *testing.T) {
		h := newHarness(t, testConfig())
		h.output(chunkText)
		h.advance(20 * time.Second)
		h.wantSends()
	})
	for _, tc := range []struct {
		name string
		hook HookKind
	}{{"question_hook", HookQuestionPending}, {"permission_hook", HookPermissionPrompt}, {"elicitation_hook", HookElicitation}} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, testConfig())
			h.hook(tc.hook)
			h.draw(planScreen())
			h.advance(time.Minute)
			h.wantSends()
			h.wantDecision("plan menu not accepted: a person must answer")
		})
	}
	t.Run("output_before_screen", func(t *testing.T) {
		h := newHarness(t, testConfig())
		h.draw(planScreen())
		h.holdScreens = true
		h.advance(8 * time.Second) // the delay is over: a screen is asked for
		h.advance(100 * time.Millisecond)
		h.output(chunkText) // output before the screen arrives
		h.advance(100 * time.Millisecond)
		h.deliverScreens()
		h.wantSends()
	})
	t.Run("state_changed", func(t *testing.T) {
		h := newHarness(t, planCheckConfig())
		h.draw(planScreen())
		h.advance(8100 * time.Millisecond)
		h.hook(HookStop) // the turn ended while the check ran
		h.wantState(ConfirmingIdle)
		h.answer(CheckResult{Verdict: VerdictPlanMode}, nil)
		h.wantSends()
	})
	t.Run("unknown_verdict", func(t *testing.T) {
		h := newHarness(t, planCheckConfig())
		h.draw(planScreen())
		h.advance(8100 * time.Millisecond)
		h.answer(CheckResult{Verdict: "MAYBE"}, nil)
		h.wantSends()
	})
}
