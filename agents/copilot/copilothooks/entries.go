package copilothooks

// Events are the camelCase events codeman's hooks file registers, in this
// order, each running `<handler> <event>` with hooks.HookTimeout as its
// timeoutSec. The handler gives up after 2 s.
//
// What each tells the controller (package spool, Marker.Kind): a turn
// starts (userPromptSubmitted), works (preToolUse, postToolUse,
// postToolUseFailure), asks a person (notification, and preToolUse for
// ask_user and exit_plan_mode), and ends (agentStop). sessionStart,
// sessionEnd, errorOccurred and permissionRequest (which runs before
// calls the permission rules let through as well as before a prompt)
// carry no signal of their own, but their markers tell the watcher that
// the pane's hooks run and go into its recordings (codeman record), where
// a failed model call's message and a call's command are kept. Left out: Claude Code's PascalCase names, which
// Copilot runs besides the camelCase ones with the same meaning, so they
// would double every event; userPromptTransformed (userPromptSubmitted
// again), subagentStart and subagentStop (a subagent's own prompt and
// agentStop come anyway), preCompact and preMcpToolCall (no signal).
var Events = []string{
	"sessionStart",
	"userPromptSubmitted",
	"preToolUse",
	"permissionRequest",
	"notification",
	"postToolUse",
	"postToolUseFailure",
	"agentStop",
	"errorOccurred",
	"sessionEnd",
}
