package opencodetest

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/clitest"
)

// RecordedEvents are the bus events a session with RecordEvents logs, by
// their type: what tells a turn's start and end, its errors, its
// permission prompts and questions apart (docs/opencode.md, "A turn").
// session.idle ends every turn, finished, interrupted or failed; a
// session.error before it says which.
var RecordedEvents = []string{
	"session.status", "session.idle", "session.error", "permission.asked", "permission.replied",
	"question.asked", "question.replied",
}

// RecordedHooks are the plugin hooks a session with RecordEvents logs:
// the prompt's submission and each tool call's start and end.
var RecordedHooks = []string{"chat.message", "tool.execute.before", "tool.execute.after"}

// Event is one event or hook call the recorder plugin logged. Its Name is
// the event's type or the hook's name, and its Payload carries it as
// hook_event_name: an event's properties with it ({"hook_event_name":
// "session.status", "sessionID": …, "status": {"type": "busy"}}), a hook's
// input and output ({"hook_event_name": "tool.execute.before", "input":
// {"tool": "bash", …}, "output": {"args": …}}).
type Event = clitest.Event

// Hook returns a predicate for WaitForEvent: an event or hook call of the
// named type made after since (zero: any time).
func Hook(name string, since time.Time) func(Event) bool { return clitest.Hook(name, since) }

// Status returns a predicate for WaitForEvent: a session.status of the
// given type ("busy", "idle", "retry") made after since.
func Status(typ string, since time.Time) func(Event) bool {
	return func(e Event) bool {
		if !Hook("session.status", since)(e) {
			return false
		}
		var p struct {
			Status struct {
				Type string `json:"type"`
			} `json:"status"`
		}
		return json.Unmarshal(e.Payload, &p) == nil && p.Status.Type == typ
	}
}

// recorderPluginJS is the recorder plugin; %RECORDER%, %EVENTS% and %HOOKS%
// are filled in. It runs in OpenCode's server process and hands each
// recorded event to the recorder script as a hook call: the name as the
// argument, the payload on stdin. spawnSync keeps the calls in order; each
// takes a few milliseconds.
const recorderPluginJS = `// Logs the events and hooks of OpenCode a test waits on, through clitest's recorder.
import { spawnSync } from "node:child_process"

const recorder = %RECORDER%
const events = new Set(%EVENTS%)
const hooks = %HOOKS%

const record = (name, payload) => {
  try {
    spawnSync(recorder, ["hook", name], { input: JSON.stringify({ hook_event_name: name, ...payload }) })
  } catch {}
}

export const CodemanRecorder = async () => {
  const out = {
    event: async ({ event }) => {
      if (events.has(event.type)) record(event.type, event.properties ?? {})
    },
  }
  for (const name of hooks) out[name] = async (input, output) => record(name, { input, output })
  return out
}
`

// recorderPlugin returns the plugin that runs script for each recorded
// event.
func recorderPlugin(script string) string {
	quote := func(v any) string {
		data, _ := json.Marshal(v) // strings and string lists always marshal
		return string(data)
	}
	return strings.NewReplacer("%RECORDER%", quote(script), "%EVENTS%", quote(RecordedEvents), "%HOOKS%", quote(RecordedHooks)).
		Replace(recorderPluginJS)
}
