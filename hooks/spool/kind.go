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
	KindStop                         // Stop; Copilot's agentStop; OpenCode's session.idle
	KindIdlePrompt                   // Notification idle_prompt
	KindPromptSubmitted              // UserPromptSubmit; Copilot's userPromptSubmitted; OpenCode's chat.message
	KindToolStarted                  // PreToolUse of an ordinary tool; Codex's PreModelRequest
	KindToolFinished                 // PostToolUse of an ordinary tool; Copilot's postToolUseFailure
	KindQuestionPending              // AskUserQuestion (Copilot: ask_user) is on screen
	KindQuestionAnswered             // PostToolUse AskUserQuestion (ask_user)
	KindPlanApproval                 // a plan approval menu
	KindPermissionPrompt             // any other permission dialog
	KindElicitation                  // Notification elicitation_dialog
	KindClearFinished                // SessionStart after /clear
	KindTurnFailed                   // StopFailure; Codex's failed PostModelRequest; OpenCode's session.error
	KindSessionEnded                 // SessionEnd other than for /clear
	KindInterrupted                  // Codex's Interrupt; OpenCode's MessageAbortedError
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

// The GitHub Copilot CLI's camelCase names (docs/copilot.md, "Hooks").
const (
	copilotAgentStop         = "agentStop"
	copilotPromptSubmitted   = "userPromptSubmitted"
	copilotPreToolUse        = "preToolUse"
	copilotPostToolUse       = "postToolUse"
	copilotPostToolFailure   = "postToolUseFailure"
	copilotPermissionRequest = "permissionRequest"
	copilotAskUser           = "ask_user"
	copilotExitPlanMode      = "exit_plan_mode"
	// copilotUserExit is the reason of every SessionEnd of Copilot's,
	// /clear's as well as an exit's.
	copilotUserExit = "user_exit"
)

// OpenCode's event and hook names, as codeman's plugin forwards them
// (docs/opencode.md, "Plugins").
const (
	openCodeIdle              = "session.idle"
	openCodeStatus            = "session.status"
	openCodeError             = "session.error"
	openCodePermissionAsked   = "permission.asked"
	openCodePermissionReplied = "permission.replied"
	openCodePrompt            = "chat.message"
	openCodeToolBefore        = "tool.execute.before"
	openCodeToolAfter         = "tool.execute.after"
	openCodeQuestion          = "question"
	// openCodeAborted is the error's name when Esc Esc interrupted the
	// turn; every other name is a failed turn (APIError, ...).
	openCodeAborted = "MessageAbortedError"
	// openCodeReject is permission.replied's reply when the prompt was
	// rejected (Esc): the turn ends there.
	openCodeReject = "reject"
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
//
// The GitHub Copilot CLI runs camelCase events, which codeman installs,
// and Claude Code's names too (docs/copilot.md, "Hooks"). agentStop is
// Stop and userPromptSubmitted UserPromptSubmit, but either one of a
// subagent (its agentId set; Copilot's Stop then has agent_id) is a step
// of the turn that goes on. preToolUse and postToolUse are PreToolUse and
// PostToolUse with ask_user for AskUserQuestion and exit_plan_mode for
// ExitPlanMode; postToolUseFailure ends a tool too; its Notification is
// Claude Code's, permission_prompt for a permission prompt on screen.
// Four carry no signal: permissionRequest runs before every tool call the
// permission rules check, with the same payload whether they let it run
// or a prompt opens (the notification follows only a prompt);
// sessionStart runs with a session's first prompt, not at /clear;
// sessionEnd (and SessionEnd) has reason user_exit for /clear and for an
// exit alike, so the screen tells them apart; errorOccurred runs for each
// failed model call, retries included, and the screen's last failure row
// tells the turn's end (its message stays the marker's Error).
//
// OpenCode's events come from codeman's plugin (openCodeKind).
func (m Marker) Kind() Kind {
	switch m.Event {
	case openCodeIdle, openCodeStatus, openCodeError, openCodePermissionAsked,
		openCodePermissionReplied, openCodePrompt, openCodeToolBefore, openCodeToolAfter:
		return openCodeKind(m)
	case "Stop", copilotAgentStop:
		if m.AgentID != "" {
			return KindNone
		}
		return KindStop
	case copilotPromptSubmitted:
		return promptKind(m)
	case copilotPreToolUse:
		return preToolKind(m.Tool)
	case copilotPostToolUse:
		return postToolKind(m.Tool)
	case copilotPostToolFailure:
		return KindToolFinished
	case copilotPermissionRequest:
		// Also for a command --allow-tool, --allow-all-tools or a
		// read-only rule lets through, which shows no prompt.
		return KindNone
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
		return promptKind(m)
	case "PreToolUse":
		return preToolKind(m.Tool)
	case "PreSkillShellCommand":
		// Claude Code 2.1.332 is about to run a shell command written in a
		// skill that is being loaded (tool_name Bash or PowerShell): a turn
		// is under way. No PostToolUse follows it.
		return KindToolStarted
	case "PostToolUse":
		return postToolKind(m.Tool)
	case "PermissionRequest":
		return permissionKind(m.Tool)
	case "SessionStart":
		if m.Source == "clear" {
			return KindClearFinished
		}
	case "SessionEnd":
		// /clear ends a session and starts the next one at once; only other
		// reasons mean Claude exited. Copilot gives its /clear the reason
		// of an exit.
		if m.Reason != "clear" && m.Reason != copilotUserExit {
			return KindSessionEnded
		}
	}
	return KindNone
}

// openCodeKind is the signal of an OpenCode event codeman's plugin
// forwards. session.idle ends every turn, but a turn that failed, was
// interrupted or ended on a rejected permission prompt has its signal
// already (session.error, permission.replied), and the plugin names it as
// the idle's Reason: such an idle is no Stop, as Claude Code's StopFailure
// and Codex's Interrupt come without one (a Stop after a failure would
// make the failed turn read as one that ended well). session.status busy
// and retry are work (the plugin forwards no idle status: session.idle
// follows it); session.error is an interrupt for MessageAbortedError and a
// failed turn, its message the Error, for any other error. A permission
// prompt answered lets its tool run (tool_finished clears the prompt and
// tool.execute.after follows) unless rejected, which ends the turn as an
// interrupt does. The question tool is OpenCode's question.
func openCodeKind(m Marker) Kind {
	switch m.Event {
	case openCodeIdle:
		if m.Reason != "" {
			return KindNone
		}
		return KindStop
	case openCodeStatus:
		if m.Status == "busy" || m.Status == "retry" {
			return KindToolStarted
		}
	case openCodeError:
		if m.Reason == openCodeAborted {
			return KindInterrupted
		}
		return KindTurnFailed
	case openCodePermissionAsked:
		return KindPermissionPrompt
	case openCodePermissionReplied:
		if m.Status == openCodeReject {
			return KindInterrupted
		}
		return KindToolFinished
	case openCodePrompt:
		return KindPromptSubmitted
	case openCodeToolBefore:
		if m.Tool == openCodeQuestion {
			return KindQuestionPending
		}
		return KindToolStarted
	case openCodeToolAfter:
		if m.Tool == openCodeQuestion {
			return KindQuestionAnswered
		}
		return KindToolFinished
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

// promptKind: a subagent's prompt (Copilot's task tool) comes while the
// turn works, so it is work, not a new turn.
func promptKind(m Marker) Kind {
	if m.AgentID != "" {
		return KindToolStarted
	}
	return KindPromptSubmitted
}

func preToolKind(tool string) Kind {
	switch tool {
	case toolAskUserQuestion, copilotAskUser:
		return KindQuestionPending
	case toolExitPlanMode, copilotExitPlanMode:
		return KindPlanApproval
	}
	return KindToolStarted
}

func postToolKind(tool string) Kind {
	if tool == toolAskUserQuestion || tool == copilotAskUser {
		return KindQuestionAnswered
	}
	return KindToolFinished
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
