package fakeapi

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/codeman-dev/codeman/internal/rig/fakeserver"
)

// Request is what the server keeps of one request it answered. Its
// LastUserText is the last text block of the last message with role user:
// what was typed, or the prompt Claude Code built for it (/init, a
// <task-notification>, a subagent's task). Title marks the session title
// side request.
type Request struct {
	fakeserver.Request
	// ToolResult is set when the last user message carries tool_result
	// blocks: the request continues a tool loop. ToolUseIDs lists them.
	ToolResult bool
	ToolUseIDs []string
}

// UserText returns a predicate for WaitForRequest: a fresh turn whose last
// user text contains substr.
func UserText(substr string) func(Request) bool {
	return func(r Request) bool {
		return !r.ToolResult && !r.Title && r.Path == "/v1/messages" && strings.Contains(r.LastUserText, substr)
	}
}

// planPathPattern finds the plan file Claude Code's plan-mode reminder asks
// for (`…create your plan at /home/dev/.claude/plans/cozy-petting-rivest.md
// using the Write tool`); in 2.1.328 ExitPlanMode shows the approval menu
// only once that file exists (docs/claude-code.md).
var planPathPattern = regexp.MustCompile(`/[^\s"\\]*/\.claude/plans/[^\s"\\]+\.md`)

// PlanFilePath returns the plan file path named in the request, or "" when
// the request is not made in plan mode.
func (r Request) PlanFilePath() string {
	return string(planPathPattern.Find(r.Body))
}

// messagesBody is the part of a Messages API request body the server reads.
type messagesBody struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Name string `json:"name"`
	} `json:"tools"`
	Stream       bool `json:"stream"`
	OutputConfig struct {
		Format *struct {
			Type string `json:"type"`
		} `json:"format"`
	} `json:"output_config"`
}

// contentBlock is one block of a message's content.
type contentBlock struct {
	Type      string `json:"type"`
	Text      string `json:"text"`
	ToolUseID string `json:"tool_use_id"`
}

// parseMessages fills req's message fields from a request body.
func parseMessages(req *Request, body []byte) error {
	var b messagesBody
	if err := json.Unmarshal(body, &b); err != nil {
		return fmt.Errorf("decode messages request: %w", err)
	}
	req.Model = b.Model
	req.Stream = b.Stream
	for _, t := range b.Tools {
		req.Tools = append(req.Tools, t.Name)
	}
	req.Title = len(b.Tools) == 0 && b.OutputConfig.Format != nil &&
		b.OutputConfig.Format.Type == "json_schema"
	for i := len(b.Messages) - 1; i >= 0; i-- {
		if b.Messages[i].Role != "user" {
			continue
		}
		blocks, err := decodeContent(b.Messages[i].Content)
		if err != nil {
			return fmt.Errorf("decode message %d: %w", i, err)
		}
		readUserBlocks(req, blocks)
		break
	}
	return nil
}

// readUserBlocks takes the last text block and the tool results of the last
// user message.
func readUserBlocks(req *Request, blocks []contentBlock) {
	for _, bl := range blocks {
		switch bl.Type {
		case "text":
			req.LastUserText = bl.Text
		case "tool_result":
			req.ToolResult = true
			req.ToolUseIDs = append(req.ToolUseIDs, bl.ToolUseID)
		}
	}
}

// decodeContent accepts both forms of message content: a plain string or a
// list of blocks.
func decodeContent(raw json.RawMessage) ([]contentBlock, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return []contentBlock{{Type: "text", Text: s}}, nil
	}
	var blocks []contentBlock
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return nil, err
	}
	return blocks, nil
}
