package respawn

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sendGuard is one condition of the send path that holds, abandons or
// vetoes something the controller would type (a cycle step, the resume
// prompt, the Enter of a plan approval) or a decision that leads to it
// (confirming idle). Test is the guard's own test: it fails when the guard
// alone is removed, which internal/tool/mutation checks by replacing Old
// with New inside Find (a snippet found exactly once in File).
type sendGuard struct {
	Guard string
	Test  string
	File  string
	Find  string
	Old   string
	New   string
}

// sendGuards lists every guard of the send path whose removal alone
// changes what the controller does or says. (A condition that only
// repeats another, so that no test can tell it missing, is left out.)
var sendGuards = []sendGuard{
	{Guard: "step: a send in flight is not typed again", Test: "TestGuard_StepNotTypedTwice",
		File: "respawn/core_cycle.go", Find: "if !c.state.sending() || c.sendID != 0 {", Old: " || c.sendID != 0", New: ""},
	{Guard: "step: the screen is read again just before a step", Test: "TestGuard_BlockerBeforeStep/update/question",
		File: "respawn/core_cycle.go", Find: "if c.needScreen(tStepDelay) {", Old: "c.needScreen(tStepDelay)", New: "false"},
	{Guard: "step: the screen shows Claude working just before a step", Test: "TestGuard_StepWorkingScreen",
		File: "respawn/core_cycle.go", Find: "if c.facts.Working {\n\t\tc.enterState(now, Watching, fmt.Sprintf(\"screen shows %s working before", Old: "c.facts.Working", New: "false"},
	{Guard: "step: completion_confirm after the last work", Test: "TestGuard_StepWaitsOutWork",
		File: "respawn/core_cycle.go", Find: "if quiet := now.Sub(c.lastWorking); quiet < c.cfg.CompletionConfirm {", Old: "quiet < c.cfg.CompletionConfirm", New: "quiet < 0"},
	{Guard: "step: a person must answer just before a step", Test: "TestGuard_BlockerBeforeStep/clear/question_hook",
		File: "respawn/core_cycle.go", Find: "reason := c.blocker(now)", Old: "c.blocker(now)", New: "\"\""},
	{Guard: "step: no prompt box just before a step", Test: "TestGuard_BlockerBeforeStep/init/claude_exited",
		File: "respawn/core_cycle.go", Find: "case !c.facts.PromptBox:", Old: "!c.facts.PromptBox", New: "false"},
	{Guard: "step: typed text in the prompt box just before a step", Test: "TestGuard_BlockerBeforeStep/kickstart/typed_text",
		File: "respawn/core_cycle.go", Find: "case c.facts.Input != \"\":", Old: "c.facts.Input != \"\"", New: "false"},
	{Guard: "step: work before a step abandons the cycle", Test: "TestGuard_WorkBeforeStep/update",
		File: "respawn/core_input.go", Find: "case c.state.sending() && c.sendID == 0:", Old: "c.state.sending() && c.sendID == 0", New: "false"},
	{Guard: "step: a failed send does not count as typed", Test: "TestCore_SendFailure",
		File: "respawn/core_cycle.go", Find: "if err != nil {\n\t\tc.sendAttempts++", Old: "err != nil", New: "false"},

	{Guard: "step end: work a hook reports moves the step's end", Test: "TestGuard_WorkDelaysStepEnd",
		File: "respawn/core.go", Find: "from := latest(latest(c.silenceBase(), c.stateAt), latest(c.lastWorking, c.hooks.stopAt))", Old: "c.lastWorking", New: "c.stateAt"},
	{Guard: "step end: silence since the last output", Test: "TestGuard_StepEndWaitsForSilence",
		File: "respawn/core.go", Find: "from := latest(latest(c.silenceBase(), c.stateAt), latest(c.lastWorking, c.hooks.stopAt))", Old: "c.silenceBase()", New: "c.quietFrom"},
	{Guard: "silence: output that changed the screen outside its footer ends the silence", Test: "TestGuard_RedrawIsNoSilence",
		File: "respawn/core_input.go", Find: "changed := f == 0 || f != c.content", Old: "f == 0 || f != c.content", New: "false"},
	{Guard: "silence: no_output_timeout is checked again once a screen moved the silence", Test: "TestGuard_SilenceCountsFromLastOutput",
		File: "respawn/core_idle.go", Find: "if at := c.silenceBase().Add(c.cfg.NoOutputTimeout); now.Before(at) {", Old: "now.Before(at)", New: "false"},
	{Guard: "silence: the pre-filter is checked again once a screen moved the silence", Test: "TestGuard_PreFilterRecheckedAfterScreen",
		File: "respawn/core_idle.go", Find: "if at := c.lastChange.Add(confirm); now.Before(at) {", Old: "now.Before(at)", New: "false"},
	{Guard: "pause: no decision is taken while paused, not even one a screen was awaited for", Test: "TestGuard_PauseWhileScreenInFlight",
		File: "respawn/core.go", Find: "if c.paused && t != tDuration {", Old: "c.paused && t != tDuration", New: "false"},
	{Guard: "pause: /clear finished while paused does not move the cycle on", Test: "TestGuard_Pause/clear_finished",
		File: "respawn/core_input.go", Find: "if c.state == WaitingClear && !c.paused {", Old: " && !c.paused", New: ""},
	{Guard: "pause: work while paused leaves the state", Test: "TestGuard_Pause/work_before_step",
		File: "respawn/core_input.go", Find: "if c.paused {\n\t\treturn // the state waits for the resume", Old: "c.paused", New: "false"},
	{Guard: "pause: a send the pause stopped is no failed attempt", Test: "TestGuard_PauseCancelsSend",
		File: "respawn/core_cycle.go", Find: "if err != nil && c.paused {", Old: "err != nil && c.paused", New: "false"},
	{Guard: "step end: a Stop hook while the step was typed counts once its turn began", Test: "TestCore_StopWhileTyping",
		File: "respawn/core_cycle.go", Find: "if !c.stepTurnBegan() || !c.hooks.stopAt.After(c.stepSentAt) {", Old: "!c.stepTurnBegan() || !c.hooks.stopAt.After(c.stepSentAt)", New: "true"},
	{Guard: "step end: /clear's hook that came before its Enter was confirmed", Test: "TestCore_ClearHookBeforeEnterConfirmed",
		File: "respawn/core_cycle.go", Find: "if c.state == WaitingClear && !c.paused && c.hooks.clearAt.After(c.stepSentAt) {", Old: "c.hooks.clearAt.After(c.stepSentAt)", New: "false"},
	{Guard: "step: only output right after a step ended is taken as its last frames", Test: "TestGuard_ControllerFeedsBeforeTimer",
		File: "respawn/core_input.go", Find: "now.Sub(c.stepEndedAt) < stepSettle && !byHook:", Old: "now.Sub(c.stepEndedAt) < stepSettle", New: "true"},
	{Guard: "step: work a hook reports right after a step ended abandons the cycle", Test: "TestCore_LateFramesAfterStep/prompt_hook",
		File: "respawn/core_input.go", Find: "now.Sub(c.stepEndedAt) < stepSettle && !byHook:", Old: " && !byHook", New: ""},
	{Guard: "submit: a cancel at or after an Enter counts as sent", Test: "TestGuard_SubmitCancelAfterEnter",
		File: "respawn/submit.go", Find: "changed, err := waitForChange(ctx, k, before, t, clock)\n\t\tif ctx.Err() != nil {", Old: "ctx.Err() != nil", New: "false"},
	{Guard: "exit: nothing is typed after the agent's SessionEnd hook", Test: "TestGuard_ExitedAgent",
		File: "respawn/core_idle.go", Find: "if c.hooks.exited != \"\" {", Old: "c.hooks.exited != \"\"", New: "false"},
	{Guard: "exit: a send refused because the pane does not run the agent abandons the cycle", Test: "TestGuard_NotAgentRefusal",
		File: "respawn/core_cycle.go", Find: "if errors.Is(err, ErrNotAgent) {", Old: "errors.Is(err, ErrNotAgent)", New: "errors.Is(err, ErrNotAgent) && false"},
	{Guard: "exit: after a refusal idle waits until the pane shows something", Test: "TestGuard_NotAgentRefusal",
		File: "respawn/core_idle.go", Find: "case c.notAgent != \"\":", Old: "c.notAgent != \"\"", New: "false"},
	{Guard: "step end: the screen shows the step's turn running", Test: "TestGuard_StepEndWaitsForWorkingScreen",
		File: "respawn/core_cycle.go", Find: "if c.facts.Working {\n\t\tc.veto(now, fmt.Sprintf(\"%s still running", Old: "c.facts.Working", New: "false"},
	{Guard: "step end: a person must answer", Test: "TestGuard_BlockerAfterStep/update/question_hook",
		File: "respawn/core_cycle.go", Find: "if b := c.blocker(now); b != \"\" {", Old: "c.blocker(now)", New: "\"\""},
	{Guard: "step end: a Stop hook older than the step's turn", Test: "TestCore_StopEndsStep",
		File: "respawn/core_input.go", Find: "if !c.stepTurnBegan() {", Old: "!c.stepTurnBegan()", New: "false"},

	{Guard: "blocker: a question, permission prompt or dialog on screen", Test: "TestGuard_BlockerBeforeStep/update/question",
		File: "respawn/core_idle.go", Find: "if b := c.facts.Blocker(); b != \"\" {", Old: "c.facts.Blocker()", New: "\"\""},
	{Guard: "blocker: AskUserQuestion announced by a hook", Test: "TestGuard_BlockerBeforeStep/update/question_hook",
		File: "respawn/core_idle.go", Find: "{&c.hooks.question, \"AskUserQuestion pending (hook)\"},", Old: "{&c.hooks.question, \"AskUserQuestion pending (hook)\"},", New: ""},
	{Guard: "blocker: a permission prompt announced by a hook", Test: "TestGuard_BlockerBeforeStep/update/permission_hook",
		File: "respawn/core_idle.go", Find: "{&c.hooks.permission, \"permission prompt pending (hook)\"},", Old: "{&c.hooks.permission, \"permission prompt pending (hook)\"},", New: ""},
	{Guard: "blocker: an elicitation announced by a hook", Test: "TestGuard_BlockerBeforeStep/update/elicitation_hook",
		File: "respawn/core_idle.go", Find: "{&c.hooks.elicitation, \"elicitation dialog pending (hook)\"},", Old: "{&c.hooks.elicitation, \"elicitation dialog pending (hook)\"},", New: ""},
	{Guard: "blocker: a hook dialog holds for hookDialogExpiry", Test: "TestGuard_BlockerBeforeStep/clear/permission_hook",
		File: "respawn/core_idle.go", Find: "now.Sub(since) >= hookDialogExpiry", Old: "now.Sub(since) >= hookDialogExpiry", New: "true"},
	{Guard: "blocker: a hook dialog holds while the screen shows no prompt box", Test: "TestGuard_HookDialogNeedsPromptBox",
		File: "respawn/core_idle.go", Find: "if !c.screenFresh() || !c.facts.PromptBox || c.facts.Blocker() != \"\" {", Old: "|| !c.facts.PromptBox ", New: ""},
	{Guard: "blocker: a hook dialog counts as answered only once a screen showed it", Test: "TestGuard_BlockerBeforeStep/init/permission_hook",
		File: "respawn/core_idle.go", Find: "!c.hooks.dialogSeen.Before(since)", Old: "!c.hooks.dialogSeen.Before(since)", New: "true"},

	{Guard: "idle: the screen shows Claude working", Test: "TestGuard_IdleVeto/working_screen",
		File: "respawn/core_idle.go", Find: "case f.Working:", Old: "f.Working", New: "false"},
	{Guard: "idle: a person must answer", Test: "TestGuard_IdleVeto/question_hook",
		File: "respawn/core_idle.go", Find: "if b := c.blocker(now); b != \"\" {\n\t\treturn b", Old: "c.blocker(now)", New: "\"\""},
	{Guard: "idle: a plan approval menu on screen", Test: "TestGuard_IdleVeto/plan_menu",
		File: "respawn/core_idle.go", Find: "case f.PlanMenu:", Old: "f.PlanMenu", New: "false"},
	{Guard: "idle: background agents on screen", Test: "TestGuard_IdleVeto/background_screen",
		File: "respawn/core_idle.go", Find: "case f.BackgroundWait > 0:", Old: "f.BackgroundWait > 0", New: "false"},
	{Guard: "idle: background tasks reported by the Stop hook", Test: "TestGuard_IdleVeto/background_hook",
		File: "respawn/core_idle.go", Find: "case c.hooks.background > 0:", Old: "c.hooks.background > 0", New: "false"},
	{Guard: "idle: no prompt box", Test: "TestGuard_IdleVeto/claude_exited",
		File: "respawn/core_idle.go", Find: "case !f.PromptBox:", Old: "!f.PromptBox", New: "false"},
	{Guard: "idle: typed text in the prompt box", Test: "TestGuard_IdleVeto/typed_text",
		File: "respawn/core_idle.go", Find: "case f.Input != \"\":", Old: "f.Input != \"\"", New: "false"},
	{Guard: "idle: nothing vetoes when idle is confirmed", Test: "TestGuard_IdleVeto/question",
		File: "respawn/core_idle.go", Find: "if reason := c.idleVeto(now); reason != \"\" {\n\t\tc.vetoIdle(now, reason)\n\t\treturn\n\t}\n\tif c.startWaitIfLimited(now) {\n\t\treturn\n\t}\n\tif c.wait.active()", Old: "reason != \"\"", New: "false"},
	{Guard: "idle: the screen is read again when idle is confirmed", Test: "TestGuard_IdleRereadsScreen",
		File: "respawn/core_idle.go", Find: "func (c *Core) confirmIdle(now time.Time, t timer, why string) {\n\tif c.needScreen(t) {", Old: "c.needScreen(t)", New: "false"},
	{Guard: "idle: silence after a completion line, counted from the last output", Test: "TestGuard_ConfirmationWaitsForSilence",
		File: "respawn/core.go", Find: "func (c *Core) completionConfirmAt() time.Time {\n\treturn c.silenceBase().Add(c.cfg.CompletionConfirm)", Old: "c.silenceBase()", New: "c.quietFrom"},
	{Guard: "idle: silence after a Stop hook, counted from the last output", Test: "TestGuard_HookConfirmationWaitsForSilence",
		File: "respawn/core.go", Find: "return latest(c.silenceBase(), c.hooks.stopAt).Add(c.hookSilence())", Old: "c.silenceBase()", New: "c.quietFrom"},
	{Guard: "idle: work cancels a confirmation", Test: "TestGuard_WorkCancelsConfirmation",
		File: "respawn/core_input.go", Find: "case c.state == ConfirmingIdle:", Old: "c.state == ConfirmingIdle", New: "false"},
	{Guard: "idle: a Stop hook older than the latest work", Test: "TestCore_StaleStopHook",
		File: "respawn/core_input.go", Find: "if (h.Kind == HookStop || h.Kind == HookIdlePrompt) && c.lastWorking.After(h.At) {", Old: "c.lastWorking.After(h.At)", New: "false"},

	{Guard: "AI check: the screen is read again before a check", Test: "TestGuard_NoCheckOnQuestion",
		File: "respawn/core_idle.go", Find: "c.t.arm(tPreFilter, c.idleGate.until)\n\t\treturn\n\t}\n\tif c.needScreen(t) {", Old: "c.needScreen(t)", New: "false"},
	{Guard: "AI check: not asked while something vetoes idle", Test: "TestGuard_NoCheckOnQuestion",
		File: "respawn/core_idle.go", Find: "if reason := c.idleVeto(now); reason != \"\" {\n\t\tc.vetoIdle(now, reason)\n\t\treturn\n\t}\n\tif c.startWaitIfLimited(now) {\n\t\treturn // the screen or a hook", Old: "reason != \"\"", New: "false"},
	{Guard: "AI check: not asked while a limit is waited out", Test: "TestCore_NoAIChecksWhileWaiting",
		File: "respawn/core_idle.go", Find: "if c.wait.active() {\n\t\t// The wait decides when the pane goes on", Old: "c.wait.active()", New: "false"},
	{Guard: "AI check: work cancels a running check", Test: "TestGuard_WorkCancelsCheck",
		File: "respawn/core_input.go", Find: "case c.state == AIChecking:", Old: "c.state == AIChecking", New: "false"},
	{Guard: "AI check: output cancels a running check", Test: "TestGuard_OutputCancelsCheck",
		File: "respawn/core_input.go", Find: "if c.state == AIChecking {\n\t\tc.cancelIdleCheck()", Old: "c.state == AIChecking", New: "false"},
	{Guard: "AI check: an IDLE verdict on a screen that changed since", Test: "TestGuard_VerdictOnChangedScreen",
		File: "respawn/core_idle.go", Find: "if !c.screenFresh() {\n\t\tc.enterState(now, Watching, \"AI check says IDLE but", Old: "!c.screenFresh()", New: "false"},
	{Guard: "AI check: a WORKING verdict", Test: "TestGuard_Verdict/working",
		File: "respawn/core_idle.go", Find: "if res.Verdict == VerdictWorking {", Old: "res.Verdict == VerdictWorking", New: "false"},
	{Guard: "AI check: a verdict that is neither IDLE nor WORKING", Test: "TestGuard_Verdict/unknown",
		File: "respawn/core_idle.go", Find: "if err == nil && res.Verdict != VerdictIdle && res.Verdict != VerdictWorking {", Old: "err == nil && ", New: "false && "},
	{Guard: "AI check: a check that failed", Test: "TestGuard_Verdict/error",
		File: "respawn/core_idle.go", Find: "if err != nil {\n\t\treason := c.checkFailed(now, &c.idleGate, err)", Old: "err != nil", New: "false"},

	{Guard: "limit: a turn that ended on a limit or an error is waited out", Test: "TestGuard_LimitWaitedOut/usage_limit_screen",
		File: "respawn/core_idle.go", Find: "if c.startWaitIfLimited(now) {\n\t\treturn\n\t}\n\tif c.wait.active()", Old: "c.startWaitIfLimited(now)", New: "false"},
	{Guard: "limit: no cycle while a wait runs", Test: "TestGuard_LimitWaitedOut/api_error_screen",
		File: "respawn/core_idle.go", Find: "if c.wait.active() {\n\t\tc.vetoIdle(now, c.wait.describe())", Old: "c.wait.active()", New: "false"},
	{Guard: "limit: usage-limit text of a turn that ended with a Stop hook", Test: "TestGuard_QuotedLimit/stop",
		File: "respawn/core_wait.go", Find: "&& !c.limitQuoted(now) {", Old: "!c.limitQuoted(now)", New: "true"},
	{Guard: "limit: a Stop hook older than the failed turn's hook", Test: "TestGuard_QuotedLimit/stop_then_failure",
		File: "respawn/core_input.go", Find: "|| !c.hooks.stoppedAt.After(c.hooks.turnFailedAt) {", Old: "|| !c.hooks.stoppedAt.After(c.hooks.turnFailedAt)", New: "|| false"},
	{Guard: "limit: a limit row that is not Claude Code's own", Test: "TestGuard_OwnLimitRows/reply_row",
		File: "agents/claude/screenfacts.go", Find: "if !c.ownLimitRow(h) {", Old: "!c.ownLimitRow(h)", New: "false"},
	{Guard: "limit: a usage-limit line on screen", Test: "TestGuard_LimitWaitedOut/usage_limit_screen",
		File: "respawn/core_wait.go", Find: "if line := c.facts.UsageLimit; line != \"\" && line != c.wait.waited && !c.limitQuoted(now) {", Old: "line != \"\" && ", New: "false && "},
	{Guard: "limit: an API error line on screen", Test: "TestGuard_LimitWaitedOut/api_error_screen",
		File: "respawn/core_wait.go", Find: "if line := c.facts.APIError; failed || (line != \"\" && line != c.wait.waited) {", Old: "(line != \"\" && line != c.wait.waited)", New: "false"},
	{Guard: "limit: a failed turn reported by the StopFailure hook", Test: "TestGuard_LimitWaitedOut/failed_turn_hook",
		File: "respawn/core_wait.go", Find: "failed := c.hooks.turnFailedAt.After(c.hooks.promptAt) && c.hooks.turnFailedAt.After(c.stepSentAt)", Old: "c.hooks.turnFailedAt.After(c.hooks.promptAt) && c.hooks.turnFailedAt.After(c.stepSentAt)", New: "false"},
	{Guard: "limit: the failed turn's hook names the reset time the screen does not", Test: "TestCore_LimitResetFromHook",
		File: "respawn/core_wait.go", Find: "fromHook := reset.IsZero() && !hook.ResetAt.IsZero()", Old: "!hook.ResetAt.IsZero()", New: "false"},
	{Guard: "limit: a usage limit the failed turn's hook reports and the screen does not show", Test: "TestCore_LimitFromHookAlone",
		File: "respawn/core_wait.go", Find: "if hookLimit {\n\t\t// The failed turn's hook names", Old: "hookLimit", New: "false"},
	{Guard: "limit: the hook's usage limit only for a turn failed since the last prompt", Test: "TestCore_LimitResetFromHook",
		File: "respawn/core_wait.go", Find: "hookLimit = hookLimit && failed", Old: " && failed", New: ""},
	{Guard: "limit: a resume prompt that met a limit without reset time again is news", Test: "TestCore_LimitWithoutResetBacksOff",
		File: "respawn/core_wait.go", Find: "if c.wait.resumed && c.wait.fallback > 0 && c.facts.UsageLimit == c.wait.waited {", Old: "c.wait.resumed && c.wait.fallback > 0 && c.facts.UsageLimit == c.wait.waited", New: "false"},
	{Guard: "limit: a limit without reset time waits longer after each resume that met it", Test: "TestCore_LimitWithoutResetBacksOff",
		File: "respawn/core_wait.go", Find: "for i := 0; i < w.retries && i < 8; i++ {", Old: "i < w.retries && ", New: "false && "},
	{Guard: "limit: the wait for a limit without reset time is bounded", Test: "TestCore_LimitWithoutResetBacksOff",
		File: "respawn/core_wait.go", Find: "return min(d, usageLimitFallbackMax)", Old: "min(d, usageLimitFallbackMax)", New: "d"},
	{Guard: "limit: a turn without a limit forgets the resumes that met one", Test: "TestCore_LimitBackoffForgotten",
		File: "respawn/core_wait.go", Find: "if c.facts.UsageLimit == \"\" && !hookLimit {", Old: "c.facts.UsageLimit == \"\" && !hookLimit", New: "false"},

	{Guard: "resume: work after a wait began ends it", Test: "TestCore_ContinuedBeforeWaitEnds",
		File: "respawn/core_wait.go", Find: "if !c.wait.active() || !at.After(c.wait.since) {", Old: "!c.wait.active() || !at.After(c.wait.since)", New: "true"},
	{Guard: "resume: a Stop hook after a wait began", Test: "TestCore_ContinuedBeforeWaitEnds/stop_hook",
		File: "respawn/core_input.go", Find: "c.continuedByItself(now, h.At, \"Stop hook\")", Old: "c.continuedByItself(now, h.At, \"Stop hook\")", New: ""},
	{Guard: "resume: a prompt submitted after a wait began", Test: "TestCore_ContinuedBeforeWaitEnds/prompt_hook",
		File: "respawn/core_input.go", Find: "c.continuedByItself(now, h.At, \"prompt submitted (hook \"+h.Event+\")\")", Old: "c.continuedByItself(now, h.At, \"prompt submitted (hook \"+h.Event+\")\")", New: ""},
	{Guard: "resume: a tool started after a wait began", Test: "TestCore_ContinuedBeforeWaitEnds/tool_hook",
		File: "respawn/core_input.go", Find: "c.continuedByItself(now, h.At, \"tool \"+h.Tool+\" started (hook)\")", Old: "c.continuedByItself(now, h.At, \"tool \"+h.Tool+\" started (hook)\")", New: ""},
	{Guard: "resume: Claude Code's own continue on screen", Test: "TestCore_ContinuedBeforeWaitEnds/fired_notice_on_screen",
		File: "respawn/core_input.go", Find: "if c.facts.AutoContinue == AutoContinueFired && c.wait.kind == waitUsageLimit {", Old: "c.facts.AutoContinue == AutoContinueFired && c.wait.kind == waitUsageLimit", New: "false"},
	{Guard: "resume: the limit left the latest turn", Test: "TestCore_ContinuedBeforeWaitEnds/prompt_echo_no_hooks",
		File: "respawn/core_wait.go", Find: "case kind == waitUsageLimit && c.facts.UsageLimit == \"\" && c.facts.PromptBox:", Old: "kind == waitUsageLimit && c.facts.UsageLimit == \"\" && c.facts.PromptBox", New: "false"},
	{Guard: "resume: Claude Code's own continue is armed", Test: "TestCore_AutoContinueArmedLeftToClaude",
		File: "respawn/core_wait.go", Find: "if kind == waitUsageLimit && c.facts.AutoContinue == AutoContinueArmed {", Old: "kind == waitUsageLimit && c.facts.AutoContinue == AutoContinueArmed", New: "false"},
	{Guard: "resume: left to Claude Code's own continue until autoContinueGrace after the reset", Test: "TestCore_AutoContinueArmedLeftToClaude/screen_only",
		File: "respawn/core_wait.go", Find: "if grace := latest(c.wait.resetAt, c.wait.since).Add(autoContinueGrace); now.Before(grace) {", Old: "now.Before(grace)", New: "grace.IsZero()"},
	{Guard: "resume: the screen is read again at the end of a wait", Test: "TestGuard_Resume/question_drawn",
		File: "respawn/core_wait.go", Find: "if c.needScreen(tResume) {", Old: "c.needScreen(tResume)", New: "false"},
	{Guard: "resume: a person must answer", Test: "TestGuard_Resume/question_hook",
		File: "respawn/core_wait.go", Find: "case c.blocker(now) != \"\":", Old: "c.blocker(now) != \"\"", New: "false"},
	{Guard: "resume: completion_confirm after the last work", Test: "TestGuard_ResumeWaitsOutWork",
		File: "respawn/core_wait.go", Find: "case now.Sub(c.lastWorking) < c.cfg.CompletionConfirm:", Old: "now.Sub(c.lastWorking) < c.cfg.CompletionConfirm", New: "false"},
	{Guard: "resume: a new usage limit on screen", Test: "TestGuard_ResumeNewLimit",
		File: "respawn/core_wait.go", Find: "ok && kind == \"usage limit\" && ul.Line != c.wait.line && ul.ResetAt.After(now) {", Old: "ul.Line != c.wait.line", New: "false"},
	{Guard: "resume: the limit still in the latest turn with its reset ahead", Test: "TestCore_LimitStillAheadWaitsAgain",
		File: "respawn/core_wait.go", Find: "kind == waitUsageLimit && c.facts.UsageLimit != \"\" && now.Before(reset.Add(c.cfg.UsageLimitMargin)) {", Old: "now.Before(reset.Add(c.cfg.UsageLimitMargin))", New: "false"},
	{Guard: "resume: a failed-turn hook that came during the wait names the reset", Test: "TestCore_LimitStillAheadWaitsAgain",
		File: "respawn/core_wait.go", Find: "if line == \"\" && !c.hooks.turnFailedAt.IsZero() {", Old: "!c.hooks.turnFailedAt.IsZero()", New: "false"},
	{Guard: "resume: a failed-turn hook during the wait is the limit waited out", Test: "TestCore_LimitStillAheadWaitsAgain",
		File: "respawn/core_wait.go", Find: "not news for the next idle.\n\tc.hooks.turnFailedAt = time.Time{}", Old: "c.hooks.turnFailedAt = time.Time{}", New: ""},
	{Guard: "resume: no resume prompt configured", Test: "TestGuard_Resume/resume_prompt_off",
		File: "respawn/core_wait.go", Find: "if c.cfg.ResumePrompt == \"\" || c.state != Watching || !c.facts.PromptBox || c.facts.Input != \"\" {", Old: "c.cfg.ResumePrompt == \"\" || ", New: ""},
	{Guard: "resume: a confirmation, a check or a cycle runs", Test: "TestGuard_ResumeNotDuringConfirmation",
		File: "respawn/core_wait.go", Find: "if c.cfg.ResumePrompt == \"\" || c.state != Watching || !c.facts.PromptBox || c.facts.Input != \"\" {", Old: "c.state != Watching || ", New: ""},
	{Guard: "resume: no prompt box", Test: "TestGuard_Resume/claude_exited",
		File: "respawn/core_wait.go", Find: "if c.cfg.ResumePrompt == \"\" || c.state != Watching || !c.facts.PromptBox || c.facts.Input != \"\" {", Old: "!c.facts.PromptBox || ", New: ""},
	{Guard: "resume: typed text in the prompt box", Test: "TestGuard_Resume/typed_text",
		File: "respawn/core_wait.go", Find: "if c.cfg.ResumePrompt == \"\" || c.state != Watching || !c.facts.PromptBox || c.facts.Input != \"\" {", Old: " || c.facts.Input != \"\"", New: ""},

	{Guard: "accept: auto_accept_prompts turned off", Test: "TestGuard_Accept/turned_off",
		File: "respawn/core_accept.go", Find: "if c.state != Watching || !c.cfg.AutoAcceptPrompts || !c.outputSinceEnter || c.planCheck.id != 0 {", Old: "!c.cfg.AutoAcceptPrompts || ", New: ""},
	{Guard: "accept: no second Enter without new output", Test: "TestGuard_Accept/second_enter",
		File: "respawn/core_accept.go", Find: "if c.state != Watching || !c.cfg.AutoAcceptPrompts || !c.outputSinceEnter || c.planCheck.id != 0 {", Old: "!c.outputSinceEnter || ", New: ""},
	{Guard: "accept: a plan check runs", Test: "TestGuard_Accept/check_running",
		File: "respawn/core_accept.go", Find: "if c.state != Watching || !c.cfg.AutoAcceptPrompts || !c.outputSinceEnter || c.planCheck.id != 0 {", Old: " || c.planCheck.id != 0", New: ""},
	{Guard: "accept: the screen is read again before Enter", Test: "TestGuard_Accept/question_drawn",
		File: "respawn/core_accept.go", Find: "if c.needScreen(tAutoAccept) {", Old: "c.needScreen(tAutoAccept)", New: "false"},
	{Guard: "accept: no plan approval menu on screen", Test: "TestGuard_Accept/no_plan_menu",
		File: "respawn/core_accept.go", Find: "if !c.facts.PlanMenu {", Old: "!c.facts.PlanMenu", New: "false"},
	{Guard: "accept: a person must answer", Test: "TestGuard_Accept/question_hook",
		File: "respawn/core_accept.go", Find: "if b := c.blocker(now); b != \"\" {", Old: "c.blocker(now)", New: "\"\""},
	{Guard: "accept: silence since the last output", Test: "TestGuard_Accept/output_before_screen",
		File: "respawn/core_accept.go", Find: "if quiet := now.Sub(c.lastChange); quiet < c.cfg.AutoAcceptDelay {", Old: "quiet < c.cfg.AutoAcceptDelay", New: "quiet < 0"},
	{Guard: "accept: a NOT_PLAN_MODE verdict", Test: "TestCore_PlanCheck/NotPlanMode",
		File: "respawn/core_accept.go", Find: "case res.Verdict == VerdictNotPlanMode:", Old: "res.Verdict == VerdictNotPlanMode", New: "false"},
	{Guard: "accept: output during the plan check", Test: "TestCore_PlanCheck/Stale",
		File: "respawn/core_accept.go", Find: "case c.lastOutput.After(started):", Old: "c.lastOutput.After(started)", New: "false"},
	{Guard: "accept: the state changed during the plan check", Test: "TestGuard_Accept/state_changed",
		File: "respawn/core_accept.go", Find: "case c.state != Watching:", Old: "c.state != Watching", New: "false"},
	{Guard: "accept: a plan verdict that is neither PLAN_MODE nor NOT_PLAN_MODE", Test: "TestGuard_Accept/unknown_verdict",
		File: "respawn/core_accept.go", Find: "if err == nil && res.Verdict != VerdictPlanMode && res.Verdict != VerdictNotPlanMode {", Old: "err == nil && ", New: "false && "},

	{Guard: "pause: timers stop", Test: "TestGuard_Pause/before_step",
		File: "respawn/core.go", Find: "c.t = timers{}\n\tc.t[tDuration] = duration", Old: "c.t = timers{}\n\t", New: ""},
	{Guard: "pause: a state entered while paused arms nothing", Test: "TestGuard_PauseFreezesState",
		File: "respawn/core.go", Find: "c.t = saved\n\tif c.paused || c.state == Stopped {", Old: "c.paused || ", New: ""},
	{Guard: "pause: output arms nothing", Test: "TestGuard_Pause/output",
		File: "respawn/core_input.go", Find: "if c.paused || c.state == Stopped {", Old: "c.paused || ", New: ""},
	{Guard: "pause: a Stop hook starts no confirmation", Test: "TestGuard_Pause/stop_hook",
		File: "respawn/core_input.go", Find: "func (c *Core) onIdleHook(now time.Time, why string) {\n\tif c.paused {", Old: "c.paused", New: "false"},
	{Guard: "pause: a completion line starts no confirmation", Test: "TestGuard_Pause/completion_line",
		File: "respawn/core_input.go", Find: "if c.state == Watching && !c.paused {", Old: " && !c.paused", New: ""},

	{Guard: "controller: a timer fires after the output that came before it", Test: "TestGuard_ControllerFeedsBeforeTimer",
		File: "respawn/controller.go", Find: "case <-timer.Chan():\n\t\t\tc.coreMu.Lock()\n\t\t\tc.feed()", Old: "\n\t\t\tc.feed()", New: ""},
	{Guard: "controller: a hook is applied after the output that came before it", Test: "TestGuard_ControllerFeedsBeforeHook",
		File: "respawn/controller.go", Find: "case h := <-c.hooks:\n\t\t\tc.coreMu.Lock()\n\t\t\tc.feed()", Old: "\n\t\t\tc.feed()", New: ""},
	{Guard: "controller: a screen or send result is applied after the output that came before it", Test: "TestGuard_ControllerFeedsBeforeResult",
		File: "respawn/controller.go", Find: "case f := <-c.results:\n\t\t\tc.coreMu.Lock()\n\t\t\tc.feed()", Old: "\n\t\t\tc.feed()", New: ""},
	{Guard: "controller: a request sees the output that came before it", Test: "TestGuard_ControllerFeedsBeforeRequest",
		File: "respawn/controller.go", Find: "case f := <-c.requests:\n\t\t\tc.coreMu.Lock()\n\t\t\tc.feed()", Old: "\n\t\t\tc.feed()", New: ""},

	{Guard: "submit: no prompt box before typing", Test: "TestGuard_SubmitBeforeType/no_box",
		File: "respawn/submit.go", Find: "case !f.PromptBox:\n\t\treturn errors.New(\"no prompt box on screen; nothing typed\")", Old: "!f.PromptBox", New: "false"},
	{Guard: "submit: text in the prompt box before typing", Test: "TestGuard_SubmitBeforeType/text",
		File: "respawn/submit.go", Find: "case f.Input != \"\":\n\t\treturn fmt.Errorf(\"the prompt box already holds", Old: "f.Input != \"\"", New: "false"},
	{Guard: "submit: vim VISUAL mode before typing", Test: "TestGuard_SubmitBeforeType/visual",
		File: "respawn/submit.go", Find: "case f.EditorMode == EditorVisual:", Old: "f.EditorMode == EditorVisual", New: "false"},
	{Guard: "submit: vim NORMAL mode before typing: i first", Test: "TestGuard_SubmitVimNormal",
		File: "respawn/submit.go", Find: "case f.EditorMode == EditorNormal:\n\t\treturn b.enterInsert(ctx)", Old: "f.EditorMode == EditorNormal", New: "false"},
	{Guard: "submit: vim NORMAL mode is a box without indicator in a pane that showed one", Test: "TestGuard_SubmitVimNormal",
		File: "respawn/editormode.go", Find: "case r.vim:\n\t\tf.EditorMode = EditorNormal", Old: "r.vim", New: "false"},
	{Guard: "submit: INSERT mode shown after i before typing", Test: "TestGuard_SubmitInsertConfirmed",
		File: "respawn/submit.go", Find: "case f.PromptBox && f.Input == \"\" && f.EditorMode == EditorInsert:", Old: "f.EditorMode == EditorInsert", New: "true"},
	{Guard: "submit: an i that went into the box means vim is off", Test: "TestGuard_SubmitVimOff",
		File: "respawn/submit.go", Find: "case f.PromptBox && f.Input == string(KeyVimInsert):", Old: "f.PromptBox && f.Input == string(KeyVimInsert)", New: "false"},
	{Guard: "submit: the box shows the text typed before Enter", Test: "TestGuard_SubmitVerifiesBeforeEnter",
		File: "respawn/submit.go", Find: "if f.PromptBox && boxShows(f.Input, text) {", Old: "f.PromptBox && boxShows(f.Input, text)", New: "true"},
	{Guard: "submit: a cancel before Enter takes the text typed back", Test: "TestGuard_SubmitCancelTakesBack/typed",
		File: "respawn/submit.go", Find: "if err := Sleep(ctx, clock, t.Pause); err != nil {\n\t\treturn box.takeBack(ctx, text, err)", Old: "box.takeBack(ctx, text, err)", New: "err"},
	{Guard: "submit: text is taken back only when the box shows exactly it", Test: "TestGuard_SubmitTakeBackOnlyItsOwn",
		File: "respawn/submit.go", Find: "if !boxShows(f.Input, text) {\n\t\treturn fmt.Errorf(\"%w; the prompt box shows %s, not only", Old: "!boxShows(f.Input, text)", New: "false"},
	{Guard: "submit: one Backspace takes a paste's placeholder back", Test: "TestGuard_SubmitCancelTakesBack/pasted",
		File: "respawn/submit.go", Find: "if isPlaceholder(f.Input) {", Old: "isPlaceholder(f.Input)", New: "false"},
	{Guard: "answer: nothing is typed into a paused pane", Test: "TestGuard_AnswerRefused/Paused",
		File: "respawn/answer.go", Find: "case c.core.paused:", Old: "c.core.paused", New: "false"},
	{Guard: "answer: only the need the person saw", Test: "TestGuard_AnswerRefused/OtherNeed",
		File: "respawn/answer.go", Find: "case a.Need != \"\" && a.Need != need.ID:", Old: "a.Need != \"\" && a.Need != need.ID", New: "false"},
	{Guard: "answer: no option that opens a text box", Test: "TestGuard_AnswerRefused/TextOption",
		File: "respawn/answer.go", Find: "if ask.TakesText(i) {", Old: "ask.TakesText(i)", New: "false"},
	{Guard: "answer: the screen read again shows the same dialog", Test: "TestGuard_AnswerRefused/AnotherDialog",
		File: "respawn/answer.go", Find: "if fp := on.Fingerprint(); fp != id {", Old: "fp != id", New: "false"},
	{Guard: "answer: Enter only once the selector moved onto the option", Test: "TestGuard_AnswerSelectorStuck",
		File: "respawn/answer.go", Find: "func(s Ask) bool { return s.Selected != from }", Old: "s.Selected != from", New: "s.Selected != from || true"},
}

// The table matches the code: each snippet is found exactly once, so a
// refactor that moves a guard updates the table, and each test exists.
func TestSendGuardTable(t *testing.T) {
	tests := testFuncs(t)
	seen := map[string]bool{}
	for _, g := range sendGuards {
		if seen[g.Guard] {
			t.Errorf("guard %q listed twice", g.Guard)
		}
		seen[g.Guard] = true
		src, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(g.File)))
		if err != nil {
			t.Errorf("guard %q: %v", g.Guard, err)
			continue
		}
		if n := strings.Count(string(src), g.Find); n != 1 {
			t.Errorf("guard %q: %q occurs %d times in %s, want once", g.Guard, g.Find, n, g.File)
		}
		if n := strings.Count(g.Find, g.Old); n != 1 || g.Old == g.New {
			t.Errorf("guard %q: Old %q occurs %d times in Find (or equals New)", g.Guard, g.Old, n)
		}
		if name, _, _ := strings.Cut(g.Test, "/"); !tests[name] {
			t.Errorf("guard %q: no test %s in package respawn", g.Guard, name)
		}
	}
}

// testFuncs returns the names of the package's test functions.
func testFuncs(t *testing.T) map[string]bool {
	t.Helper()
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("parse %s: %v", name, err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && strings.HasPrefix(fd.Name.Name, "Test") {
				names[fd.Name.Name] = true
			}
		}
	}
	return names
}
