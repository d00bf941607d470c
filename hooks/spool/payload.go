package spool

import (
	"encoding/json"
	"errors"
	"fmt"
)

// payload is the part of a hook event's JSON that a marker keeps. Every
// field is lenient: a value of an unexpected type (a future Claude Code
// might send an object where a string was) is skipped rather than losing
// the whole event.
//
// The GitHub Copilot CLI's camelCase events spell their fields in
// camelCase (sessionId, toolName, toolArgs), and most carry no event name
// at all: codeman's Copilot hooks name it on the command line instead
// (ParsePayloadAs). Where both spellings are there, the snake_case one
// wins.
type payload struct {
	Event            text          `json:"hook_event_name"`
	HookName         text          `json:"hookName"` // Copilot's permissionRequest
	NotificationType text          `json:"notification_type"`
	Tool             text          `json:"tool_name"`
	ToolCamel        text          `json:"toolName"`
	Source           text          `json:"source"`
	Reason           text          `json:"reason"`
	Error            errText       `json:"error"`
	Status           text          `json:"status"`
	Message          text          `json:"message"`
	BackgroundTasks  tasks         `json:"background_tasks"`
	SessionID        text          `json:"session_id"`
	SessionIDCamel   text          `json:"sessionId"`
	AgentID          text          `json:"agent_id"`
	AgentIDCamel     text          `json:"agentId"`
	Cwd              text          `json:"cwd"`
	ToolInput        input         `json:"tool_input"`
	ToolInputCamel   input         `json:"toolInput"`  // Copilot's permissionRequest
	ToolArgs         input         `json:"toolArgs"`   // Copilot's tool events
	Properties       openCodeProps `json:"properties"` // OpenCode's
}

// openCodeProps are the properties of an OpenCode event as codeman's
// plugin forwards them: session.status's status, session.error's error,
// permission.asked's permission and what it is about, permission.replied's
// reply, a tool hook's tool and a question's args, and ended, which the
// plugin adds to a session.idle that ends a turn already signalled
// (session.error's name, or "rejected"). Every field is lenient, and so is
// the whole: any other shape reads as nothing.
type openCodeProps struct {
	SessionID text `json:"sessionID"`
	Status    struct {
		Type    text `json:"type"`
		Message text `json:"message"`
	} `json:"status"`
	Error struct {
		Name text `json:"name"`
		Data struct {
			Message text `json:"message"`
		} `json:"data"`
	} `json:"error"`
	Ended      text   `json:"ended"`
	Permission text   `json:"permission"`
	Metadata   input  `json:"metadata"`
	Patterns   []text `json:"patterns"`
	Reply      text   `json:"reply"`
	Tool       text   `json:"tool"`
	Args       input  `json:"args"`
}

func (p *openCodeProps) UnmarshalJSON(b []byte) error {
	type plain openCodeProps
	var v plain
	// A field of another type is skipped and the rest still read.
	_ = json.Unmarshal(b, &v)
	*p = openCodeProps(v)
	return nil
}

// pattern is the first of a permission's patterns, for a prompt whose
// metadata names neither a command nor a file.
func (p *openCodeProps) pattern() text {
	for _, s := range p.Patterns {
		if s != "" {
			return s
		}
	}
	return ""
}

var errNoEvent = errors.New("hook input has no hook_event_name")

// ParsePayload turns a hook event's JSON, as Claude Code or the Codex CLI
// sends it on stdin, into a marker without pane and time.
func ParsePayload(data []byte) (Marker, error) { return ParsePayloadAs(data, "") }

// ParsePayloadAs is ParsePayload for a hook whose command line named its
// event: event is the name when the payload carries none, as the GitHub
// Copilot CLI's camelCase payloads mostly do. A payload's own
// hook_event_name (or Copilot's hookName) wins.
func ParsePayloadAs(data []byte, event string) (Marker, error) {
	var p payload
	if err := json.Unmarshal(data, &p); err != nil {
		return Marker{}, fmt.Errorf("decode hook input: %w", err)
	}
	p.Event = either(p.Event, p.HookName, text(clip(event)))
	if p.Event == "" {
		return Marker{}, errNoEvent
	}
	oc := &p.Properties
	p.Tool = either(p.Tool, p.ToolCamel, oc.Tool, oc.Permission)
	return Marker{
		Event:            string(p.Event),
		NotificationType: string(p.NotificationType),
		Tool:             string(p.Tool),
		Source:           string(p.Source),
		Reason:           string(either(p.Reason, oc.Ended, oc.Error.Name)),
		Error:            string(either(p.Error, errText(oc.Error.Data.Message))),
		Status:           string(either(p.Status, oc.Status.Type, oc.Reply)),
		Message:          string(either(p.Message, oc.Status.Message)),
		BackgroundTasks:  []string(p.BackgroundTasks),
		SessionID:        string(either(p.SessionID, p.SessionIDCamel, oc.SessionID)),
		AgentID:          string(either(p.AgentID, p.AgentIDCamel)),
		Cwd:              string(p.Cwd),
		Detail:           p.detail(),
	}, nil
}

// either is the first of values that is not empty.
func either[T ~string](values ...T) T {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

// detail is what a person is asked, kept only for the events that ask:
// a permission request and a question.
func (p *payload) detail() string {
	oc := &p.Properties
	switch {
	case p.Event == openCodePermissionAsked:
		return string(either(p.ToolInput, oc.Metadata, input(oc.pattern())))
	case p.Tool == openCodeQuestion && (p.Event == openCodeToolBefore || p.Event == openCodeToolAfter):
		return string(either(p.ToolInput, oc.Args))
	case p.Event == "PermissionRequest" || p.Event == copilotPermissionRequest,
		p.Tool == toolAskUserQuestion || p.Tool == copilotAskUser:
		return string(either(p.ToolInput, p.ToolInputCamel, p.ToolArgs))
	}
	return ""
}

// input reads what a tool call is about from its tool_input, for a person
// asked to answer it: a question's text, a command, a file, a URL. Any
// other shape reads as "".
type input string

func (in *input) UnmarshalJSON(b []byte) error {
	var v struct {
		Questions []struct {
			Question text `json:"question"`
		} `json:"questions"`
		Command  text `json:"command"`
		FilePath text `json:"file_path"`
		FileOC   text `json:"filepath"` // OpenCode's filepath, filePath
		URL      text `json:"url"`
		Pattern  text `json:"pattern"`
		Prompt   text `json:"prompt"`
		Message  text `json:"message"` // Copilot's ask_user
	}
	if json.Unmarshal(b, &v) != nil {
		return nil
	}
	switch {
	case len(v.Questions) > 0:
		*in = input(v.Questions[0].Question)
	case v.Command != "":
		*in = input(v.Command)
	case v.FilePath != "":
		*in = input(v.FilePath)
	case v.FileOC != "":
		*in = input(v.FileOC)
	case v.URL != "":
		*in = input(v.URL)
	case v.Pattern != "":
		*in = input(v.Pattern)
	case v.Prompt != "":
		*in = input(v.Prompt)
	case v.Message != "":
		*in = input(v.Message)
	}
	return nil
}

// errText reads an error given as a string (Claude Code's StopFailure,
// Copilot's postToolUseFailure) or as an object with a message (Copilot's
// errorOccurred); any other shape reads as "".
type errText string

func (e *errText) UnmarshalJSON(b []byte) error {
	var t text
	if t.UnmarshalJSON(b) == nil && t != "" {
		*e = errText(t)
		return nil
	}
	var v struct {
		Message text `json:"message"`
	}
	if json.Unmarshal(b, &v) == nil {
		*e = errText(v.Message)
	}
	return nil
}

// text is a JSON string cut to maxFieldLen; any other JSON value reads as "".
type text string

func (t *text) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*t = text(clip(s))
	}
	return nil
}

// Bounds of the background tasks a marker keeps, so that a Stop with
// hundreds of them still makes a marker far below the watcher's size cap:
// the statuses codeman reads are single words.
const (
	maxTasks     = 100
	maxStatusLen = 32
)

// tasks reads Stop's background_tasks as the list of each task's status.
// A task that is not an object still counts, with an empty status. Past
// maxTasks the running ones are kept first (the controller only needs to
// know that some still run).
type tasks []string

func (t *tasks) UnmarshalJSON(b []byte) error {
	var list []json.RawMessage
	if json.Unmarshal(b, &list) != nil {
		return nil
	}
	statuses := make([]string, 0, min(len(list), maxTasks))
	var others []string
	for _, raw := range list {
		var task struct {
			Status text `json:"status"`
		}
		_ = json.Unmarshal(raw, &task) // a malformed task keeps an empty status
		status := clipTo(string(task.Status), maxStatusLen)
		if status != taskRunning {
			others = append(others, status)
			continue
		}
		if len(statuses) < maxTasks {
			statuses = append(statuses, status)
		}
	}
	*t = append(statuses, others[:min(len(others), maxTasks-len(statuses))]...)
	return nil
}

// Payload returns the hook event a marker keeps as Claude Code's JSON, for
// a recording's "hook:" markers: ParsePayload reads it back to a marker of
// the same kind.
func (m Marker) Payload() []byte {
	type task struct {
		Status string `json:"status"`
	}
	p := struct {
		Event            string `json:"hook_event_name"`
		NotificationType string `json:"notification_type,omitempty"`
		Tool             string `json:"tool_name,omitempty"`
		Source           string `json:"source,omitempty"`
		Reason           string `json:"reason,omitempty"`
		Error            string `json:"error,omitempty"`
		Status           string `json:"status,omitempty"`
		Message          string `json:"message,omitempty"`
		BackgroundTasks  []task `json:"background_tasks,omitempty"`
		SessionID        string `json:"session_id,omitempty"`
		AgentID          string `json:"agent_id,omitempty"`
		Cwd              string `json:"cwd,omitempty"`
		ToolInput        any    `json:"tool_input,omitempty"`
	}{m.Event, m.NotificationType, m.Tool, m.Source, m.Reason, m.Error, m.Status, m.Message, nil, m.SessionID, m.AgentID, m.Cwd, nil}
	type question struct {
		Question string `json:"question"`
	}
	switch {
	case m.Detail == "":
	case m.Tool == toolAskUserQuestion:
		p.ToolInput = map[string][]question{"questions": {{m.Detail}}}
	default:
		p.ToolInput = map[string]string{"command": m.Detail}
	}
	for _, s := range m.BackgroundTasks {
		p.BackgroundTasks = append(p.BackgroundTasks, task{s})
	}
	b, _ := json.Marshal(p) // strings and slices of them always marshal
	return b
}
