package copilottest

import (
	"time"

	"github.com/codeman-dev/codeman/internal/rig/clitest"
)

// RecordedHookEvents are the hook events a session with RecordHooks logs:
// the fifteen camelCase events of Copilot 1.0.102's settings schema. Their
// payloads do not name the event, so the recorder is told it. The
// PascalCase spellings (Claude Code's names, with Claude Code's payloads)
// run too but are not recorded: each event would show twice.
var RecordedHookEvents = []string{
	"sessionStart", "sessionEnd", "userPromptSubmitted", "userPromptTransformed",
	"preToolUse", "postToolUse", "postToolUseFailure", "agentStop",
	"subagentStart", "subagentStop", "permissionRequest", "notification",
	"errorOccurred", "preCompact", "preMcpToolCall",
}

// hookTimeout is the timeout, in seconds, of a recorder hook: it only
// writes a file.
const hookTimeout = 10

// Event is one hook call Copilot made.
type Event = clitest.Event

// Hook returns a predicate for WaitForEvent: a call of the named hook
// event made after since (zero: any time).
func Hook(name string, since time.Time) func(Event) bool { return clitest.Hook(name, since) }

// MainTurnDone returns a predicate for WaitForEvent: an agentStop of the
// main agent made after since. A subagent's turn runs agentStop too, with
// its agentId.
func MainTurnDone(since time.Time) func(Event) bool {
	return func(e Event) bool { return Hook("agentStop", since)(e) && e.Field("agentId") == "" }
}

// hooksFile is the hooks file that runs command, with the event's name as
// its argument, for every RecordedHookEvents entry.
func hooksFile(command string) map[string]any {
	events := map[string]any{}
	for _, ev := range RecordedHookEvents {
		events[ev] = []any{map[string]any{"type": "command", "bash": command + " " + ev, "timeoutSec": hookTimeout}}
	}
	return map[string]any{"version": 1, "hooks": events}
}
