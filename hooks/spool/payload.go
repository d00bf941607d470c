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
type payload struct {
	Event            text  `json:"hook_event_name"`
	NotificationType text  `json:"notification_type"`
	Tool             text  `json:"tool_name"`
	Source           text  `json:"source"`
	Reason           text  `json:"reason"`
	Error            text  `json:"error"`
	Status           text  `json:"status"`
	Message          text  `json:"message"`
	BackgroundTasks  tasks `json:"background_tasks"`
	SessionID        text  `json:"session_id"`
	Cwd              text  `json:"cwd"`
	ToolInput        input `json:"tool_input"`
}

var errNoEvent = errors.New("hook input has no hook_event_name")

// ParsePayload turns a hook event's JSON, as Claude Code or the Codex CLI
// sends it on stdin, into a marker without pane and time.
func ParsePayload(data []byte) (Marker, error) {
	var p payload
	if err := json.Unmarshal(data, &p); err != nil {
		return Marker{}, fmt.Errorf("decode hook input: %w", err)
	}
	if p.Event == "" {
		return Marker{}, errNoEvent
	}
	return Marker{
		Event:            string(p.Event),
		NotificationType: string(p.NotificationType),
		Tool:             string(p.Tool),
		Source:           string(p.Source),
		Reason:           string(p.Reason),
		Error:            string(p.Error),
		Status:           string(p.Status),
		Message:          string(p.Message),
		BackgroundTasks:  []string(p.BackgroundTasks),
		SessionID:        string(p.SessionID),
		Cwd:              string(p.Cwd),
		Detail:           p.detail(),
	}, nil
}

// detail is what a person is asked, kept only for the events that ask:
// a permission request and a question.
func (p *payload) detail() string {
	if p.Event == "PermissionRequest" || p.Tool == toolAskUserQuestion {
		return string(p.ToolInput)
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
		URL      text `json:"url"`
		Pattern  text `json:"pattern"`
		Prompt   text `json:"prompt"`
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
	case v.URL != "":
		*in = input(v.URL)
	case v.Pattern != "":
		*in = input(v.Pattern)
	case v.Prompt != "":
		*in = input(v.Prompt)
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
		Cwd              string `json:"cwd,omitempty"`
		ToolInput        any    `json:"tool_input,omitempty"`
	}{m.Event, m.NotificationType, m.Tool, m.Source, m.Reason, m.Error, m.Status, m.Message, nil, m.SessionID, m.Cwd, nil}
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
