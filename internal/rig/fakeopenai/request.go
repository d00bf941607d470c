package fakeopenai

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/codeman-dev/codeman/internal/rig/fakeserver"
)

// Request is what the server keeps of one request it answered. Its
// LastUserText is the last input_text of the last input item with role
// user: what was typed, or the prompt Codex built for it (/init). Title
// marks the task title side request.
type Request struct {
	fakeserver.Request
	// ToolOutput is set when tool outputs follow the last user message:
	// the request continues a tool loop. CallIDs lists their call ids.
	ToolOutput bool
	CallIDs    []string
}

// UserTurn returns a predicate for WaitForRequest: a fresh user turn (not
// a tool loop continuation, not the title request) whose last user text
// contains substr.
func UserTurn(substr string) func(Request) bool {
	return func(r Request) bool {
		return !r.ToolOutput && !r.Title && r.Path == "/v1/responses" && strings.Contains(r.LastUserText, substr)
	}
}

// responsesBody is the part of a Responses API request body the server
// reads.
type responsesBody struct {
	Model  string      `json:"model"`
	Input  []inputItem `json:"input"`
	Stream bool        `json:"stream"`
	Tools  []struct {
		Type string `json:"type"`
		Name string `json:"name"`
	} `json:"tools"`
	Text struct {
		Format *struct {
			Type   string `json:"type"`
			Schema struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"schema"`
		} `json:"format"`
	} `json:"text"`
}

// inputItem is one item of the conversation a request carries.
type inputItem struct {
	Type    string `json:"type"`
	Role    string `json:"role"`
	CallID  string `json:"call_id"`
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
}

// parseResponses fills req's fields from a request body.
func parseResponses(req *Request, body []byte) error {
	var b responsesBody
	if err := json.Unmarshal(body, &b); err != nil {
		return fmt.Errorf("decode responses request: %w", err)
	}
	req.Model = b.Model
	req.Stream = b.Stream
	for _, t := range b.Tools {
		name := t.Name
		if name == "" {
			name = t.Type // hosted tools (web_search) have only a type
		}
		req.Tools = append(req.Tools, name)
	}
	if f := b.Text.Format; f != nil && f.Type == "json_schema" {
		_, req.Title = f.Schema.Properties["title"]
	}
	last := -1
	for i, it := range b.Input {
		if it.Type == "message" && it.Role == "user" {
			last = i
		}
	}
	if last < 0 {
		return nil
	}
	for _, c := range b.Input[last].Content {
		if c.Type == "input_text" {
			req.LastUserText = c.Text
		}
	}
	for _, it := range b.Input[last+1:] {
		if it.Type == "function_call_output" || it.Type == "custom_tool_call_output" {
			req.ToolOutput = true
			req.CallIDs = append(req.CallIDs, it.CallID)
		}
	}
	return nil
}
