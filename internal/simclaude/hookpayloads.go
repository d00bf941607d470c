package simclaude

import "path/filepath"

// Hook payloads in the shape of hooks/testdata/claude-code: session_id,
// transcript_path and cwd first, then the event's own keys in Claude's order.

// toolCall is one tool use as the hooks describe it.
type toolCall struct {
	name         string
	id           string
	input        object
	response     any    // tool_response of PostToolUse
	responseText string // tool_response in PostToolBatch
	suggestions  any    // permission_suggestions of PermissionRequest
}

// hookCall is one run of the hook command: its payload, and the argument
// the command gets, the event's name where the payload carries none
// (Copilot's), "" for none.
type hookCall struct {
	arg     string
	payload object
}

var effortMedium = object{{"level", "medium"}}

// emit queues a payload: common keys, then pre, hook_event_name, post.
// The Codex look writes it in Codex's shape (emitCodex).
func (m *model) emit(event string, pre []field, post ...field) {
	switch {
	case m.codex():
		m.emitCodex(event, post)
		return
	case m.copilot(), m.opencode():
		return // their turns fire their own events (emitCopilot, emitOpenCode)
	}
	p := object{
		{"session_id", m.session},
		{"transcript_path", m.transcriptPath()},
		{"cwd", m.cfg.Cwd},
	}
	p = append(p, pre...)
	p = append(p, field{"hook_event_name", event})
	m.payloads = append(m.payloads, hookCall{payload: append(p, post...)})
}

// promptID is the prompt_id field of the current or last prompt.
func (m *model) promptID() []field {
	id := m.lastPromptID
	if m.turn != nil {
		id = m.turn.promptID
	}
	if id == "" {
		return nil
	}
	return []field{{"prompt_id", id}}
}

// turnFields are prompt_id, permission_mode and effort, as tool and stop
// events carry them.
func (m *model) turnFields() []field {
	return append(m.promptID(), field{"permission_mode", m.mode.payloadName()}, field{"effort", effortMedium})
}

func (m *model) hookSessionStart(source string, withModel bool) {
	var pre []field
	if source == "compact" {
		pre = m.promptID()
	}
	post := []field{{"source", source}}
	if withModel {
		post = append(post, field{"model", modelID})
	}
	m.emit("SessionStart", pre, post...)
}

func (m *model) hookSessionEnd(reason string) {
	if m.copilot() {
		m.copilotExit()
		return
	}
	m.emit("SessionEnd", m.promptID(), field{"reason", reason})
}

func (m *model) hookUserPromptSubmit(promptID, prompt string) {
	pre := []field{{"prompt_id", promptID}, {"permission_mode", m.mode.payloadName()}}
	m.emit("UserPromptSubmit", pre, field{"prompt", prompt})
}

func (m *model) hookPromptExpansion(promptID, command, args string) {
	pre := []field{{"prompt_id", promptID}, {"permission_mode", m.mode.payloadName()}}
	prompt := command
	if args != "" {
		prompt += " " + args
	}
	m.emit("UserPromptExpansion", pre,
		field{"expansion_type", "slash_command"}, field{"command_name", command[1:]},
		field{"command_args", args}, field{"command_source", "builtin"}, field{"prompt", prompt})
}

func (m *model) hookPreToolUse(c toolCall) {
	m.emit("PreToolUse", m.turnFields(),
		field{"tool_name", c.name}, field{"tool_input", c.input}, field{"tool_use_id", c.id})
}

func (m *model) hookPermissionRequest(c toolCall) {
	post := []field{{"tool_name", c.name}, {"tool_input", c.input}}
	if c.suggestions != nil {
		post = append(post, field{"permission_suggestions", c.suggestions})
	}
	m.emit("PermissionRequest", m.turnFields(), post...)
}

func (m *model) hookPostToolUse(c toolCall, durationMS int) {
	m.emit("PostToolUse", m.turnFields(),
		field{"tool_name", c.name}, field{"tool_input", c.input}, field{"tool_response", c.response},
		field{"tool_use_id", c.id}, field{"duration_ms", durationMS})
}

func (m *model) hookPostToolBatch(c toolCall) {
	call := object{{"tool_name", c.name}, {"tool_input", c.input}, {"tool_use_id", c.id}, {"tool_response", c.responseText}}
	m.emit("PostToolBatch", m.turnFields(), field{"tool_calls", []object{call}})
}

func (m *model) hookNotification(message, kind string) {
	m.emit("Notification", m.promptID(), field{"message", message}, field{"notification_type", kind})
}

// hookStop fires Stop; background lists tasks still running.
func (m *model) hookStop(lastMessage string, background []object) {
	if m.copilot() {
		m.copilotStop()
		return
	}
	if background == nil {
		background = []object{}
	}
	m.emit("Stop", m.turnFields(),
		field{"stop_hook_active", false}, field{"last_assistant_message", lastMessage},
		field{"background_tasks", background}, field{"session_crons", []object{}})
}

func (m *model) hookStopFailure(kind, lastMessage string) {
	pre := append(m.promptID(), field{"effort", effortMedium})
	m.emit("StopFailure", pre, field{"error", kind}, field{"last_assistant_message", lastMessage})
}

func (m *model) hookSubagentStart(a *backgroundAgent) {
	pre := append(m.promptID(), field{"agent_id", a.id}, field{"agent_type", agentType})
	m.emit("SubagentStart", pre)
}

// hookSubagentStop fires SubagentStop for an agent (agentType "" is the
// /compact summarizer); background lists tasks still running.
func (m *model) hookSubagentStop(id, agentType, lastMessage string, background []object) {
	if background == nil {
		background = []object{}
	}
	pre := append(m.promptID(), field{"permission_mode", m.mode.payloadName()},
		field{"agent_id", id}, field{"agent_type", agentType}, field{"effort", effortMedium})
	agentTranscript := filepath.Join(filepath.Dir(m.transcriptPath()), m.session, "subagents", "agent-"+id+".jsonl")
	m.emit("SubagentStop", pre,
		field{"stop_hook_active", false}, field{"agent_transcript_path", agentTranscript},
		field{"last_assistant_message", lastMessage}, field{"background_tasks", background},
		field{"session_crons", []object{}})
}

func (m *model) hookPreCompact() {
	m.emit("PreCompact", m.promptID(), field{"trigger", "manual"}, field{"custom_instructions", nil})
}

func (m *model) hookPostCompact() {
	m.emit("PostCompact", m.promptID(), field{"trigger", "manual"},
		field{"compact_summary", "<analysis>simulated</analysis>\n<summary>1. Primary Request: a simulated summary.</summary>"})
}
