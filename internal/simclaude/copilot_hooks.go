package simclaude

import (
	"os"
	"path/filepath"
)

// Copilot's hook payloads (agents/copilot/testdata/hooks), in the
// camelCase spelling: sessionId, timestamp (Unix ms) and cwd, then the
// event's own fields. The payload does not name its event (only
// permissionRequest's hookName and notification's hook_event_name do),
// so the hook command gets the event's name as its argument, as each of
// codeman's hook entries for Copilot names its event.

// emitCopilot queues event for the current session.
func (m *model) emitCopilot(event string, fields ...field) {
	m.emitCopilotAs(m.session, event, fields...)
}

// emitCopilotAs queues event for session id.
func (m *model) emitCopilotAs(id, event string, fields ...field) {
	p := object{{"sessionId", id}, {"timestamp", m.cp.now.UnixMilli()}, {"cwd", m.cfg.Cwd}}
	if event == "permissionRequest" {
		p = append(object{{"hookName", event}}, p...)
	}
	m.payloads = append(m.payloads, hookCall{arg: event, payload: append(p, fields...)})
}

// copilotTranscriptPath is $COPILOT_HOME/session-state/<id>/events.jsonl.
func (m *model) copilotTranscriptPath() string {
	home := os.Getenv("COPILOT_HOME")
	if home == "" {
		home = filepath.Join(m.home, ".copilot")
	}
	return filepath.Join(home, "session-state", m.session, "events.jsonl")
}

// copilotStop is agentStop: the main turn ended normally.
func (m *model) copilotStop() {
	m.emitCopilot("agentStop", field{"transcriptPath", m.copilotTranscriptPath()},
		field{"stopReason", "end_turn"}, field{"stop_hook_active", false})
}

// copilotExit ends every open session as Copilot leaves.
func (m *model) copilotExit() {
	m.cp.ended = append([]string(nil), m.cp.open...)
	for len(m.cp.open) > 0 {
		m.copilotEndSession(m.cp.open[0])
	}
}
