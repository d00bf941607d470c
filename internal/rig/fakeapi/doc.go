// Package fakeapi is a scriptable stand-in for the Anthropic Messages API on
// loopback, good enough for the real Claude Code CLI to run whole sessions
// against it offline (docs/claude-code.md).
//
// It owns the HTTP side only: `POST /v1/messages` (with or without
// `?beta=true`) answered as server-sent events when the request asks for a
// stream and as one JSON message otherwise, `HEAD /api/hello`, the session
// title side request, and a log of every request.
//
// A test scripts replies by what the user typed last:
//
//	api := fakeapi.New(t)
//	api.Handle("run the tests", fakeapi.Reply{
//		Text: "Running them.",
//		Tool: &fakeapi.ToolCall{Name: "Bash", Input: map[string]any{"command": "echo hi"}},
//		Next: &fakeapi.Reply{Text: "All green."},
//	})
//	api.Enqueue(fakeapi.Reply{Status: 529})
//
// The script, the request log and the server's lifecycle are the shared
// ones of internal/rig/fakeserver, which Server embeds; this package owns
// the Messages API's wire format. A request is answered by the first source
// that has a reply, in this order: the Next of the tool call whose result
// it carries, the HandleFunc and Handle rules in the order they were added,
// the queue (fresh user turns only), and the default reply. A retry of a
// request that got an error (Claude Code resends the identical body) gets
// the same error, so a scripted failure is what the screen shows even with
// retries left; a usage limit set with LimitUntil lifts at its reset for
// retries too.
//
// "What the user typed last" is the last text block of the last message with
// role user: Claude Code appends a role "system" message after the user's,
// puts a <system-reminder> block before the typed text, and merges the text
// of a failed turn into the next user message.
//
// fakeapi is test support: it imports nothing of codeman but fakeserver,
// and nothing but tests and test helpers may import it.
package fakeapi
