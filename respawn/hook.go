package respawn

import "time"

// HookKind names a signal from Claude Code's hooks, already interpreted.
// The hooks package turns hook payloads into these; the controller never
// sees Claude's JSON.
type HookKind int

const (
	// HookStop: the main agent finished its turn (Stop). Idle candidate,
	// unless Background lists tasks still running.
	HookStop HookKind = iota + 1
	// HookIdlePrompt: Notification idle_prompt, Claude has waited for input
	// for a while. Idle.
	HookIdlePrompt
	// HookPromptSubmitted: UserPromptSubmit. A turn starts.
	HookPromptSubmitted
	// HookToolStarted: PreToolUse for an ordinary tool. Claude works.
	HookToolStarted
	// HookToolFinished: PostToolUse for an ordinary tool. Any dialog for
	// it has been answered.
	HookToolFinished
	// HookQuestionPending: PreToolUse AskUserQuestion. A person must answer.
	HookQuestionPending
	// HookQuestionAnswered: PostToolUse AskUserQuestion.
	HookQuestionAnswered
	// HookPlanApproval: PreToolUse or PermissionRequest for ExitPlanMode.
	// A plan approval menu is (about to be) on screen; the one dialog
	// codeman may accept.
	HookPlanApproval
	// HookPermissionPrompt: PermissionRequest for any other tool, or
	// Notification permission_prompt not about a plan. A person must answer.
	HookPermissionPrompt
	// HookElicitation: Notification elicitation_dialog. A person must answer.
	HookElicitation
	// HookClearFinished: SessionStart with source "clear".
	HookClearFinished
	// HookTurnFailed: StopFailure. The turn ended on an API error; Error
	// says which (rate_limit, server_error, ...).
	HookTurnFailed
	// HookSessionEnded: SessionEnd other than for /clear. Claude exited.
	HookSessionEnded
	// HookInterrupted: a person interrupted the turn (Codex's Interrupt,
	// also sent when an approval prompt is declined with Esc). Any dialog
	// is gone; no Stop follows.
	HookInterrupted
)

var hookKindNames = [...]string{
	HookStop:             "stop",
	HookIdlePrompt:       "idle_prompt",
	HookPromptSubmitted:  "prompt_submitted",
	HookToolStarted:      "tool_started",
	HookToolFinished:     "tool_finished",
	HookQuestionPending:  "question_pending",
	HookQuestionAnswered: "question_answered",
	HookPlanApproval:     "plan_approval",
	HookPermissionPrompt: "permission_prompt",
	HookElicitation:      "elicitation",
	HookClearFinished:    "clear_finished",
	HookTurnFailed:       "turn_failed",
	HookSessionEnded:     "session_ended",
	HookInterrupted:      "interrupted",
}

func (k HookKind) String() string {
	if k > 0 && int(k) < len(hookKindNames) {
		return hookKindNames[k]
	}
	return "unknown"
}

// Hook is one interpreted hook event for one pane.
type Hook struct {
	Kind       HookKind
	At         time.Time // when Claude ran the hook (the marker's time)
	Event      string    // Claude's hook_event_name, for logs
	Tool       string    // tool_name, when there is one
	Background int       // Stop: background tasks still running
	Error      string    // TurnFailed: StopFailure's error
	Message    string    // Notification message or the like, for logs
	// Detail is what a dialog asks a person: a question's text, the
	// command or file a permission is for.
	Detail string
}
