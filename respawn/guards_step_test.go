package respawn

import (
	"fmt"
	"testing"
	"time"
)

// blocker is something on the pane that no step may be typed into.
type blocker struct {
	name   string
	appear func(h *harness)
	why    string // the reason the veto gives
	dialog bool   // a person must answer
}

func blockers() []blocker {
	hook := func(k HookKind) func(*harness) { return func(h *harness) { h.hook(k) } }
	draw := func(s func() []string) func(*harness) { return func(h *harness) { h.draw(s()) } }
	return []blocker{
		{"question", draw(questionScreen), "a person must answer: question", true},
		{"permission", draw(permissionScreen), "a person must answer: permission prompt", true},
		{"menu", draw(menuScreen), "a person must answer: dialog", true},
		{"question_hook", hook(HookQuestionPending), "a person must answer: AskUserQuestion pending (hook)", true},
		{"permission_hook", hook(HookPermissionPrompt), "a person must answer: permission prompt pending (hook)", true},
		{"elicitation_hook", hook(HookElicitation), "a person must answer: elicitation dialog pending (hook)", true},
		{"typed_text", draw(typedScreen), "the prompt box holds typed text", false},
		{"claude_exited", draw(shellScreen), "no Claude prompt box on screen", false},
	}
}

// A blocker that appears just before a step is typed holds the step for as
// long as it stays (up to hookDialogExpiry for a hook with the prompt box on
// screen), and the veto names it.
func TestGuard_BlockerBeforeStep(t *testing.T) {
	for _, s := range []State{SendingUpdate, SendingClear, SendingInit, SendingKickstart} {
		for _, b := range blockers() {
			t.Run(string(stepOf(s))+"/"+b.name, func(t *testing.T) {
				h := cycleUntil(t, testConfig(), s)
				typed := len(h.sent)
				b.appear(h)
				h.advance(hookDialogExpiry - time.Minute)
				if len(h.sent) != typed {
					t.Fatalf("typed %v into a pane showing %s\n%s", h.sends()[typed:], b.name, h.dump())
				}
				h.wantState(s)
				h.wantDecision(fmt.Sprintf("%s not typed: %s", stepOf(s), b.why))
			})
		}
	}
}

// A blocker that appears while a step's turn runs holds the next step; a
// dialog keeps the cycle waiting in that state (after /clear, whose
// fallback goes on, the next step waits to be typed).
func TestGuard_BlockerAfterStep(t *testing.T) {
	for _, s := range []State{WaitingUpdate, WaitingClear, WaitingInit, WaitingKickstart} {
		for _, b := range blockers() {
			t.Run(string(stepOf(s))+"/"+b.name, func(t *testing.T) {
				h := cycleUntil(t, testConfig(), s)
				typed := len(h.sent)
				b.appear(h)
				h.advance(hookDialogExpiry - time.Minute)
				if len(h.sent) != typed {
					t.Fatalf("typed %v into a pane showing %s\n%s", h.sends()[typed:], b.name, h.dump())
				}
				if !b.dialog {
					return
				}
				want := s
				if s == WaitingClear {
					want = SendingInit
				}
				h.wantState(want)
			})
		}
	}
}

// Work that starts before a step is typed abandons the cycle at once: the
// turn it belongs to gets its own end.
func TestGuard_WorkBeforeStep(t *testing.T) {
	for _, s := range []State{SendingUpdate, SendingClear, SendingInit, SendingKickstart} {
		t.Run(string(stepOf(s)), func(t *testing.T) {
			h := cycleUntil(t, testConfig(), s)
			h.hook(HookPromptSubmitted)
			h.wantDecision(fmt.Sprintf("prompt submitted (hook) before %s was typed; cycle 1 abandoned", stepOf(s)))
		})
	}
}

// Work while a step's turn runs keeps the cycle from going on until
// completion_confirm after the last of it, in every waiting state.
func TestGuard_WorkAfterStep(t *testing.T) {
	for _, s := range []State{WaitingUpdate, WaitingClear, WaitingInit, MonitoringInit, WaitingKickstart} {
		t.Run(s.String(), func(t *testing.T) {
			h := cycleUntil(t, testConfig(), s)
			typed := len(h.sent)
			h.work(3 * time.Minute)
			worked := h.vt.Now
			h.finishTurn()
			h.advance(time.Minute)
			for _, x := range h.sent[typed:] {
				if at := h.start.Add(x.at); at.Sub(worked) < h.c.cfg.CompletionConfirm {
					t.Fatalf("%q typed at %s, %s after work\n%s", x.what, x.at, at.Sub(worked), h.dump())
				}
			}
		})
	}
}

// A send in flight is not typed a second time, even when the step's timer
// is armed again (here by pause and resume).
func TestGuard_StepNotTypedTwice(t *testing.T) {
	h := newHarness(t, testConfig())
	h.holdSends = true
	h.finishTurn()
	h.untilState(SendingUpdate)
	h.advance(2 * time.Second)
	h.wantSends(fullCycle[0])
	h.c.Pause(h.vt.Now)
	h.c.Resume(h.vt.Now)
	h.perform()
	h.advance(10 * time.Second)
	h.wantSends(fullCycle[0])
	h.finishSend(nil)
	h.wantState(WaitingUpdate)
}

// The screen read just before a step shows Claude working, though no
// output said so since the step was decided: the cycle is abandoned.
// Here /clear's fallback moves on while a frozen screen shows work.
func TestGuard_StepWorkingScreen(t *testing.T) {
	cfg := testConfig()
	cfg.CompletionConfirm = 5 * time.Second
	h := cycleUntil(t, cfg, WaitingClear)
	h.screen = workingScreen()
	h.output(chunkText)
	h.advance(time.Minute)
	h.wantSends(fullCycle[:2]...)
	h.wantDecision("screen shows Claude working before init was typed; cycle 1 abandoned")
}

// No step is typed within completion_confirm of work, even when the screen
// read just before shows none. Here a spinner frame came two seconds before
// /clear's fallback.
func TestGuard_StepWaitsOutWork(t *testing.T) {
	h := cycleUntil(t, testConfig(), WaitingClear)
	h.advance(8 * time.Second)
	h.output(chunkWorking) // the screen stays idle
	worked := h.vt.Now
	h.advance(time.Minute)
	h.wantSends(fullCycle...)
	if at := h.start.Add(h.sent[2].at); at.Sub(worked) < h.c.cfg.CompletionConfirm {
		t.Fatalf("/init typed %s after work\n%s", at.Sub(worked), h.dump())
	}
}

// Work a hook reports while a step's turn runs moves the step's end to
// completion_confirm after it, though no output came.
func TestGuard_WorkDelaysStepEnd(t *testing.T) {
	h := cycleUntil(t, testConfig(), WaitingUpdate)
	h.advance(8 * time.Second)
	h.hook(HookToolStarted, func(k *Hook) { k.Tool = "Bash" })
	h.advance(9 * time.Second)
	h.wantState(WaitingUpdate)
	h.advance(1100 * time.Millisecond)
	h.wantState(SendingClear)
}

// A screen that shows the step's turn still running holds the step's end
// though the pane went silent; the cycle goes on once the turn ends.
func TestGuard_StepEndWaitsForWorkingScreen(t *testing.T) {
	h := cycleUntil(t, testConfig(), WaitingUpdate)
	h.screen = workingScreen()
	h.output(chunkText)
	h.advance(2 * time.Minute)
	h.wantState(WaitingUpdate)
	h.wantDecision("update still running: screen shows Claude working")
	h.finishTurn()
	h.untilState(SendingClear)
}

// A step ends only after completion_confirm of silence, checked again when
// a screen asked for earlier arrives after new output.
func TestGuard_StepEndWaitsForSilence(t *testing.T) {
	h := cycleUntil(t, testConfig(), WaitingUpdate)
	h.output(chunkText)
	h.holdScreens = true
	h.advance(10 * time.Second) // the step's silence is over: a screen is asked for
	if h.snapshots != 1 {
		t.Fatalf("%d snapshots asked for, want 1\n%s", h.snapshots, h.dump())
	}
	h.advance(100 * time.Millisecond)
	h.output(chunkText) // output before the screen arrives
	h.advance(100 * time.Millisecond)
	h.deliverScreens()
	h.wantState(WaitingUpdate)
}
