package simclaude

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Codex's hook payloads (hooks/testdata/codex): the shared hook calls of
// the model are written in Codex's shape, keys sorted as in the fixtures.
// Codex has no PostToolBatch, Notification, StopFailure,
// UserPromptExpansion or subagent events for these scenarios; it has
// PreModelRequest, PostModelRequest and Interrupt of its own.

// codexKeeps lists, per event Codex fires, the keys of the event's own
// fields it carries.
var codexKeeps = map[string][]string{
	"SessionStart":      {"source"},
	"SessionEnd":        {"reason"},
	"UserPromptSubmit":  {"prompt"},
	"PreToolUse":        {"tool_name", "tool_input", "tool_use_id"},
	"PostToolUse":       {"tool_name", "tool_input", "tool_response", "tool_use_id"},
	"PermissionRequest": {"tool_name", "tool_input"},
	"Stop":              {"last_assistant_message", "stop_hook_active"},
	"PreCompact":        {"trigger"},
	"PostCompact":       {"trigger"},
	"Interrupt":         {},
	"PreModelRequest":   {"attempt_number", "kind", "request_id", "thread_id"},
	"PostModelRequest": {"attempt_number", "kind", "request_id", "thread_id",
		"status", "error", "token_usage", "response_id"},
}

// codexWithMode are the events whose payload carries permission_mode.
var codexWithMode = []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PermissionRequest", "Stop", "Interrupt"}

// emitCodex queues event in Codex's shape; events Codex does not fire
// are dropped.
func (m *model) emitCodex(event string, fields []field) {
	keep, ok := codexKeeps[event]
	if !ok {
		return
	}
	p := object{
		{"session_id", m.session},
		{"transcript_path", m.transcriptPath()},
		{"cwd", m.cfg.Cwd},
		{"hook_event_name", event},
	}
	if event != "SessionEnd" {
		p = append(p, field{"model", codexModel})
	}
	if slices.Contains(codexWithMode, event) {
		p = append(p, field{"permission_mode", "default"})
	}
	if m.turn != nil && event != "SessionStart" && event != "SessionEnd" {
		p = append(p, field{"turn_id", m.turn.promptID})
	}
	for _, f := range fields {
		if slices.Contains(keep, f.key) {
			p = append(p, f)
		}
	}
	slices.SortFunc(p, func(a, b field) int { return strings.Compare(a.key, b.key) })
	m.payloads = append(m.payloads, hookCall{payload: p})
}

// codexTranscriptPath is $CODEX_HOME/sessions/YYYY/MM/DD/rollout-…-<id>.jsonl.
func (m *model) codexTranscriptPath() string {
	home := os.Getenv("CODEX_HOME")
	if home == "" {
		home = filepath.Join(m.home, ".codex")
	}
	at := m.cx.sessionAt.UTC()
	return filepath.Join(home, "sessions", at.Format("2006/01/02"),
		fmt.Sprintf("rollout-%s-%s.jsonl", at.Format("2006-01-02T15-04-05"), m.session))
}

// openSession fires SessionStart with a session's first prompt, as Codex
// does (not at startup, nor at /new).
func (m *model) openSession() {
	if m.cx.sessionOpen {
		return
	}
	m.cx.sessionOpen = true
	m.emitCodex("SessionStart", []field{{"source", m.cx.source}})
}

// startRequest fires PreModelRequest: the model is asked for the next step.
func (m *model) startRequest() {
	if !m.codex() || m.turn == nil {
		return
	}
	m.cx.requestID = newUUID(m.rng)
	m.emitCodex("PreModelRequest", m.requestFields())
}

// endRequest fires PostModelRequest for the request under way with status
// completed, failed (errText the screen's message) or cancelled.
func (m *model) endRequest(status, errText string) {
	if !m.codex() || m.cx.requestID == "" {
		return
	}
	fields := m.requestFields()
	var errValue, usage, response any
	switch status {
	case "completed":
		usage = object{
			{"cache_write_input_tokens", 0}, {"cached_input_tokens", 0}, {"input_tokens", 11243},
			{"output_tokens", 20}, {"reasoning_output_tokens", 0}, {"total_tokens", 11263},
		}
		response = "resp_" + strings.ReplaceAll(m.cx.requestID, "-", "")[:16]
	case "failed":
		errValue = errText
	}
	fields = append(fields, field{"status", status}, field{"error", errValue},
		field{"token_usage", usage}, field{"response_id", response})
	m.emitCodex("PostModelRequest", fields)
	m.cx.requestID = ""
}

func (m *model) requestFields() []field {
	return []field{
		{"attempt_number", 1}, {"kind", "sampling"},
		{"request_id", m.cx.requestID}, {"thread_id", m.session},
	}
}

// hookInterrupt fires Codex's Interrupt: a person stopped the turn.
func (m *model) hookInterrupt() { m.emitCodex("Interrupt", nil) }
