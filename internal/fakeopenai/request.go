package fakeopenai

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// Request is what the server keeps of one request it answered.
type Request struct {
	At     time.Time
	Method string
	Path   string // without the query
	Model  string
	// LastUserText is the last input_text of the last input item with role
	// user: what was typed, or the prompt Codex built for it (/init).
	LastUserText string
	Tools        []string // names of the tools offered
	// ToolOutput is set when tool outputs follow the last user message:
	// the request continues a tool loop. CallIDs lists their call ids.
	ToolOutput bool
	CallIDs    []string
	Stream     bool
	Title      bool // the task title side request
	// Retry is set when the body is the same as that of an earlier request
	// that got an error: Codex retrying it.
	Retry  bool
	Status int // the HTTP status answered
	Header http.Header
	Body   []byte
}

// HasTool reports whether the request offered the named tool.
func (r Request) HasTool(name string) bool {
	for _, t := range r.Tools {
		if t == name {
			return true
		}
	}
	return false
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
