package fakeserver

import "crypto/sha256"

// Format is what sets a wire format apart, as far as the shared parts
// care. Every field must be set except RetryKey.
type Format[Req Entry, Rep any] struct {
	// Name names the format's package in the errors the server itself
	// reports ("fakeapi").
	Name string
	// Default answers what nothing else answers until SetDefault; Title
	// answers the title side request.
	Default, Title Rep
	// ToolResults returns the ids of the tool calls whose results req
	// carries. A request that carries none is a fresh user turn.
	ToolResults func(req Req) []string
	// Sticks reports whether a retry of a request answered with r gets r
	// again: an error that does not lapse by itself.
	Sticks func(r Rep) bool
	// ToolCall reports whether r calls a tool, and the reply that answers
	// the request carrying that call's result (nil for none).
	ToolCall func(r Rep) (calls bool, next *Rep)
	// CallPrefix starts the id of every tool call ("toolu_fake"); a random
	// number follows it.
	CallPrefix string
	// RetryKey identifies a request body, so that a request with the key of
	// one that got an error counts as its retry. Default the SHA-256 of the
	// bytes.
	RetryKey func(body []byte) [32]byte
}

// retryKey returns the key of body.
func (f *Format[Req, Rep]) retryKey(body []byte) [32]byte {
	if f.RetryKey != nil {
		return f.RetryKey(body)
	}
	return sha256.Sum256(body)
}
