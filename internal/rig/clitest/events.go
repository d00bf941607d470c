package clitest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/wait"
)

// Event is one hook call or notify run the CLI made.
type Event struct {
	At time.Time // when the command ran
	// Kind is "hook", or "notify" for a run of Codex's notify program.
	Kind string
	// Name is the hook_event_name of a hook, the type of a notification
	// ("agent-turn-complete").
	Name    string
	Payload json.RawMessage // the JSON the CLI passed, compacted
}

// Field returns a top-level string field of the payload, or "".
func (e Event) Field(key string) string {
	var m map[string]any
	if json.Unmarshal(e.Payload, &m) != nil {
		return ""
	}
	s, _ := m[key].(string)
	return s
}

// Hook returns a predicate for WaitForEvent: a call of the named hook
// event made after since (zero: any time).
func Hook(name string, since time.Time) func(Event) bool {
	return func(e Event) bool { return e.Kind == "hook" && e.Name == name && e.At.After(since) }
}

// Notify returns a predicate for WaitForEvent: a notification of the named
// type made after since (zero: any time).
func Notify(name string, since time.Time) func(Event) bool {
	return func(e Event) bool { return e.Kind == "notify" && e.Name == name && e.At.After(since) }
}

// recorderScript logs one call into dir as its own file, written under a
// dot name and renamed, so a reader never sees half a payload and two
// concurrent calls never interleave: {"t": <unix nanos>, "kind": <kind>,
// "name": <name>, "payload": <JSON>}. A hook gets its JSON on stdin, a
// notify program as its last argument. A hook's name is its second
// argument, for a CLI whose payloads do not name their event (Copilot's
// camelCase hooks); it may be empty. Raw newlines in JSON are only whitespace between
// tokens, so deleting them keeps the payload intact and the file one line.
const recorderScript = `#!/bin/sh
# Logs one hook call or notify run of a CLI under test: its time and payload.
t=$(date +%%s%%N)
dir=%s
kind=$1
shift
name=
if [ "$kind" = hook ]; then
	name=${1:-}
fi
{
	printf '{"t":%%s,"kind":"%%s","name":"%%s","payload":' "$t" "$kind" "$name"
	if [ "$kind" = notify ]; then
		for last; do :; done
		printf '%%s' "$last" | tr -d '\n'
	else
		tr -d '\n'
	fi
	printf '}\n'
} >"$dir/.$t-$$" && mv "$dir/.$t-$$" "$dir/$t-$$.json"
exit 0
`

// RecordEvents writes the event recorder and creates its log, which
// Events reads and SaveCast turns into markers. It returns the recorder's
// path: a hook runs it with the argument "hook" (and, optionally, the
// event's name) and the payload on stdin, a notify program with "notify"
// and the payload as the last argument.
func (p *Pane) RecordEvents() (script string, err error) {
	dir := filepath.Join(p.root, "events")
	script = filepath.Join(p.root, "record.sh")
	if err := writeRecorder(script, dir); err != nil {
		return "", err
	}
	p.events = dir
	return script, nil
}

// writeRecorder writes the recorder script and creates its log dir.
func writeRecorder(script, dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create event log dir: %w", err)
	}
	body := fmt.Sprintf(recorderScript, ShellQuote(dir))
	if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
		return fmt.Errorf("write event recorder: %w", err)
	}
	return nil
}

// Events returns the hook calls and notify runs logged so far, oldest
// first. It needs the event log (Options.RecordHooks).
func (p *Pane) Events() []Event {
	p.t.Helper()
	if p.events == "" {
		p.t.Fatalf("%s: Events needs Options.RecordHooks", p.cfg.Pkg)
	}
	events, err := readEventLog(p.events)
	if err != nil {
		p.t.Fatalf("%s: %v", p.cfg.Pkg, err)
	}
	return events
}

// WaitForEvent returns the first logged event, past or future, that pred
// accepts. It fails the test after timeout, listing the events seen.
func (p *Pane) WaitForEvent(pred func(Event) bool, what string, timeout time.Duration) Event {
	p.t.Helper()
	var events []Event
	found := -1
	err := wait.Until(what, timeout, func() bool {
		events = p.Events()
		found = slices.IndexFunc(events, pred)
		return found >= 0
	})
	if err != nil {
		p.t.Fatalf("%s: %v; events seen: %s\n%s", p.cfg.Pkg, err, eventNames(events), p.dump(p.captureOrError()))
	}
	return events[found]
}

// eventNames lists events for a failure message.
func eventNames(events []Event) string {
	names := make([]string, 0, len(events))
	for _, e := range events {
		names = append(names, fmt.Sprintf("%s:%s@%s", e.Kind, e.Name, e.At.Format("15:04:05.000")))
	}
	return "[" + strings.Join(names, " ") + "]"
}

// readEventLog returns the logged calls in dir, oldest first.
func readEventLog(dir string) ([]Event, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read event log: %w", err)
	}
	var events []Event
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		ev, err := readEventFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		events = append(events, ev)
	}
	sort.SliceStable(events, func(i, j int) bool { return events[i].At.Before(events[j].At) })
	return events, nil
}

// readEventFile parses one logged call.
func readEventFile(path string) (Event, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Event{}, fmt.Errorf("read event log: %w", err)
	}
	var entry struct {
		T       int64           `json:"t"`
		Kind    string          `json:"kind"`
		Name    string          `json:"name"`
		Payload json.RawMessage `json:"payload"`
	}
	if err := json.Unmarshal(data, &entry); err != nil {
		return Event{}, fmt.Errorf("parse event log %s: %w", path, err)
	}
	var name struct {
		Hook   string `json:"hook_event_name"`
		Notify string `json:"type"`
	}
	if err := json.Unmarshal(entry.Payload, &name); err != nil {
		return Event{}, fmt.Errorf("parse %s payload %s: %w", entry.Kind, path, err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, entry.Payload); err != nil {
		return Event{}, fmt.Errorf("compact %s payload %s: %w", entry.Kind, path, err)
	}
	ev := Event{At: time.Unix(0, entry.T), Kind: entry.Kind, Name: name.Hook, Payload: compact.Bytes()}
	switch {
	case entry.Kind == "notify":
		ev.Name = name.Notify
	case entry.Name != "":
		ev.Name = entry.Name
	}
	return ev, nil
}
