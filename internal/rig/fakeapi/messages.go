package fakeapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/codeman-dev/codeman/internal/rig/fakeserver"
)

// defaultModel stands in when a request names none.
const defaultModel = "claude-opus-5-5"

// serveMessages answers POST /v1/messages: log, pick a reply, answer it.
func (s *Server) serveMessages(w http.ResponseWriter, r *http.Request) {
	body, err := fakeserver.ReadBody(w, r)
	req := s.newRequest(r, body, http.StatusOK)
	if err == nil {
		err = parseMessages(&req, body)
	}
	if err != nil {
		req.Status = http.StatusBadRequest
		s.b.Record(req)
		s.writeError(w, &Reply{Status: http.StatusBadRequest, ErrorMessage: err.Error()})
		return
	}
	a := s.b.Choose(req)
	req.Retry = a.Retry
	if a.Reply.MidStreamError && !req.Stream && !a.Reply.failed() {
		a.Reply.Status = http.StatusInternalServerError // a JSON answer cannot break off midway
	}
	if a.Reply.Tool != nil && !a.Reply.failed() {
		if _, err := toolInput(a.Reply.Tool); err != nil {
			// A script bug: say so in Claude's error line rather than
			// break a stream off halfway.
			a.Reply = Reply{Status: http.StatusInternalServerError, ErrorMessage: "fakeapi: " + err.Error()}
		}
	}
	if a.Reply.failed() {
		req.Status = a.Reply.Status
	}
	s.b.Record(req)
	ctx := r.Context()
	switch {
	case a.Reply.failed():
		if s.wait(ctx, a.Reply.Delay, nil) == nil {
			s.writeError(w, &a.Reply)
		}
	case req.Stream:
		s.stream(ctx, w, req, a)
	default:
		if s.wait(ctx, a.Reply.Delay, nil) == nil {
			s.writeMessage(w, req, a)
		}
	}
}

// writeMessage answers with the whole message as one JSON object.
func (s *Server) writeMessage(w http.ResponseWriter, req Request, a answer) {
	m := s.messageHead(req)
	var content []any
	if a.Reply.Thinking != "" {
		content = append(content, map[string]any{"type": "thinking", "thinking": a.Reply.Thinking, "signature": fakeSignature})
	}
	if text := a.Reply.text(); text != "" {
		content = append(content, map[string]any{"type": "text", "text": text})
	}
	stop := "end_turn"
	if a.Reply.Tool != nil {
		input, _ := toolInput(a.Reply.Tool) // checked in serveMessages
		content = append(content, map[string]any{"type": "tool_use", "id": a.CallID, "name": a.Reply.Tool.Name, "input": input})
		stop = "tool_use"
	}
	m["content"] = content
	m["stop_reason"] = stop
	m["usage"] = map[string]int{"input_tokens": fakeserver.Tokens(len(req.Body)), "output_tokens": outputTokens(a.Reply)}
	w.Header().Set("request-id", s.b.NewID("req_fake"))
	if err := fakeserver.WriteJSON(w, http.StatusOK, m); err != nil {
		s.writeError(w, &Reply{Status: http.StatusInternalServerError, ErrorMessage: err.Error()})
	}
}

// messageHead is a message without content, as message_start carries it.
func (s *Server) messageHead(req Request) map[string]any {
	model := req.Model
	if model == "" {
		model = defaultModel
	}
	return map[string]any{
		"id":            s.b.NewID("msg_fake"),
		"type":          "message",
		"role":          "assistant",
		"model":         model,
		"content":       []any{},
		"stop_reason":   nil,
		"stop_sequence": nil,
		"usage":         map[string]int{"input_tokens": fakeserver.Tokens(len(req.Body)), "output_tokens": 1},
	}
}

// fakeSignature signs thinking blocks; Claude Code keeps it but never
// checks it.
const fakeSignature = "fake-signature"

// toolInput marshals a tool call's input, which must be a JSON object.
func toolInput(tc *ToolCall) (json.RawMessage, error) {
	if tc.Input == nil {
		return json.RawMessage("{}"), nil
	}
	data, err := json.Marshal(tc.Input)
	if err != nil {
		return nil, fmt.Errorf("marshal %s input: %w", tc.Name, err)
	}
	if !bytes.HasPrefix(data, []byte("{")) {
		return nil, fmt.Errorf("marshal %s input: not a JSON object: %s", tc.Name, data)
	}
	return data, nil
}

// outputTokens estimates a reply's output tokens.
func outputTokens(r Reply) int {
	n := len(r.text()) + len(r.Thinking)
	if r.Tool != nil {
		data, _ := toolInput(r.Tool) // a bad input is answered as an error elsewhere
		n += len(data)
	}
	return fakeserver.Tokens(n)
}
