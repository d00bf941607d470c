package opencodetest

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"

	"github.com/codeman-dev/codeman/agents/opencode/opencodehooks"
	"github.com/codeman-dev/codeman/internal/rig/clitest"
)

// Event is one run of codeman's OpenCode plugin that the recorder logged.
// Its Name is the event's type or the hook's name, and its Payload is what
// the plugin passed, {"type": …, "properties": {…}}, with the name added
// as hook_event_name: {"hook_event_name": "session.status", "type":
// "session.status", "properties": {"sessionID": …, "status": {"type":
// "busy"}}}.
type Event = clitest.Event

// Hook returns a predicate for WaitForEvent: a forwarded event or hook
// call of the named type made after since (zero: any time).
func Hook(name string, since time.Time) func(Event) bool { return clitest.Hook(name, since) }

// Property returns a top-level string property of a forwarded event
// ("sessionID", "permission", "reply", "tool"), or "".
func Property(e Event, key string) string {
	var p struct {
		Properties map[string]any `json:"properties"`
	}
	if json.Unmarshal(e.Payload, &p) != nil {
		return ""
	}
	s, _ := p.Properties[key].(string)
	return s
}

// Status returns a predicate for WaitForEvent: a session.status of the
// given type ("busy", "retry") made after since. The plugin forwards no
// idle status: session.idle follows it.
func Status(typ string, since time.Time) func(Event) bool {
	return func(e Event) bool {
		if !Hook("session.status", since)(e) {
			return false
		}
		var p struct {
			Properties struct {
				Status struct {
					Type string `json:"type"`
				} `json:"status"`
			} `json:"properties"`
		}
		return json.Unmarshal(e.Payload, &p) == nil && p.Properties.Status.Type == typ
	}
}

// forwarderScript is the handler codeman's plugin runs in a session with
// RecordEvents, as `<handler> <event>` with the JSON on stdin: it adds the
// event's name to the JSON as hook_event_name, which the plugin's JSON
// (`{"type":…`) lacks and a recording's markers need, and hands it to
// clitest's recorder as a hook call of that name.
const forwarderScript = `#!/bin/sh
# Logs one run of codeman's OpenCode plugin through clitest's recorder.
{ printf '{"hook_event_name":"%%s",' "$1"; sed '1s/^{//'; } | exec %s hook "$1"
`

// installRecorder installs codeman's own OpenCode plugin into the config
// dir, running a forwarder to the event recorder as its handler: the
// events a session logs are what codeman's handler would get.
func (s *Session) installRecorder() error {
	script, err := s.RecordEvents()
	if err != nil {
		return err
	}
	forwarder := filepath.Join(filepath.Dir(script), "forward.sh")
	if err := clitest.WriteFile(forwarder, []byte(fmt.Sprintf(forwarderScript, clitest.ShellQuote(script)))); err != nil {
		return err
	}
	if err := chmodExec(forwarder); err != nil {
		return err
	}
	_, err = opencodehooks.Install(opencodehooks.Options{
		Path: opencodehooks.PluginPath(s.configDir), Binary: forwarder, Handler: forwarder,
	})
	return err
}
