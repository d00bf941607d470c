package codextest

import (
	"time"

	"github.com/codeman-dev/codeman/agents/codex/codexhooks"
	"github.com/codeman-dev/codeman/internal/rig/clitest"
)

// RecordedHookEvents are the hook events a session with RecordHooks logs:
// every event Codex 0.171.0 knows. PreModelRequest and PostModelRequest
// fire around each model request; a PostModelRequest with status "failed"
// is the only hook that reports a turn lost to an API error.
var RecordedHookEvents = []string{
	"SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse",
	"PermissionRequest", "PostToolUse", "PreCompact", "PostCompact",
	"SubagentStart", "SubagentStop", "Stop", "Interrupt",
	"PreModelRequest", "PostModelRequest",
}

// hookTimeout is the timeout, in seconds, of a recorder hook. It is
// written out because the trusted hash covers it. Codex's default is 600 s,
// 1 s for SessionEnd and Interrupt, whose timeouts it clamps to 3 s (with a
// startup warning, and a hash over the clamped value).
func hookTimeout(event string) int {
	if event == "SessionEnd" || event == "Interrupt" {
		return 3
	}
	return 10
}

// Event is one hook call (Kind "hook") or notify run (Kind "notify")
// Codex made.
type Event = clitest.Event

// Hook returns a predicate for WaitForEvent: a call of the named hook
// event made after since (zero: any time).
func Hook(name string, since time.Time) func(Event) bool { return clitest.Hook(name, since) }

// Notify returns a predicate for WaitForEvent: a notification of the named
// type made after since (zero: any time).
func Notify(name string, since time.Time) func(Event) bool { return clitest.Notify(name, since) }

// hooksFile is the hooks.json that runs command for every
// RecordedHookEvents entry, and the [hooks.state] that trusts each, as
// the dialog's "Trust all" would (package agents/codex/codexhooks
// computes the keys and hashes; docs/codex.md, "Hooks").
func hooksFile(path, command string) (hooksJSON map[string]any, state map[string]any, err error) {
	events := map[string]any{}
	state = map[string]any{}
	for _, ev := range RecordedHookEvents {
		timeout := hookTimeout(ev)
		events[ev] = []any{map[string]any{
			"hooks": []any{map[string]any{"type": "command", "command": command, "timeout": timeout}},
		}}
		hash, err := codexhooks.Hash(ev, "", command, timeout)
		if err != nil {
			return nil, nil, err
		}
		state[codexhooks.StateKey(path, ev, 0, 0)] = map[string]any{"trusted_hash": hash}
	}
	return map[string]any{"hooks": events}, state, nil
}
