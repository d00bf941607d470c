// Package fakeopenai is a scriptable stand-in for the OpenAI Responses API
// on loopback, good enough for the real Codex CLI to run whole sessions
// against it offline (docs/codex.md).
//
// It owns the HTTP side only: `POST /v1/responses` answered as server-sent
// events (response.created, output items added and done, text deltas,
// response.completed listing the items again, or response.failed), HTTP errors shaped like the
// real API's (a 429 usage limit with its x-codex-* headers, a 500, a 503
// overload), the task title side request, and a log of every request.
// Codex asks nothing else at start when it runs against a custom provider.
//
// A test scripts replies by what the user typed last:
//
//	api := fakeopenai.New(t)
//	api.Handle("run the tests", fakeopenai.Reply{
//		Text: "Running them.",
//		Tool: fakeopenai.Shell("go test ./..."),
//		Next: &fakeopenai.Reply{Text: "All green."},
//	})
//	api.Enqueue(fakeopenai.Reply{Status: 500})
//
// The script, the request log and the server's lifecycle are the shared
// ones of internal/rig/fakeserver, which Server embeds; this package owns
// the Responses API's wire format. A request is answered by the first
// source that has a reply, in this order: the Next of the tool call whose
// output it carries, the HandleFunc and Handle rules in the order they were
// added, the queue (fresh user turns only), and the default reply. A retry
// of a request that got an error (Codex resends the same JSON, its keys in
// another order) gets the same error, so a scripted failure is what the
// screen shows even with retries left.
//
// "What the user typed last" is the last input_text of the last input
// item with role user: Codex sends the whole conversation every time, with
// its environment context as a user message of its own before the first
// prompt.
//
// fakeopenai is test support: it imports nothing of codeman but
// fakeserver, and nothing but tests and test helpers may import it.
package fakeopenai
