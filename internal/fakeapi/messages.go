package fakeapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// maxBody caps a request body. Claude Code's first request is ~60 KB; a
// long session grows to a few MB.
const maxBody = 64 << 20

// defaultModel stands in when a request names none.
const defaultModel = "claude-opus-5-5"

// serveMessages answers POST /v1/messages: log, pick a reply, answer it.
func (s *Server) serveMessages(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	req := s.newRequest(r, body, http.StatusOK)
	if err != nil {
		err = fmt.Errorf("read request body: %w", err)
	} else {
		err = parseMessages(&req, body)
	}
	if err != nil {
		req.Status = http.StatusBadRequest
		s.record(req)
		s.writeError(w, &Reply{Status: http.StatusBadRequest, ErrorMessage: err.Error()})
		return
	}
	a := s.choose(req)
	req.Retry = a.retry
	if a.reply.MidStreamError && !req.Stream && !a.reply.failed() {
		a.reply.Status = http.StatusInternalServerError // a JSON answer cannot break off midway
	}
	if a.reply.Tool != nil && !a.reply.failed() {
		if _, err := toolInput(a.reply.Tool); err != nil {
			// A script bug: say so in Claude's error line rather than
			// break a stream off halfway.
			a.reply = Reply{Status: http.StatusInternalServerError, ErrorMessage: "fakeapi: " + err.Error()}
		}
	}
	if a.reply.failed() {
		req.Status = a.reply.Status
	}
	s.record(req)
	ctx := r.Context()
	switch {
	case a.reply.failed():
		if s.wait(ctx, a.reply.Delay, nil) == nil {
			s.writeError(w, &a.reply)
		}
	case req.Stream:
		s.stream(ctx, w, req, a)
	default:
		if s.wait(ctx, a.reply.Delay, nil) == nil {
			s.writeMessage(w, req, a)
		}
	}
}

// writeMessage answers with the whole message as one JSON object.
func (s *Server) writeMessage(w http.ResponseWriter, req Request, a answer) {
	m := s.messageHead(req)
	var content []any
	if a.reply.Thinking != "" {
		content = append(content, map[string]any{"type": "thinking", "thinking": a.reply.Thinking, "signature": fakeSignature})
	}
	if text := a.reply.text(); text != "" {
		content = append(content, map[string]any{"type": "text", "text": text})
	}
	stop := "end_turn"
	if a.reply.Tool != nil {
		input, _ := toolInput(a.reply.Tool) // checked in serveMessages
		content = append(content, map[string]any{"type": "tool_use", "id": a.toolID, "name": a.reply.Tool.Name, "input": input})
		stop = "tool_use"
	}
	m["content"] = content
	m["stop_reason"] = stop
	m["usage"] = map[string]int{"input_tokens": tokens(len(req.Body)), "output_tokens": outputTokens(a.reply)}
	data, err := json.Marshal(m)
	if err != nil {
		s.writeError(w, &Reply{Status: http.StatusInternalServerError, ErrorMessage: err.Error()})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("request-id", fmt.Sprintf("req_fake_%d", s.nextSeq()))
	w.Write(data) // the client may be gone; nothing to do then
}

// messageHead is a message without content, as message_start carries it.
func (s *Server) messageHead(req Request) map[string]any {
	model := req.Model
	if model == "" {
		model = defaultModel
	}
	return map[string]any{
		"id":            fmt.Sprintf("msg_fake_%d", s.nextSeq()),
		"type":          "message",
		"role":          "assistant",
		"model":         model,
		"content":       []any{},
		"stop_reason":   nil,
		"stop_sequence": nil,
		"usage":         map[string]int{"input_tokens": tokens(len(req.Body)), "output_tokens": 1},
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

// tokens is a rough token count for n bytes; the spinner's counter only
// has to move.
func tokens(n int) int { return n/4 + 1 }

// outputTokens estimates a reply's output tokens.
func outputTokens(r Reply) int {
	n := len(r.text()) + len(r.Thinking)
	if r.Tool != nil {
		data, _ := toolInput(r.Tool) // a bad input is answered as an error elsewhere
		n += len(data)
	}
	return tokens(n)
}

// wait blocks for d on the server's clock, calling ping at every
// PingInterval meanwhile when ping is not nil. It returns early with an
// error when ctx ends (the client left or the server closes) or a ping
// fails.
func (s *Server) wait(ctx context.Context, d time.Duration, ping func() error) error {
	if d <= 0 {
		return ctx.Err()
	}
	timer := s.Clock.NewTimer(d)
	defer timer.Stop()
	var tick <-chan time.Time
	if ping != nil && s.PingInterval > 0 {
		ticker := s.Clock.NewTicker(s.PingInterval)
		defer ticker.Stop()
		tick = ticker.Chan()
	}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.Chan():
			return nil
		case <-tick:
			if err := ping(); err != nil {
				return err
			}
		}
	}
}
