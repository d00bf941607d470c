package spool

import "strings"

// Kind is the signal a hook event makes for the controller of its pane.
// Its name is part of each marker's file name; package hooks turns it into
// respawn's HookKind of the same name.
type Kind uint8

// The kinds, one per signal of respawn's HookKind (see there what each
// means to the controller).
const (
	KindNone             Kind = iota // no signal
	KindStop                         // Stop
	KindIdlePrompt                   // Notification idle_prompt
	KindPromptSubmitted              // UserPromptSubmit
	KindToolStarted                  // PreToolUse of an ordinary tool; Codex's PreModelRequest
	KindToolFinished                 // PostToolUse of an ordinary tool
	KindQuestionPending              // AskUserQuestion is on screen
	KindQuestionAnswered             // PostToolUse AskUserQuestion
	KindPlanApproval                 // a plan approval menu
	KindPermissionPrompt             // any other permission dialog
	KindElicitation                  // Notification elicitation_dialog
	KindClearFinished                // SessionStart after /clear
	KindTurnFailed                   // StopFailure; Codex's failed PostModelRequest
	KindSessionEnded                 // SessionEnd other than for /clear
	KindInterrupted                  // Codex's Interrupt
	numKinds
)

var kindNames = [numKinds]string{
	KindNone:             "none",
	KindStop:             "stop",
	KindIdlePrompt:       "idle_prompt",
	KindPromptSubmitted:  "prompt_submitted",
	KindToolStarted:      "tool_started",
	KindToolFinished:     "tool_finished",
	KindQuestionPending:  "question_pending",
	KindQuestionAnswered: "question_answered",
	KindPlanApproval:     "plan_approval",
	KindPermissionPrompt: "permission_prompt",
	KindElicitation:      "elicitation",
	KindClearFinished:    "clear_finished",
	KindTurnFailed:       "turn_failed",
	KindSessionEnded:     "session_ended",
	KindInterrupted:      "interrupted",
}

func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return "unknown"
}

// Kinds lists every kind but KindNone.
func Kinds() []Kind {
	out := make([]Kind, 0, numKinds-1)
	for k := KindNone + 1; k < numKinds; k++ {
		out = append(out, k)
	}
	return out
}

// Codex's status of a model request that ended in an error: an API
// error or a usage limit, which ends the turn without a Stop.
const modelRequestFailed = "failed"

// Claude Code's names for what codeman reacts to.
const (
	toolAskUserQuestion = "AskUserQuestion"
	toolExitPlanMode    = "ExitPlanMode"
	// planApprovalText is in the permission_prompt Notification Claude Code
	// 2.1.328 sends ~6 s after a plan approval menu appears ("Claude Code
	// needs your approval for the plan"); other dialogs say "Claude needs
	// your permission".
	planApprovalText = "approval for the plan"
	// taskRunning is a background task's status while it still works.
	// Every kind counts: a subagent, a shell, and from 2.1.329 on a
	// Monitor's script (kind "monitor"; earlier versions said "shell"),
	// since Claude goes on when any of them reports.
	taskRunning = "running"
	// quotaAutoResumeFired is the Notification Claude Code sends when its
	// own continue at a usage limit starts a turn ("Usage limit reset —
	// Claude is continuing your task"), right before that turn's
	// UserPromptSubmit. Its siblings quota_auto_resume_stale and
	// quota_auto_resume_disabled say Claude will not continue by itself;
	// they carry no signal: the screen says the same, and the resume
	// prompt is codeman's to type then anyway.
	quotaAutoResumeFired = "quota_auto_resume_fired"
)

// Kind is the dispatch table of docs/ARCHITECTURE.md, "Evidence":
// the signal the marker's event makes, KindNone for events that carry none
// (MessageDisplay, SessionStart other than after /clear, SessionEnd for
// /clear, ...).
//
// Claude Code and the OpenAI Codex CLI share the events of the same name
// (Stop, UserPromptSubmit, PreToolUse, PostToolUse, PermissionRequest,
// SessionStart, SessionEnd). StopFailure, Notification and
// PreSkillShellCommand are Claude Code's alone; PreModelRequest,
// PostModelRequest and Interrupt are Codex's alone (docs/codex.md,
// "Hooks").
func (m Marker) Kind() Kind {
	switch m.Event {
	case "Stop":
		return KindStop
	case "StopFailure":
		return KindTurnFailed
	case "Interrupt":
		// Codex: a person interrupted the turn, with Esc while it worked
		// or on an approval prompt, which is then declined.
		return KindInterrupted
	case "PreModelRequest":
		// Codex: a model step starts, so a turn is under way.
		return KindToolStarted
	case "PostModelRequest":
		// Codex runs no Stop for a turn lost to an API error or a usage
		// limit: the failed request is the only report of it, with the
		// screen's text as its error. A completed request is one step of
		// a turn that goes on; a cancelled one comes with Interrupt.
		if m.Status == modelRequestFailed {
			return KindTurnFailed
		}
	case "Notification":
		return notificationKind(m)
	case "UserPromptSubmit":
		return KindPromptSubmitted
	case "PreToolUse":
		return preToolKind(m.Tool)
	case "PreSkillShellCommand":
		// Claude Code 2.1.332 is about to run a shell command written in a
		// skill that is being loaded (tool_name Bash or PowerShell): a turn
		// is under way. No PostToolUse follows it.
		return KindToolStarted
	case "PostToolUse":
		if m.Tool == toolAskUserQuestion {
			return KindQuestionAnswered
		}
		return KindToolFinished
	case "PermissionRequest":
		return permissionKind(m.Tool)
	case "SessionStart":
		if m.Source == "clear" {
			return KindClearFinished
		}
	case "SessionEnd":
		// /clear ends a session and starts the next one at once; only other
		// reasons mean Claude exited.
		if m.Reason != "clear" {
			return KindSessionEnded
		}
	}
	return KindNone
}

func notificationKind(m Marker) Kind {
	switch m.NotificationType {
	case "idle_prompt":
		return KindIdlePrompt
	case "permission_prompt":
		if strings.Contains(m.Message, planApprovalText) {
			return KindPlanApproval
		}
		return KindPermissionPrompt
	case "elicitation_dialog":
		return KindElicitation
	case quotaAutoResumeFired:
		// Claude continues by itself: a turn starts, and codeman types no
		// resume prompt.
		return KindPromptSubmitted
	}
	return KindNone
}

func preToolKind(tool string) Kind {
	switch tool {
	case toolAskUserQuestion:
		return KindQuestionPending
	case toolExitPlanMode:
		return KindPlanApproval
	}
	return KindToolStarted
}

// permissionKind: PermissionRequest fires the moment a dialog is drawn.
func permissionKind(tool string) Kind {
	switch tool {
	case toolExitPlanMode:
		return KindPlanApproval
	case toolAskUserQuestion:
		// AskUserQuestion shows its question through the permission
		// machinery; it is a question, not a permission.
		return KindQuestionPending
	}
	return KindPermissionPrompt
}

// RunningTasks counts the background tasks of a Stop that still run: while
// any does, Claude goes on by itself when it reports.
func (m Marker) RunningTasks() int {
	n := 0
	for _, s := range m.BackgroundTasks {
		if s == taskRunning {
			n++
		}
	}
	return n
}
