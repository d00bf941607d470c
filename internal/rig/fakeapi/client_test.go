package fakeapi_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/internal/rig/fakeserver"
)

// claudeTools are the tools an interactive Claude Code 2.1.328 request
// offers (docs/claude-code.md, "Running it offline").
var claudeTools = []string{"Agent", "AskUserQuestion", "Bash", "Edit", "ListAgents", "Read",
	"ReportFindings", "ScheduleWakeup", "Skill", "ToolSearch", "Workflow", "DeferredToolPlaceholder", "Write"}

// turnBody builds a request body shaped like Claude Code's: the user
// message holds a <system-reminder> block and then the typed text, and a
// role "system" message follows it.
func turnBody(stream bool, typed string) map[string]any {
	return map[string]any{
		"model": "claude-opus-5-5",
		"messages": []any{
			userMessage(textBlock("<system-reminder>\nAttribution for git commits\n</system-reminder>"), textBlock(typed)),
			systemMessage(),
		},
		"tools":         toolList(claudeTools...),
		"max_tokens":    128000,
		"output_config": map[string]any{"effort": "medium"},
		"stream":        stream,
	}
}

// continuationBody builds the request that carries a tool's result.
func continuationBody(typed, toolUseID string) map[string]any {
	b := turnBody(true, typed)
	b["messages"] = []any{
		userMessage(textBlock(typed)),
		map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": toolUseID, "name": "Bash", "input": map[string]any{}}}},
		userMessage(map[string]any{"type": "tool_result", "tool_use_id": toolUseID, "content": "hi"}),
		systemMessage(),
	}
	return b
}

// titleBody builds the session title side request: no tools and a JSON
// schema output format.
func titleBody() map[string]any {
	return map[string]any{
		"model":         "claude-haiku-5-5",
		"messages":      []any{userMessage(textBlock("hello there"))},
		"output_config": map[string]any{"format": map[string]any{"type": "json_schema", "schema": map[string]any{"type": "object"}}},
		"stream":        false,
	}
}

func textBlock(s string) map[string]any { return map[string]any{"type": "text", "text": s} }

func userMessage(blocks ...any) map[string]any {
	return map[string]any{"role": "user", "content": blocks}
}

func systemMessage() map[string]any {
	return map[string]any{"role": "system", "content": []any{textBlock("# Environment\nYou have been invoked in the following environment")}}
}

func toolList(names ...string) []any {
	var tools []any
	for _, n := range names {
		tools = append(tools, map[string]any{"name": n, "input_schema": map[string]any{"type": "object"}})
	}
	return tools
}

// post sends body to the server's messages endpoint the way Claude Code
// does (?beta=true) and returns the response.
func post(t *testing.T, base string, body any, header ...string) *http.Response {
	t.Helper()
	data, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, base+"/v1/messages?beta=true", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("content-type", "application/json")
	req.Header.Set("anthropic-version", "2023-06-01")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// sseEvent is one parsed server-sent event.
type sseEvent = fakeserver.Event

// readEvents parses a whole SSE response body.
func readEvents(t *testing.T, r io.Reader) []sseEvent {
	t.Helper()
	events, err := fakeserver.ReadEvents(r)
	if err != nil {
		t.Fatal(err)
	}
	return events
}

// nextEvent reads one event from a live stream.
func nextEvent(t *testing.T, sc *bufio.Scanner) sseEvent {
	t.Helper()
	e, err := fakeserver.ReadEvent(sc)
	if err != nil {
		t.Fatalf("stream ended: %v", err)
	}
	return e
}

// names lists the events' names.
func names(events []sseEvent) []string {
	var out []string
	for _, e := range events {
		out = append(out, e.Name)
	}
	return out
}

// message rebuilds the streamed message: the text, the tool call and its
// input, the thinking, and the stop reason.
type message struct {
	Text, Thinking, ToolID, ToolName, StopReason string
	ToolInput                                    map[string]any
}

func assemble(t *testing.T, events []sseEvent) message {
	t.Helper()
	var m message
	var partial strings.Builder
	for _, e := range events {
		switch e.Name {
		case "content_block_start":
			if b := e.Data["content_block"].(map[string]any); b["type"] == "tool_use" {
				m.ToolID, m.ToolName = b["id"].(string), b["name"].(string)
			}
		case "content_block_delta":
			d := e.Data["delta"].(map[string]any)
			switch d["type"] {
			case "text_delta":
				m.Text += d["text"].(string)
			case "thinking_delta":
				m.Thinking += d["thinking"].(string)
			case "input_json_delta":
				partial.WriteString(d["partial_json"].(string))
			}
		case "message_delta":
			m.StopReason, _ = e.Data["delta"].(map[string]any)["stop_reason"].(string)
		}
	}
	if partial.Len() > 0 {
		if err := json.Unmarshal([]byte(partial.String()), &m.ToolInput); err != nil {
			t.Fatalf("tool input %q: %v", partial.String(), err)
		}
	}
	return m
}
