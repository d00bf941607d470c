package fakeopenai

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/fakeserver"
)

// Reply is one scripted answer to a Responses API request.
type Reply struct {
	// Text is the assistant's message. Ignored when Chunks is set.
	Text string
	// Chunks streams the message in pieces, each after its own pause: a
	// slow stream.
	Chunks []Chunk
	// Delay is the wait before the stream starts (after response.created,
	// so Codex shows its working status meanwhile); an HTTP error is just
	// late.
	Delay time.Duration
	// Tool ends the response with a tool call. Codex runs it (after an
	// approval when its policy asks) and sends the output in a new request.
	Tool *ToolCall
	// Next answers the request that carries Tool's output. Without it the
	// continuation is answered like any other request.
	Next *Reply

	// Status, when not 0 or 200, makes the answer an HTTP error with an
	// OpenAI-style body: 500 (internal error), 503 (overloaded), 429 (a
	// rate limit, or with UsageLimit a usage limit), 400, 401, ...
	Status int
	// ErrorMessage replaces the status's default error message.
	ErrorMessage string
	// UsageLimit makes a 429 the usage_limit_reached error of a ChatGPT
	// plan, with its rate limit headers, which Codex shows as a usage
	// limit rather than an API error.
	UsageLimit *UsageLimit
	// Failed streams the text and then ends the response with a
	// response.failed event carrying this error instead of
	// response.completed.
	Failed *Failure
}

// Chunk is one piece of a slow stream.
type Chunk = fakeserver.Chunk

// ToolCall is an output item that calls one of Codex's tools: a
// function_call with JSON Arguments (exec_command, update_plan, ...), or
// with Custom a custom_tool_call whose Input is free text (apply_patch).
type ToolCall struct {
	Name string
	// Arguments must marshal to a JSON object; nil sends {}.
	Arguments any
	Custom    bool
	Input     string
}

// Shell is an exec_command call running cmd in Codex's sandbox, which
// Codex runs without asking when its approval policy allows that.
func Shell(cmd string) *ToolCall {
	return &ToolCall{Name: "exec_command", Arguments: map[string]any{"cmd": cmd}}
}

// EscalatedShell is an exec_command call that asks to run cmd outside the
// sandbox, with justification as the question shown to the user: under the
// on-request approval policy Codex asks before running it.
func EscalatedShell(cmd, justification string) *ToolCall {
	return &ToolCall{Name: "exec_command", Arguments: map[string]any{
		"cmd":                 cmd,
		"sandbox_permissions": "require_escalated",
		"justification":       justification,
	}}
}

// ApplyPatch is an apply_patch call with patch in Codex's patch format
// ("*** Begin Patch" ... "*** End Patch").
func ApplyPatch(patch string) *ToolCall {
	return &ToolCall{Name: "apply_patch", Custom: true, Input: patch}
}

// UsageLimit describes the usage limit a 429 reports.
type UsageLimit struct {
	// PlanType is the ChatGPT plan named in the error ("plus", "pro",
	// "team", "free", ...); default "plus". Codex words the message by it.
	PlanType string
	// ResetAt is when the limit resets; zero means in an hour.
	ResetAt time.Time
	// Weekly reports the weekly (secondary) window as the one used up
	// instead of the 5-hour (primary) one.
	Weekly bool
}

// Failure is the error of a response.failed event. Code is the API's
// error code: rate_limit_exceeded, server_is_overloaded,
// context_length_exceeded, insufficient_quota, ... (Codex retries all but
// the last two like a dropped stream).
type Failure struct {
	Code    string
	Message string
}

// DefaultText answers every request nothing else answered, unless
// SetDefault chose another reply.
const DefaultText = "Hello from the fake OpenAI API."

// TitleText is the answer to Codex's task title side request.
const TitleText = `{"title":"Fake task"}`

// text returns the reply's whole text.
func (r *Reply) text() string { return fakeserver.Join(r.Text, r.Chunks) }

// chunks returns the pieces to stream.
func (r *Reply) chunks() []Chunk { return fakeserver.Pieces(r.Text, r.Chunks) }

// failed reports whether the reply is an HTTP error.
func (r *Reply) failed() bool {
	return r.Status != 0 && r.Status != http.StatusOK
}

// arguments marshals a function call's arguments, which must be a JSON
// object; the API sends them as a JSON string.
func (tc *ToolCall) arguments() (string, error) {
	if tc.Arguments == nil {
		return "{}", nil
	}
	data, err := json.Marshal(tc.Arguments)
	if err != nil {
		return "", fmt.Errorf("marshal %s arguments: %w", tc.Name, err)
	}
	if !strings.HasPrefix(string(data), "{") {
		return "", fmt.Errorf("marshal %s arguments: not a JSON object: %s", tc.Name, data)
	}
	return string(data), nil
}
