package claudehooks

import "github.com/codeman-dev/codeman/hooks"

// Entries are the hooks codeman installs into Claude Code's settings, in
// this order.
//
// PreToolUse and PostToolUse get one group for every tool (matcher "*")
// rather than an extra AskUserQuestion|ExitPlanMode group: the handler
// already tells tools apart, and Claude Code runs an identical command only
// once per event, so a second group would add nothing but clutter. The cost
// is one short process per tool call before and after it, which the
// controller needs anyway for "working" and "tool finished".
var Entries = []hooks.Entry{
	{Event: "Stop"},
	{Event: "StopFailure"},
	{Event: "Notification", Matcher: "idle_prompt"},
	{Event: "Notification", Matcher: "permission_prompt"},
	{Event: "Notification", Matcher: "elicitation_dialog"},
	{Event: "PreToolUse", Matcher: "*"},
	{Event: "PostToolUse", Matcher: "*"},
	{Event: "PermissionRequest"},
	{Event: "UserPromptSubmit"},
	{Event: "SessionStart"},
	{Event: "SessionEnd"},
}
