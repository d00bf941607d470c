package codextest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// RecordedHookEvents are the hook events a session with RecordHooks logs:
// every event Codex 0.171.0 knows. PreModelRequest and PostModelRequest
// fire around each model request; a PostModelRequest with status "failed"
// is the only hook that reports a turn lost to an API error.
var RecordedHookEvents = []string{
	"SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse",
	"PermissionRequest", "PostToolUse", "PreCompact", "PostCompact",
	"SubagentStart", "SubagentStop", "Stop", "Interrupt",
	"PreModelRequest", "PostModelRequest",
}

// hookTimeout is the timeout, in seconds, of a recorder hook. It is
// written out because the trusted hash covers it. Codex's default is 600 s,
// 1 s for SessionEnd and Interrupt, whose timeouts it clamps to 3 s (with a
// startup warning, and a hash over the clamped value).
func hookTimeout(event string) int {
	if event == "SessionEnd" || event == "Interrupt" {
		return 3
	}
	return 10
}

// Event is one hook call or notify run Codex made.
type Event struct {
	At time.Time // when the command ran
	// Kind is "hook" or "notify".
	Kind string
	// Name is the hook_event_name of a hook, the type of a notification
	// ("agent-turn-complete").
	Name    string
	Payload json.RawMessage // the JSON Codex passed, compacted
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

// recorderScript logs one call into dir as its own file, written under a
// dot name and renamed, so a reader never sees half a payload and two
// concurrent calls never interleave: {"t": <unix nanos>, "kind": <kind>,
// "payload": <JSON>}. A hook gets its JSON on stdin, a notify program as
// its last argument. Raw newlines in JSON are only whitespace between
// tokens, so deleting them keeps the payload intact and the file one line.
const recorderScript = `#!/bin/sh
# Logs one Codex hook call or notify run for codextest: its time and payload.
t=$(date +%%s%%N)
dir=%s
kind=$1
shift
{
	printf '{"t":%%s,"kind":"%%s","payload":' "$t" "$kind"
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

// writeRecorder writes the recorder script and creates its log dir.
func writeRecorder(script, dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create hook log dir: %w", err)
	}
	body := fmt.Sprintf(recorderScript, shellQuote(dir))
	if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
		return fmt.Errorf("write hook recorder: %w", err)
	}
	return nil
}

// hooksFile is the hooks.json that runs command for every
// RecordedHookEvents entry, and the [hooks.state] that trusts each.
func hooksFile(path, command string) (hooksJSON map[string]any, state map[string]any, err error) {
	events := map[string]any{}
	state = map[string]any{}
	for _, ev := range RecordedHookEvents {
		timeout := hookTimeout(ev)
		events[ev] = []any{map[string]any{
			"hooks": []any{map[string]any{"type": "command", "command": command, "timeout": timeout}},
		}}
		hash, err := hookHash(ev, command, timeout)
		if err != nil {
			return nil, nil, err
		}
		state[hookStateKey(path, ev, 0, 0)] = map[string]any{"trusted_hash": hash}
	}
	return map[string]any{"hooks": events}, state, nil
}

// readEventLog returns the logged calls in dir, oldest first.
func readEventLog(dir string) ([]Event, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read hook log: %w", err)
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
		return Event{}, fmt.Errorf("read hook log: %w", err)
	}
	var entry struct {
		T       int64           `json:"t"`
		Kind    string          `json:"kind"`
		Payload json.RawMessage `json:"payload"`
	}
	if err := json.Unmarshal(data, &entry); err != nil {
		return Event{}, fmt.Errorf("parse hook log %s: %w", path, err)
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
	if entry.Kind == "notify" {
		ev.Name = name.Notify
	}
	return ev, nil
}

// shellQuote quotes s for sh as one word.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
