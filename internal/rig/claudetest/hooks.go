package claudetest

import (
	"time"

	"github.com/codeman-dev/codeman/internal/rig/clitest"
)

// RecordedHookEvents are the hook events a session with RecordHooks logs:
// the ones codeman interprets, plus their neighbours. MessageDisplay is left
// out (one process per streamed chunk), and so are hooks whose output
// changes what Claude does (WorktreeCreate, Elicitation), and events that
// not every tested version knows (PreSkillShellCommand, 2.1.329+): an
// unknown event in settings.json opens a warning dialog at start.
var RecordedHookEvents = []string{
	"SessionStart", "SessionEnd", "UserPromptSubmit", "UserPromptExpansion",
	"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest",
	"PermissionDenied", "Notification", "Stop", "StopFailure",
	"SubagentStart", "SubagentStop", "PreCompact", "PostCompact",
}

// HookEvent is one hook call Claude Code made (Kind "hook"): Name is its
// hook_event_name, Payload the JSON Claude wrote to the hook's stdin.
type HookEvent = clitest.Event

// Hook returns a predicate for WaitForEvent: a call of the named hook
// event made after since (zero: any time).
func Hook(name string, since time.Time) func(HookEvent) bool { return clitest.Hook(name, since) }

// hookSettings are the settings that run command for every
// RecordedHookEvents entry.
func hookSettings(command string) map[string]any {
	hooks := map[string]any{}
	for _, ev := range RecordedHookEvents {
		hooks[ev] = []any{map[string]any{
			"matcher": "",
			"hooks":   []any{map[string]any{"type": "command", "command": command}},
		}}
	}
	return map[string]any{"hooks": hooks}
}
