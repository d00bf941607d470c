package fakeapi

import (
	"net/http"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/fakeserver"
)

// Reply is one scripted answer to a Messages API request.
type Reply struct {
	// Text is the assistant's text. Ignored when Chunks is set.
	Text string
	// Chunks streams the text in pieces, each after its own pause: a slow
	// stream, which keeps sending pings while it pauses. Without a stream
	// request the pieces are joined.
	Chunks []Chunk
	// Thinking, when set, comes first as a thinking block.
	Thinking string
	// Delay is the wait before the answer. A stream starts at once and
	// sends pings while it waits, as the real API does; an error or a JSON
	// answer is just late.
	Delay time.Duration
	// Tool ends the message with a tool call (stop_reason tool_use).
	Tool *ToolCall
	// Next answers the request that carries Tool's result. Without it the
	// continuation is answered like any other request.
	Next *Reply

	// Status, when not 0 or 200, makes the answer an HTTP error with an
	// Anthropic-style body (429, 500, 529, 400, 401, ...).
	Status int
	// ErrorMessage replaces the status's default error message.
	ErrorMessage string
	// UsageLimit adds the anthropic-ratelimit-unified-* headers to a 429,
	// which Claude Code shows as a subscription usage limit when it runs
	// with an OAuth token (docs/claude-code.md).
	UsageLimit *UsageLimit
	// MidStreamError streams the text and then an SSE error event instead
	// of finishing the message.
	MidStreamError bool

	// lapses marks an error whose rule decides each request afresh (a
	// usage limit that resets), so a retry is not held to it.
	lapses bool
}

// Chunk is one piece of a slow stream.
type Chunk = fakeserver.Chunk

// ToolCall is a tool_use block. Name is a Claude Code tool such as Bash,
// Write, AskUserQuestion, ExitPlanMode or Agent; Input its arguments, which
// must marshal to a JSON object (nil sends {}).
type ToolCall struct {
	Name  string
	Input any
}

// UsageLimit describes the unified rate limit a 429 reports.
type UsageLimit struct {
	Claim   string    // representative claim: "five_hour" (default) or "seven_day"
	ResetAt time.Time // when the limit resets; zero means in an hour
}

// DefaultText answers every request nothing else answered, unless
// SetDefault chose another reply.
const DefaultText = "Hello from the fake Anthropic API."

// TitleText is the answer to Claude Code's session title side request.
const TitleText = `{"title":"Fake session"}`

// text returns the reply's whole text.
func (r *Reply) text() string { return fakeserver.Join(r.Text, r.Chunks) }

// chunks returns the pieces to stream.
func (r *Reply) chunks() []Chunk { return fakeserver.Pieces(r.Text, r.Chunks) }

// failed reports whether the reply is an HTTP error.
func (r *Reply) failed() bool {
	return r.Status != 0 && r.Status != http.StatusOK
}
