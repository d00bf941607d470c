package fakeapi

import (
	"context"
	"net/http"
	"unicode/utf8"

	"github.com/codeman-dev/codeman/internal/rig/fakeserver"
)

// ping returns what sends ev a ping event.
func ping(ev *fakeserver.SSE) func() error {
	return func() error { return ev.Send("ping", map[string]string{"type": "ping"}) }
}

// stream answers a stream request the way the Messages API does:
// message_start, the content blocks (thinking, text, tool_use) each as
// start/delta/stop, message_delta with the stop reason, message_stop.
// A write error means the client left; the handler just ends.
func (s *Server) stream(ctx context.Context, w http.ResponseWriter, req Request, a answer) {
	w.Header().Set("request-id", s.b.NewID("req_fake"))
	ev := fakeserver.StartSSE(w)
	r := a.Reply
	if ev.Send("message_start", map[string]any{"type": "message_start", "message": s.messageHead(req)}) != nil ||
		s.wait(ctx, r.Delay, ping(ev)) != nil {
		return
	}
	index := 0
	if r.Thinking != "" {
		if streamThinking(ev, index, r.Thinking) != nil {
			return
		}
		index++
	}
	if len(r.chunks()) > 0 {
		if s.streamText(ctx, ev, index, r) != nil || r.MidStreamError {
			return
		}
		index++
	}
	if r.MidStreamError {
		s.streamError(ev)
		return
	}
	stop := "end_turn"
	if r.Tool != nil {
		if streamTool(ev, index, a.CallID, r.Tool) != nil {
			return
		}
		stop = "tool_use"
	}
	streamEnd(ev, stop, outputTokens(r))
}

// streamThinking sends a thinking block with its signature.
func streamThinking(ev *fakeserver.SSE, index int, thinking string) error {
	return sendAll(ev,
		blockStart(index, map[string]any{"type": "thinking", "thinking": "", "signature": ""}),
		blockDelta(index, map[string]any{"type": "thinking_delta", "thinking": thinking}),
		blockDelta(index, map[string]any{"type": "signature_delta", "signature": fakeSignature}),
		blockStop(index),
	)
}

// streamText sends the text block piece by piece, pausing before each
// piece as its Chunk says. With MidStreamError the block is left open and
// an error event follows the last piece.
func (s *Server) streamText(ctx context.Context, ev *fakeserver.SSE, index int, r Reply) error {
	if err := sendAll(ev, blockStart(index, map[string]any{"type": "text", "text": ""})); err != nil {
		return err
	}
	for _, c := range r.chunks() {
		if err := s.wait(ctx, c.Pause, ping(ev)); err != nil {
			return err
		}
		if c.Text == "" {
			continue
		}
		if err := sendAll(ev, blockDelta(index, map[string]any{"type": "text_delta", "text": c.Text})); err != nil {
			return err
		}
	}
	if r.MidStreamError {
		s.streamError(ev)
		return nil
	}
	return sendAll(ev, blockStop(index))
}

// streamError breaks the stream off with an error event.
func (s *Server) streamError(ev *fakeserver.SSE) {
	ev.Send("error", errorBody(http.StatusInternalServerError, "", "")) // the stream ends here either way
}

// streamTool sends a tool_use block whose input arrives as two
// input_json_delta pieces, as the real API splits it.
func streamTool(ev *fakeserver.SSE, index int, id string, tc *ToolCall) error {
	input, err := toolInput(tc)
	if err != nil {
		return err
	}
	first, rest := splitRunes(string(input))
	events := []event{blockStart(index, map[string]any{"type": "tool_use", "id": id, "name": tc.Name, "input": map[string]any{}})}
	for _, part := range []string{first, rest} {
		if part != "" {
			events = append(events, blockDelta(index, map[string]any{"type": "input_json_delta", "partial_json": part}))
		}
	}
	return sendAll(ev, append(events, blockStop(index))...)
}

// streamEnd sends message_delta and message_stop.
func streamEnd(ev *fakeserver.SSE, stopReason string, outputTokens int) error {
	return sendAll(ev,
		event{"message_delta", map[string]any{
			"type":  "message_delta",
			"delta": map[string]any{"stop_reason": stopReason, "stop_sequence": nil},
			"usage": map[string]int{"output_tokens": outputTokens},
		}},
		event{"message_stop", map[string]string{"type": "message_stop"}},
	)
}

// event is one SSE event waiting to be sent.
type event struct {
	name string
	data any
}

func blockStart(index int, block map[string]any) event {
	return event{"content_block_start", map[string]any{"type": "content_block_start", "index": index, "content_block": block}}
}

func blockDelta(index int, delta map[string]any) event {
	return event{"content_block_delta", map[string]any{"type": "content_block_delta", "index": index, "delta": delta}}
}

func blockStop(index int) event {
	return event{"content_block_stop", map[string]any{"type": "content_block_stop", "index": index}}
}

// sendAll sends events in order and stops at the first error.
func sendAll(ev *fakeserver.SSE, events ...event) error {
	for _, e := range events {
		if err := ev.Send(e.name, e.data); err != nil {
			return err
		}
	}
	return nil
}

// splitRunes cuts s in two halves on a rune boundary.
func splitRunes(s string) (string, string) {
	mid := len(s) / 2
	for mid > 0 && !utf8.RuneStart(s[mid]) {
		mid--
	}
	return s[:mid], s[mid:]
}
