package respawn

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/claudescreen"
)

var fullCycle = []string{
	"submit: " + DefaultUpdatePrompt,
	"submit: /clear",
	"submit: /init",
	"submit: continue with the next task",
}

// STS-001: a turn ends; the whole cycle is typed in order, one step per
// completion_confirm of silence.
func TestCore_FullCycle(t *testing.T) {
	h := newHarness(t, testConfig())
	h.work(20 * time.Second)
	h.finishTurn()
	h.wantState(ConfirmingIdle)
	h.untilCycleEnds(1)
	h.wantSends(fullCycle...)
	h.wantState(Watching)
	want := []string{"watching", "confirming_idle", "sending_update", "waiting_update", "sending_clear", "waiting_clear",
		"sending_init", "waiting_init", "monitoring_init", "sending_kickstart", "waiting_kickstart", "watching"}
	if got := h.states(); strings.Join(got[:len(want)], " ") != strings.Join(want, " ") {
		t.Fatalf("states = %v\nwant %v", got, want)
	}
	if h.c.Cycles() < 1 {
		t.Fatalf("cycles = %d", h.c.Cycles())
	}
	// The first step is typed completion_confirm + inter_step_delay after the line.
	if at := h.sent[0].at; at != 20*time.Second+10*time.Second+time.Second {
		t.Errorf("update typed at %s, want 31s", at)
	}
}

// STS-002..004: disabled steps are skipped.
func TestCore_SkippedSteps(t *testing.T) {
	for _, tc := range []struct {
		name        string
		clear, init bool
		kickstart   string
		want        []string
	}{
		{"NoClear", false, true, "", []string{"submit: " + DefaultUpdatePrompt, "submit: /init"}},
		{"NoInit", true, false, "go on", []string{"submit: " + DefaultUpdatePrompt, "submit: /clear"}},
		{"Neither", false, false, "go on", []string{"submit: " + DefaultUpdatePrompt}},
		{"NoKickstart", true, true, "", []string{"submit: " + DefaultUpdatePrompt, "submit: /clear", "submit: /init"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig()
			cfg.SendClear, cfg.SendInit, cfg.KickstartPrompt = tc.clear, tc.init, tc.kickstart
			h := newHarness(t, cfg)
			h.work(time.Second)
			h.finishTurn()
			h.untilCycleEnds(1)
			h.wantSends(tc.want...)
			h.wantState(Watching)
		})
	}
}

// STS-005: /init starts work during monitoring_init: no kickstart.
func TestCore_InitStartsWork(t *testing.T) {
	h := newHarness(t, testConfig())
	h.work(time.Second)
	h.finishTurn()
	for h.c.State() != MonitoringInit {
		h.advance(100 * time.Millisecond)
	}
	h.work(2 * time.Second)
	h.wantState(Watching)
	h.wantDecision("/init started work, kickstart skipped")
	h.wantSends(fullCycle[:3]...)
}

// STS-006: stop while waiting to type: nothing is typed.
func TestCore_StopDuringStepDelay(t *testing.T) {
	h := newHarness(t, testConfig())
	h.finishTurn()
	for h.c.State() != SendingUpdate {
		h.advance(100 * time.Millisecond)
	}
	h.c.Stop(h.vt.Now, "detached")
	h.perform()
	h.advance(10 * time.Minute)
	h.wantSends()
	h.wantState(Stopped)
	if _, ok := h.c.Deadline(); ok {
		t.Fatal("a stopped core keeps a deadline")
	}
}

// STS-007/008: /clear ends on its SessionStart hook, or on the fallback.
func TestCore_ClearFinishedByHook(t *testing.T) {
	h := newHarness(t, testConfig())
	h.finishTurn()
	for h.c.State() != WaitingClear {
		h.advance(100 * time.Millisecond)
	}
	h.output("\x1b[2J❯ /clear") // the screen redraws, so silence restarts
	h.hook(HookClearFinished)
	h.wantState(SendingInit)
	h.wantDecision("/clear finished (SessionStart hook)")
}

// Working output in any waiting state postpones the next step.
func TestCore_StepWaitsForWork(t *testing.T) {
	h := newHarness(t, testConfig())
	h.finishTurn()
	for h.c.State() != WaitingUpdate {
		h.advance(100 * time.Millisecond)
	}
	h.work(3 * time.Minute) // the update prompt's turn runs three minutes
	h.wantState(WaitingUpdate)
	h.wantSends(fullCycle[0])
	h.finishTurn()
	h.advance(10*time.Second + 500*time.Millisecond)
	h.wantState(SendingClear)
}

// The no-output fallback confirms idle on a silent idle pane (AI off).
func TestCore_NoOutputFallback(t *testing.T) {
	h := newHarness(t, testConfig())
	h.advance(29 * time.Second)
	h.wantSends()
	h.advance(1500 * time.Millisecond)
	h.wantState(SendingUpdate)
	h.wantDecision("no output for 30s")
}

// Nothing is typed into something that is not Claude Code.
func TestCore_NoPromptBoxNoSend(t *testing.T) {
	h := newHarness(t, testConfig())
	h.screen = shellScreen()
	h.output("root@host:~# ")
	h.advance(30 * time.Minute)
	h.wantSends()
	h.wantDecision("no Claude prompt box on screen")
}

// A screen that says working vetoes idle even after long silence.
func TestCore_WorkingScreenVetoes(t *testing.T) {
	h := newHarness(t, testConfig())
	h.screen = workingScreen()
	h.output(chunkText) // streaming text: the spinner row is gone, only the footer says busy
	h.advance(30 * time.Minute)
	h.wantSends()
	h.wantDecision("screen shows Claude working")
}

// Questions and permission prompts are never answered, whatever the timers say.
func TestCore_NeverAnswersDialogs(t *testing.T) {
	for _, tc := range []struct {
		name   string
		screen []string
		hook   HookKind
	}{
		{"QuestionScreen", questionScreen(), 0},
		{"PermissionScreen", permissionScreen(), 0},
		{"QuestionHook", idleScreen(), HookQuestionPending},
		{"PermissionHook", idleScreen(), HookPermissionPrompt},
		{"ElicitationHook", idleScreen(), HookElicitation},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig()
			cfg.AIPlanCheck.Enabled = true
			h := newHarness(t, cfg)
			h.work(5 * time.Second)
			h.screen = tc.screen
			h.output("\x1b[H" + strings.Join(tc.screen, "\r\n"))
			if tc.hook != 0 {
				h.hook(tc.hook)
			}
			h.advance(31 * time.Second) // more than no_output_timeout
			h.wantSends()
			h.wantDecision("a person must answer")
			if tc.hook == 0 {
				h.advance(2 * time.Hour) // every fallback, the stuck watchdog included
				h.wantSends()
			}
		})
	}
}

// A hook-announced dialog is forgotten once the screen shows none for
// no_output_timeout (answered with Esc, which leaves no hook).
func TestCore_HookDialogExpires(t *testing.T) {
	h := newHarness(t, testConfig())
	h.hook(HookPermissionPrompt)
	h.advance(9 * time.Minute)
	h.wantSends()
	h.advance(90 * time.Second)
	h.wantDecision("no longer on screen; forgotten")
	if len(h.sent) == 0 || h.sent[0].what != fullCycle[0] {
		t.Fatalf("sent %v, want the update prompt first", h.sends())
	}
}

// A Stop hook confirms idle after 3s of silence, without an AI check.
func TestCore_StopHook(t *testing.T) {
	cfg := testConfig()
	cfg.AIIdleCheck.Enabled = true
	h := newHarness(t, cfg)
	h.work(10 * time.Second)
	h.finishTurn()
	h.hook(HookStop)
	h.advance(2900 * time.Millisecond)
	h.wantState(ConfirmingIdle)
	h.advance(200 * time.Millisecond)
	h.wantState(SendingUpdate)
	if len(h.checks) != 0 {
		t.Fatalf("an AI check ran after a Stop hook: %v", h.checks)
	}
	h.wantDecision("Stop hook and 3s of silence")
}

// A Stop with a background agent running is not idle.
func TestCore_StopWithBackgroundTask(t *testing.T) {
	h := newHarness(t, testConfig())
	h.work(2 * time.Second)
	h.screen = claudescreen.Of("✻ Waiting for 1 background agent to finish", "", claudescreen.Rule, claudescreen.Prompt, claudescreen.Rule, claudescreen.FooterIdle)
	h.output("✻ Waiting for 1 background agent to finish")
	h.hook(HookStop, func(k *Hook) { k.Background = 1 })
	h.advance(5 * time.Minute)
	h.wantSends()
	h.wantDecision("background")
}

// A Stop hook older than the work that followed it is stale.
func TestCore_StaleStopHook(t *testing.T) {
	h := newHarness(t, testConfig())
	old := h.vt.Now
	h.work(5 * time.Second)
	h.hook(HookStop, func(k *Hook) { k.At = old })
	h.wantDecision("stale")
	h.wantState(Watching)
}

// AIC-001/002: IDLE starts a cycle; WORKING cools down and asks again later.
func TestCore_AIIdleCheck(t *testing.T) {
	cfg := testConfig()
	cfg.AIIdleCheck.Enabled = true
	h := newHarness(t, cfg)
	h.work(20 * time.Second)
	h.screen = idleScreen()
	h.output("● reply without a completion line")
	h.advance(10 * time.Second) // pre-filter
	h.wantState(AIChecking)
	if got := h.checks[0].Check; got.Kind != IdleCheck || !strings.Contains(got.Text, "Churned") || got.Model != DefaultCheckModel {
		t.Fatalf("check request = %+v", got)
	}
	h.answer(CheckResult{Verdict: VerdictWorking, Reason: "spinner"}, nil)
	h.wantState(Watching)
	h.advance(2 * time.Minute)
	if len(h.checks) != 0 {
		t.Fatal("a check ran during the cooldown")
	}
	h.advance(90 * time.Second) // cooldown (3m) over: the pre-filter asks again
	h.wantState(AIChecking)
	h.answer(CheckResult{Verdict: VerdictIdle, Reason: "done"}, nil)
	h.wantState(SendingUpdate)
}

// AIC-003/009/010: errors back off, three disable the checker and the
// no-output fallback decides alone; enabling it again clears that.
func TestCore_AICheckErrors(t *testing.T) {
	cfg := testConfig()
	cfg.AIIdleCheck.Enabled = true
	cfg.NoOutputTimeout = 10 * time.Minute
	h := newHarness(t, cfg)
	h.work(time.Second)
	h.screen = idleScreen()
	h.output("● done")
	boom := errors.New("exit status 1")
	for i := 0; i < 3; i++ {
		for h.c.State() != AIChecking {
			h.advance(time.Second)
		}
		h.answer(CheckResult{}, boom)
		h.wantState(Watching)
	}
	h.wantDecision("disabled after 3 consecutive errors")
	for h.c.State() == Watching {
		h.advance(time.Second)
	}
	h.wantState(SendingUpdate)
	h.wantDecision("no output for 10m0s (AI idle check disabled")

	h.c.SetConfig(h.vt.Now, cfg)
	if off, _ := h.c.idleGate.off(); off {
		t.Fatal("SetConfig with the check enabled did not re-enable it")
	}
}

// A usage limit from the checker pauses checks without counting an error.
func TestCore_AICheckUsageLimit(t *testing.T) {
	cfg := testConfig()
	cfg.AIIdleCheck.Enabled = true
	h := newHarness(t, cfg)
	h.output("● done")
	h.advance(10 * time.Second)
	h.answer(CheckResult{}, &UsageLimitError{Line: "You've hit your limit", ResetAt: h.vt.Now.Add(time.Hour)})
	if h.c.idleGate.errors != 0 {
		t.Fatal("a usage limit counted as a checker error")
	}
	h.wantDecision("checks paused until")
}

// AIC-005/006: work or substantial output cancels a running check; its
// late answer is ignored.
func TestCore_AICheckCancelled(t *testing.T) {
	cfg := testConfig()
	cfg.AIIdleCheck.Enabled = true
	h := newHarness(t, cfg)
	h.output("● done")
	h.advance(10 * time.Second)
	h.wantState(AIChecking)
	h.output(chunkWorking)
	h.wantState(Watching)
	h.answer(CheckResult{Verdict: VerdictIdle}, nil)
	h.wantState(Watching)
	h.wantSends()
}

// Plan approval: Enter after auto_accept_delay when the hook announced it.
func TestCore_PlanAcceptedByHook(t *testing.T) {
	cfg := testConfig()
	cfg.AIPlanCheck.Enabled = true
	h := newHarness(t, cfg)
	h.work(3 * time.Second)
	h.hook(HookPlanApproval, func(k *Hook) { k.Tool = "ExitPlanMode" })
	h.screen = planScreen()
	h.output("\x1b[H" + strings.Join(planScreen(), "\r\n"))
	h.advance(7 * time.Second)
	h.wantSends()
	h.advance(2 * time.Second)
	h.wantSends("press: Enter")
	if len(h.checks) != 0 {
		t.Fatal("a plan check ran although the hook announced the plan")
	}
	h.advance(time.Minute) // no second Enter without new output
	h.wantSends("press: Enter")
}

// APC-001/002/005: without the hook the AI plan check decides.
func TestCore_PlanCheck(t *testing.T) {
	for _, tc := range []struct {
		name    string
		verdict Verdict
		stale   bool
		want    []string
	}{
		{"PlanMode", VerdictPlanMode, false, []string{"press: Enter"}},
		{"NotPlanMode", VerdictNotPlanMode, false, nil},
		{"Stale", VerdictPlanMode, true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig()
			cfg.AIPlanCheck.Enabled = true
			h := newHarness(t, cfg)
			h.screen = planScreen()
			h.output("\x1b[H" + strings.Join(planScreen(), "\r\n"))
			h.advance(8 * time.Second)
			if len(h.checks) != 1 || h.checks[0].Check.Kind != PlanCheck {
				t.Fatalf("checks = %+v", h.checks)
			}
			if tc.stale {
				h.advance(500 * time.Millisecond)
				h.output("x")
			}
			h.answer(CheckResult{Verdict: tc.verdict}, nil)
			h.wantSends(tc.want...)
		})
	}
}

// APC-007: no menu on screen, no check and no Enter.
func TestCore_NoPlanMenuNoAccept(t *testing.T) {
	cfg := testConfig()
	cfg.AIPlanCheck.Enabled = true
	cfg.NoOutputTimeout = time.Hour
	cfg.StuckDetection = false
	h := newHarness(t, cfg)
	h.screen = claudescreen.Of("● Options:", "  1. Yes", "  2. No", "", claudescreen.Rule, claudescreen.Prompt, claudescreen.Rule, claudescreen.FooterBusy)
	h.output("1. Yes\r\n2. No")
	h.advance(30 * time.Second)
	if len(h.checks) != 0 {
		t.Fatal("a plan check ran without a plan menu")
	}
	h.wantSends()
}

// A turn that ended on a usage limit is waited out, then resumed once.
func TestCore_UsageLimitWait(t *testing.T) {
	h := newHarness(t, testConfig())
	h.work(5 * time.Second)
	h.screen = claudescreen.Of("❯ go on", "  ⎿  You've hit your 5-hour limit · resets 8:00pm (UTC)", "", claudescreen.Rule, claudescreen.Prompt, claudescreen.Rule, claudescreen.FooterIdle)
	h.output("You've hit your 5-hour limit · resets 8:00pm (UTC)")
	h.hook(HookTurnFailed, func(k *Hook) { k.Error = "rate_limit" })
	h.advance(90 * time.Minute) // 18:00 -> 19:30, still limited
	h.wantSends()
	h.wantDecision("waiting out usage limit")
	h.advance(31*time.Minute + 10*time.Second) // reset 20:00 + 1m margin
	h.wantSends("submit: continue")
}

// A turn that ended on an API error is not cycled; after the backoff the
// resume prompt is typed once.
func TestCore_APIErrorBackoff(t *testing.T) {
	h := newHarness(t, testConfig())
	h.work(5 * time.Second)
	h.screen = claudescreen.Of("❯ go on", "● API Error: 529 Overloaded (fake).", "", claudescreen.Rule, "❯\u00a0Resend your message to try again", claudescreen.Rule, claudescreen.FooterIdle)
	h.output("● API Error: 529 Overloaded (fake).")
	h.hook(HookTurnFailed, func(k *Hook) { k.Error = "server_error" })
	h.advance(4 * time.Minute)
	h.wantSends()
	h.advance(2 * time.Minute)
	h.wantSends("submit: continue")
}

// ER-002: a failed send is retried, then the cycle is abandoned; the state
// does not advance past a step that was never typed.
func TestCore_SendFailure(t *testing.T) {
	h := newHarness(t, testConfig())
	h.sendErr = errors.New("no such pane")
	h.finishTurn()
	h.advance(20 * time.Second)
	if n := len(h.sent); n != sendRetries {
		t.Fatalf("%d attempts, want %d", n, sendRetries)
	}
	h.wantState(Watching)
	h.wantDecision("cycle 1 abandoned")
}

// Pause stops everything; resume in a sending state types that step.
func TestCore_PauseResume(t *testing.T) {
	h := newHarness(t, testConfig())
	h.finishTurn()
	for h.c.State() != SendingUpdate {
		h.advance(100 * time.Millisecond)
	}
	h.c.Pause(h.vt.Now)
	h.perform()
	h.advance(time.Hour)
	h.wantSends()
	h.c.Resume(h.vt.Now)
	h.perform()
	h.advance(time.Second)
	h.wantSends(fullCycle[0])
	// The hour paused was neither silence nor a lack of progress.
	for _, d := range h.log {
		if strings.Contains(d.Reason, "no progress") || strings.Contains(d.Reason, "no output for") {
			t.Fatalf("the pause counted as silence: %s", d)
		}
	}
}

// The watchdog measures silence without progress: twenty minutes of
// printed work never trips it, and nothing is typed.
func TestCore_LongWorkIsNotStuck(t *testing.T) {
	h := newHarness(t, testConfig())
	h.work(20 * time.Minute)
	h.wantSends()
	for _, d := range h.log {
		if strings.Contains(d.Reason, "stuck") || strings.Contains(d.Reason, "no progress") {
			t.Fatalf("watchdog fired during work: %s", d)
		}
	}
}

// A timed run stops itself.
func TestCore_Duration(t *testing.T) {
	cfg := testConfig()
	cfg.Duration = time.Hour
	cfg.NoOutputTimeout = 2 * time.Hour
	cfg.StuckDetection = false
	h := newHarness(t, cfg)
	h.screen = workingScreen()
	h.advance(61 * time.Minute)
	h.wantState(Stopped)
}

// Every from -> to pair outside the table panics (raft TestStateTransition).
func TestState_Transitions(t *testing.T) {
	for from := Stopped; from < numStates; from++ {
		for to := Stopped; to < numStates; to++ {
			func() {
				defer func() { _ = recover() }()
				c := &Core{state: from}
				c.enterState(time.Now(), to, "test")
				if from != to && !allowed(from, to) {
					t.Errorf("%s -> %s did not panic", from, to)
				}
			}()
		}
	}
	if allowed(Watching, WaitingInit) || !allowed(WaitingUpdate, SendingClear) || !allowed(Stopped, Watching) {
		t.Fatal("transition table is wrong")
	}
}

// Text someone typed into the prompt box is never typed onto.
func TestCore_TypedInputVetoes(t *testing.T) {
	h := newHarness(t, testConfig())
	h.screen = claudescreen.Of("✻ Churned for 3s · done 6:47 PM", "", claudescreen.Rule, "❯\u00a0let me think about th", claudescreen.Rule, "  ⏸ manual mode on")
	h.output("let me think about th")
	h.advance(5 * time.Minute)
	h.wantSends()
	h.wantDecision("the prompt box holds typed text")
}

// In a waiting state, Stop ends the step after the short hook window, but
// only once the step's own turn began; an older idle hook is ignored.
func TestCore_StopEndsStep(t *testing.T) {
	h := newHarness(t, testConfig())
	h.finishTurn()
	for h.c.State() != WaitingUpdate {
		h.advance(100 * time.Millisecond)
	}
	h.hook(HookIdlePrompt) // about the turn before the update prompt
	h.wantDecision("predates the update step's turn")
	h.hook(HookPromptSubmitted)
	h.work(5 * time.Second)
	h.finishTurn()
	h.hook(HookStop)
	h.advance(3100 * time.Millisecond)
	h.wantState(SendingClear)
}
