package hooks

import (
	"strings"

	"github.com/codeman-dev/codeman/respawn"
)

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

// Interpret turns a marker into the signal the controller of its pane gets.
// ok is false for events that carry no signal (MessageDisplay,
// SessionStart other than after /clear, SessionEnd for /clear, ...).
func Interpret(m Marker) (pane string, h respawn.Hook, ok bool) {
	kind := hookKind(m)
	if kind == 0 {
		return m.Pane, respawn.Hook{}, false
	}
	h = respawn.Hook{
		Kind:    kind,
		At:      m.At,
		Event:   m.Event,
		Tool:    m.Tool,
		Error:   m.Error,
		Message: m.Message,
	}
	if kind == respawn.HookStop {
		h.Background = countRunning(m.BackgroundTasks)
	}
	return m.Pane, h, true
}

// hookKind is the dispatch table of docs/ARCHITECTURE.md, "Evidence"; 0
// means no signal.
func hookKind(m Marker) respawn.HookKind {
	switch m.Event {
	case "Stop":
		return respawn.HookStop
	case "StopFailure":
		return respawn.HookTurnFailed
	case "Notification":
		return notificationKind(m)
	case "UserPromptSubmit":
		return respawn.HookPromptSubmitted
	case "PreToolUse":
		return preToolKind(m.Tool)
	case "PreSkillShellCommand":
		// Claude Code 2.1.332 is about to run a shell command written in a
		// skill that is being loaded (tool_name Bash or PowerShell): a turn
		// is under way. No PostToolUse follows it.
		return respawn.HookToolStarted
	case "PostToolUse":
		if m.Tool == toolAskUserQuestion {
			return respawn.HookQuestionAnswered
		}
		return respawn.HookToolFinished
	case "PermissionRequest":
		return permissionKind(m.Tool)
	case "SessionStart":
		if m.Source == "clear" {
			return respawn.HookClearFinished
		}
	case "SessionEnd":
		// /clear ends a session and starts the next one at once; only other
		// reasons mean Claude exited.
		if m.Reason != "clear" {
			return respawn.HookSessionEnded
		}
	}
	return 0
}

func notificationKind(m Marker) respawn.HookKind {
	switch m.NotificationType {
	case "idle_prompt":
		return respawn.HookIdlePrompt
	case "permission_prompt":
		if strings.Contains(m.Message, planApprovalText) {
			return respawn.HookPlanApproval
		}
		return respawn.HookPermissionPrompt
	case "elicitation_dialog":
		return respawn.HookElicitation
	case quotaAutoResumeFired:
		// Claude continues by itself: a turn starts, and codeman types no
		// resume prompt.
		return respawn.HookPromptSubmitted
	}
	return 0
}

func preToolKind(tool string) respawn.HookKind {
	switch tool {
	case toolAskUserQuestion:
		return respawn.HookQuestionPending
	case toolExitPlanMode:
		return respawn.HookPlanApproval
	}
	return respawn.HookToolStarted
}

// permissionKind: PermissionRequest fires the moment a dialog is drawn.
func permissionKind(tool string) respawn.HookKind {
	switch tool {
	case toolExitPlanMode:
		return respawn.HookPlanApproval
	case toolAskUserQuestion:
		// AskUserQuestion shows its question through the permission
		// machinery; it is a question, not a permission.
		return respawn.HookQuestionPending
	}
	return respawn.HookPermissionPrompt
}

func countRunning(statuses []string) int {
	n := 0
	for _, s := range statuses {
		if s == taskRunning {
			n++
		}
	}
	return n
}

// InterpretPayload interprets a hook payload as Claude Code sends it on
// stdin, for recordings that carry hook events (codeman replay).
func InterpretPayload(payload []byte) (respawn.Hook, bool) {
	m, err := parsePayload(payload)
	if err != nil {
		return respawn.Hook{}, false
	}
	_, h, ok := Interpret(m)
	return h, ok
}
