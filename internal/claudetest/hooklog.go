package claudetest

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
// the ones codeman interprets, plus their neighbours. MessageDisplay is left
// out (one process per streamed chunk), and so are hooks whose output
// changes what Claude does (WorktreeCreate, Elicitation), and events that
// not every tested version knows (PreSkillShellCommand, 2.1.329+): an
// unknown event in settings.json opens a warning dialog at start.
var RecordedHookEvents = []string{
	"SessionStart", "SessionEnd", "UserPromptSubmit", "UserPromptExpansion",
	"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest",
	"PermissionDenied", "Notification", "Stop", "StopFailure",
	"SubagentStart", "SubagentStop", "PreCompact", "PostCompact",
}

// HookEvent is one hook call Claude Code made.
type HookEvent struct {
	At      time.Time       // when the hook command ran
	Name    string          // hook_event_name
	Payload json.RawMessage // the JSON Claude wrote to the hook's stdin, compacted
}

// Field returns a top-level string field of the payload, or "".
func (e HookEvent) Field(key string) string {
	var m map[string]any
	if json.Unmarshal(e.Payload, &m) != nil {
		return ""
	}
	s, _ := m[key].(string)
	return s
}

// hookScript logs one hook call into dir as its own file, written under a
// dot name and renamed, so a reader never sees half a payload and two
// concurrent hooks never interleave: {"t": <unix nanos>, "payload": <stdin>}.
// Raw newlines in JSON are only whitespace between tokens, so deleting
// them keeps the payload intact and the file one line.
const hookScript = `#!/bin/sh
# Logs one Claude Code hook call for claudetest: its time and its payload.
t=$(date +%%s%%N)
dir=%s
{ printf '{"t":%%s,"payload":' "$t"; tr -d '\n'; printf '}\n'; } >"$dir/.$t-$$" &&
	mv "$dir/.$t-$$" "$dir/$t-$$.json"
exit 0
`

// installHookRecorder writes the hook script and returns the settings that
// run it for every RecordedHookEvents entry.
func installHookRecorder(script, dir string) (map[string]any, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create hook log dir: %w", err)
	}
	body := fmt.Sprintf(hookScript, shellQuote(dir))
	if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
		return nil, fmt.Errorf("write hook script: %w", err)
	}
	hooks := map[string]any{}
	for _, ev := range RecordedHookEvents {
		hooks[ev] = []any{map[string]any{
			"matcher": "",
			"hooks":   []any{map[string]any{"type": "command", "command": shellQuote(script)}},
		}}
	}
	return map[string]any{"hooks": hooks}, nil
}

// readHookLog returns the logged hook calls in dir, oldest first.
func readHookLog(dir string) ([]HookEvent, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read hook log: %w", err)
	}
	var events []HookEvent
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		ev, err := readHookFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		events = append(events, ev)
	}
	sort.SliceStable(events, func(i, j int) bool { return events[i].At.Before(events[j].At) })
	return events, nil
}

// readHookFile parses one logged hook call.
func readHookFile(path string) (HookEvent, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return HookEvent{}, fmt.Errorf("read hook log: %w", err)
	}
	var entry struct {
		T       int64           `json:"t"`
		Payload json.RawMessage `json:"payload"`
	}
	if err := json.Unmarshal(data, &entry); err != nil {
		return HookEvent{}, fmt.Errorf("parse hook log %s: %w", path, err)
	}
	var name struct {
		Event string `json:"hook_event_name"`
	}
	if err := json.Unmarshal(entry.Payload, &name); err != nil {
		return HookEvent{}, fmt.Errorf("parse hook payload %s: %w", path, err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, entry.Payload); err != nil {
		return HookEvent{}, fmt.Errorf("compact hook payload %s: %w", path, err)
	}
	return HookEvent{At: time.Unix(0, entry.T), Name: name.Event, Payload: compact.Bytes()}, nil
}

// shellQuote quotes s for sh as one word.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
