package fakeopenai_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/codeman-dev/codeman/internal/rig/fakeserver"
)

// codexTools are the tools an interactive Codex 0.171.0 request offers
// with the gpt-5.5 model (docs/codex.md, "Running it offline").
var codexTools = []any{
	map[string]any{"type": "function", "name": "exec_command"},
	map[string]any{"type": "function", "name": "write_stdin"},
	map[string]any{"type": "custom", "name": "apply_patch"},
	map[string]any{"type": "web_search"},
}

// turnBody builds a request body shaped like Codex's: developer messages,
// the environment context as a user message of its own, then the typed
// text, and client_metadata whose key order the caller chooses.
func turnBody(typed string, extra ...any) map[string]any {
	input := []any{
		message("developer", "input_text", "You are Codex, a coding agent."),
		message("user", "input_text", "<environment_context>\n  <cwd>/proj</cwd>\n</environment_context>"),
		message("user", "input_text", typed),
	}
	return map[string]any{
		"model":           "gpt-5.5",
		"stream":          true,
		"input":           append(input, extra...),
		"tools":           codexTools,
		"tool_choice":     "auto",
		"client_metadata": map[string]any{"session_id": "s1", "turn_id": "t1"},
	}
}

// continuationBody builds the request that carries a function call's
// output.
func continuationBody(typed, callID string) map[string]any {
	return turnBody(typed,
		map[string]any{"type": "function_call", "call_id": callID, "name": "exec_command", "arguments": "{}"},
		map[string]any{"type": "function_call_output", "call_id": callID, "output": "hi"},
	)
}

// titleBody builds the task title side request: a JSON schema output
// format with a title property.
func titleBody(typed string) map[string]any {
	b := turnBody("Generate a concise, single-line task title.\n\nUser prompt:\n" + typed)
	b["tools"] = []any{map[string]any{"type": "custom", "name": "apply_patch"}}
	b["text"] = map[string]any{"format": map[string]any{
		"type": "json_schema", "name": "codex_output_schema",
		"schema": map[string]any{"type": "object", "properties": map[string]any{"title": map[string]any{"type": "string"}}},
	}}
	return b
}

func message(role, kind, text string) map[string]any {
	return map[string]any{"type": "message", "role": role, "content": []any{map[string]any{"type": kind, "text": text}}}
}

// post sends body to the server's responses endpoint the way Codex does
// and returns the response.
func post(t *testing.T, base string, body any) *http.Response {
	t.Helper()
	data, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	return postRaw(t, base, data)
}

func postRaw(t *testing.T, base string, data []byte) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, base+"/responses", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Authorization", "Bearer sk-fake")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// sseEvent is one parsed server-sent event.
type sseEvent = fakeserver.Event

// readEvents parses a whole SSE response body, checking that each event's
// name matches the type in its data, as Codex's parser reads the type.
func readEvents(t *testing.T, r io.Reader) []sseEvent {
	t.Helper()
	events, err := fakeserver.ReadEvents(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		if e.Data["type"] != e.Name {
			t.Errorf("event %s carries type %v", e.Name, e.Data["type"])
		}
	}
	return events
}

// names lists the events' names.
func names(events []sseEvent) []string {
	var out []string
	for _, e := range events {
		out = append(out, e.Name)
	}
	return out
}

// response rebuilds what a stream carried: the text from the deltas, the
// final message text, the tool call, and how it ended.
type response struct {
	Deltas, Text         string
	CallType, CallID     string
	CallName, Arguments  string
	Input                string
	Status, ErrorCode    string
	OutputTokens, Events int
}

func assemble(t *testing.T, events []sseEvent) response {
	t.Helper()
	var r response
	r.Events = len(events)
	for _, e := range events {
		switch e.Name {
		case "response.output_text.delta":
			r.Deltas += e.Data["delta"].(string)
		case "response.output_item.done":
			item := e.Data["item"].(map[string]any)
			switch item["type"] {
			case "message":
				for _, c := range item["content"].([]any) {
					r.Text += c.(map[string]any)["text"].(string)
				}
			case "function_call", "custom_tool_call":
				r.CallType, r.CallID, r.CallName = item["type"].(string), item["call_id"].(string), item["name"].(string)
				r.Arguments, _ = item["arguments"].(string)
				r.Input, _ = item["input"].(string)
			}
		case "response.completed", "response.failed":
			resp := e.Data["response"].(map[string]any)
			r.Status = resp["status"].(string)
			if u, ok := resp["usage"].(map[string]any); ok {
				r.OutputTokens = int(u["output_tokens"].(float64))
			}
			if er, ok := resp["error"].(map[string]any); ok {
				r.ErrorCode = er["code"].(string)
			}
		}
	}
	return r
}
