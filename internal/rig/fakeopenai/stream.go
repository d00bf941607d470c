package fakeopenai

import (
	"context"
	"net/http"

	"github.com/codeman-dev/codeman/internal/rig/fakeserver"
)

// sseWriter writes the Responses API's server-sent events, each numbered.
type sseWriter struct {
	sse *fakeserver.SSE
	seq int // sequence_number of the next event
}

// send writes one event of the given type; data gets "type" and
// "sequence_number" added.
func (e *sseWriter) send(typ string, data map[string]any) error {
	data["type"] = typ
	data["sequence_number"] = e.seq
	e.seq++
	return e.sse.Send(typ, data)
}

// stream answers a request the way the Responses API streams:
// response.created, then each output item (the assistant message, a tool
// call) as added/deltas/done, then response.completed with the usage, or
// response.failed. response.completed lists the output items again, as
// the real API does (the GitHub Copilot CLI takes a turn's answer from
// there). A write error means the client left; the handler just ends.
func (s *Server) stream(ctx context.Context, w http.ResponseWriter, req Request, a answer) {
	w.Header().Set("x-request-id", s.b.NewID("req_fake"))
	ev := &sseWriter{sse: fakeserver.StartSSE(w)}
	r := a.Reply
	resp := s.responseHead(req)
	if ev.send("response.created", map[string]any{"response": resp}) != nil || s.wait(ctx, r.Delay) != nil {
		return
	}
	var output []any
	if len(r.chunks()) > 0 {
		item, err := s.streamMessage(ctx, ev, len(output), r)
		if err != nil {
			return
		}
		output = append(output, item)
	}
	if r.Failed != nil {
		resp["status"] = "failed"
		resp["error"] = map[string]any{"code": r.Failed.Code, "message": r.Failed.Message}
		ev.send("response.failed", map[string]any{"response": resp}) // the stream ends here either way
		return
	}
	if r.Tool != nil {
		item, err := s.streamTool(ev, len(output), a.CallID, r.Tool)
		if err != nil {
			return
		}
		output = append(output, item)
	}
	resp["status"], resp["output"] = "completed", append([]any{}, output...)
	resp["usage"] = usage(req, r)
	ev.send("response.completed", map[string]any{"response": resp}) // the stream ends here either way
}

// responseHead is the response object response.created carries.
func (s *Server) responseHead(req Request) map[string]any {
	return map[string]any{
		"id":     s.b.NewID("resp_fake"),
		"object": "response",
		"status": "in_progress",
		"model":  req.Model,
		"output": []any{},
	}
}

// streamMessage sends the assistant message piece by piece, pausing
// before each piece as its Chunk says, then the whole message as done,
// which it returns.
func (s *Server) streamMessage(ctx context.Context, ev *sseWriter, index int, r Reply) (map[string]any, error) {
	id := s.b.NewID("msg_fake")
	added := map[string]any{"type": "message", "id": id, "role": "assistant", "status": "in_progress", "content": []any{}}
	if err := ev.send("response.output_item.added", map[string]any{"output_index": index, "item": added}); err != nil {
		return nil, err
	}
	for _, c := range r.chunks() {
		if err := s.wait(ctx, c.Pause); err != nil {
			return nil, err
		}
		if c.Text == "" {
			continue
		}
		delta := map[string]any{"item_id": id, "output_index": index, "content_index": 0, "delta": c.Text}
		if err := ev.send("response.output_text.delta", delta); err != nil {
			return nil, err
		}
	}
	done := map[string]any{"type": "message", "id": id, "role": "assistant", "status": "completed",
		"content": []any{map[string]any{"type": "output_text", "text": r.text(), "annotations": []any{}}}}
	return done, ev.send("response.output_item.done", map[string]any{"output_index": index, "item": done})
}

// streamTool sends a tool call item as added and done, and returns it.
func (s *Server) streamTool(ev *sseWriter, index int, callID string, tc *ToolCall) (map[string]any, error) {
	id := s.b.NewID("fc_fake")
	item := map[string]any{"id": id, "call_id": callID, "name": tc.Name, "status": "in_progress"}
	done := map[string]any{"id": id, "call_id": callID, "name": tc.Name, "status": "completed"}
	if tc.Custom {
		item["type"], item["input"] = "custom_tool_call", ""
		done["type"], done["input"] = "custom_tool_call", tc.Input
	} else {
		args, err := tc.arguments()
		if err != nil {
			return nil, err
		}
		item["type"], item["arguments"] = "function_call", ""
		done["type"], done["arguments"] = "function_call", args
	}
	if err := ev.send("response.output_item.added", map[string]any{"output_index": index, "item": item}); err != nil {
		return nil, err
	}
	return done, ev.send("response.output_item.done", map[string]any{"output_index": index, "item": done})
}

// usage is the token usage response.completed reports, estimated from the
// request and the reply at about four bytes a token.
func usage(req Request, r Reply) map[string]any {
	in := fakeserver.Tokens(len(req.Body))
	n := len(r.text())
	if r.Tool != nil {
		args, _ := r.Tool.arguments() // a bad argument list is answered as an error elsewhere
		n += len(args) + len(r.Tool.Input)
	}
	out := fakeserver.Tokens(n)
	return map[string]any{
		"input_tokens":          in,
		"input_tokens_details":  map[string]int{"cached_tokens": 0},
		"output_tokens":         out,
		"output_tokens_details": map[string]int{"reasoning_tokens": 0},
		"total_tokens":          in + out,
	}
}
