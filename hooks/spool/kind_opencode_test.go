package spool_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/hooks/spool"
)

// openCodeEvents holds the plugin event logs recorded from the real
// OpenCode 1.18.33 (its README says how).
var openCodeEvents = filepath.Join("..", "..", "agents", "opencode", "testdata", "plugin-events")

// openCodeRow is one line of a plugin event log: an event of the event
// hook, or another hook's call.
type openCodeRow struct {
	Kind       string         `json:"kind"`
	Type       string         `json:"type"`
	Properties map[string]any `json:"properties"`
	Name       string         `json:"name"`
	Input      map[string]any `json:"input"`
	Output     any            `json:"output"`
}

// openCodeForwarded is what codeman's plugin makes of one logged row: the
// event's name and the payload it sends the handler, as the plugin trims
// it; ok is false for what it does not forward. ended is the session's
// turn end already signalled, which the plugin adds to its session.idle.
// (The plugin's own run over the same logs is opencodehooks' test.)
func openCodeForwarded(r openCodeRow, ended map[string]string) (name string, payload []byte, ok bool) {
	props := map[string]any{}
	str := func(m map[string]any, k string) string { s, _ := m[k].(string); return s }
	obj := func(m map[string]any, k string) map[string]any { o, _ := m[k].(map[string]any); return o }
	switch r.Kind {
	case "event":
		name = r.Type
		sid := str(r.Properties, "sessionID")
		props["sessionID"] = sid
		switch r.Type {
		case "session.status":
			st := obj(r.Properties, "status")
			typ := str(st, "type")
			if typ != "busy" && typ != "retry" {
				return "", nil, false
			}
			delete(ended, sid)
			props["status"] = map[string]any{"type": typ, "message": str(st, "message")}
		case "session.idle":
			if why := ended[sid]; why != "" {
				props["ended"] = why
			}
		case "session.error":
			e := obj(r.Properties, "error")
			ended[sid] = str(e, "name")
			props["error"] = map[string]any{"name": str(e, "name"), "data": map[string]any{"message": str(obj(e, "data"), "message")}}
		case "permission.asked":
			md := obj(r.Properties, "metadata")
			props["permission"] = str(r.Properties, "permission")
			props["metadata"] = map[string]any{"command": str(md, "command"), "filepath": str(md, "filepath")}
			props["patterns"] = r.Properties["patterns"]
		case "permission.replied":
			props["reply"] = str(r.Properties, "reply")
			if props["reply"] == "reject" {
				ended[sid] = "rejected"
			}
		default:
			return "", nil, false
		}
	case "hook":
		name = r.Name
		sid := str(r.Input, "sessionID")
		props["sessionID"] = sid
		switch r.Name {
		case "chat.message":
			delete(ended, sid)
		case "tool.execute.before", "tool.execute.after":
			props["tool"] = str(r.Input, "tool")
			if props["tool"] == "question" {
				out, _ := r.Output.(map[string]any)
				props["args"] = obj(out, "args")
			}
		default:
			return "", nil, false
		}
	default:
		return "", nil, false
	}
	payload, err := json.Marshal(map[string]any{"type": name, "properties": props})
	if err != nil {
		panic(err)
	}
	return name, payload, true
}

// readOpenCode returns the markers of one log's forwarded events.
func readOpenCode(t *testing.T, file string) []spool.Marker {
	t.Helper()
	f, err := os.Open(filepath.Join(openCodeEvents, file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []spool.Marker
	ended := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r openCodeRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		name, payload, ok := openCodeForwarded(r, ended)
		if !ok {
			continue
		}
		m, err := spool.ParsePayloadAs(payload, name)
		if err != nil {
			t.Fatalf("%s: %s: %v", file, payload, err)
		}
		out = append(out, m)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// kindsOf lists the signals of markers, a run of one kind once.
func kindsOf(markers []spool.Marker) string {
	var kinds []string
	for _, m := range markers {
		k := m.Kind().String()
		if len(kinds) == 0 || kinds[len(kinds)-1] != k {
			kinds = append(kinds, k)
		}
	}
	return strings.Join(kinds, " ")
}

// openCodeKinds is the run of signals each recorded log makes, through
// codeman's plugin, a run of one kind written once; a new log without an
// expectation fails.
var openCodeKinds = map[string]string{
	"api-error-401.jsonl":            "prompt_submitted tool_started turn_failed none",
	"api-error-429.jsonl":            "prompt_submitted tool_started turn_failed none",
	"api-error-500.jsonl":            "prompt_submitted tool_started turn_failed none",
	"enter-in-one-write.jsonl":       "prompt_submitted tool_started stop prompt_submitted tool_started stop",
	"first-turn.jsonl":               "prompt_submitted tool_started stop",
	"init-default-reply.jsonl":       "prompt_submitted tool_started stop",
	"init.jsonl":                     "prompt_submitted tool_started permission_prompt tool_finished tool_started stop",
	"interrupted.jsonl":              "prompt_submitted tool_started interrupted none",
	"permission-bash-approved.jsonl": "tool_finished tool_started stop",
	"permission-bash.jsonl":          "prompt_submitted tool_started permission_prompt",
	"permission-edit.jsonl":          "prompt_submitted tool_started permission_prompt tool_finished tool_started stop prompt_submitted tool_started permission_prompt",
	"permission-esc.jsonl":           "interrupted none",
	"plan-agent.jsonl":               "prompt_submitted tool_started stop",
	"tool-running.jsonl":             "prompt_submitted tool_started stop prompt_submitted tool_started stop prompt_submitted tool_started stop prompt_submitted tool_started tool_finished tool_started stop",
	"turn-ends.jsonl":                "prompt_submitted tool_started stop",
	"write-allowed.jsonl":            "prompt_submitted tool_started stop prompt_submitted tool_started stop prompt_submitted tool_started stop prompt_submitted tool_started tool_finished tool_started stop prompt_submitted tool_started tool_finished tool_started stop",
}

// Every recorded log, forwarded as codeman's plugin does, makes the
// signals of its situation: a turn ends in one Stop; a failed or
// interrupted turn, or one whose permission prompt was rejected, in its
// failure or interrupt and no Stop, however many session.idle events
// follow; a permission prompt's approval lets its tool finish. Each
// marker keeps its session, and a recording's copy of it makes the same
// signal.
func TestKind_OpenCodeEvents(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(openCodeEvents, "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(openCodeKinds) {
		t.Errorf("%d OpenCode logs in testdata, %d expectations", len(files), len(openCodeKinds))
	}
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(strings.TrimSuffix(name, ".jsonl"), func(t *testing.T) {
			want, ok := openCodeKinds[name]
			if !ok {
				t.Fatalf("no expected kinds for %s", name)
			}
			markers := readOpenCode(t, name)
			if got := kindsOf(markers); got != want {
				t.Errorf("kinds\n%s\nwant\n%s", got, want)
			}
			for _, m := range markers {
				if m.SessionID == "" {
					t.Errorf("%s marker without a session", m.Event)
				}
				back, err := spool.ParsePayload(m.Payload())
				if err != nil {
					t.Fatal(err)
				}
				if back.Kind() != m.Kind() || back.Detail != m.Detail {
					t.Errorf("%s: the marker's payload reads as %s %q, want %s %q", m.Event, back.Kind(), back.Detail, m.Kind(), m.Detail)
				}
			}
		})
	}
}

// firstOf is the first marker of a log of the event and kind.
func firstOf(t *testing.T, file, event string, kind spool.Kind) spool.Marker {
	t.Helper()
	for _, m := range readOpenCode(t, file) {
		if m.Event == event && m.Kind() == kind {
			return m
		}
	}
	t.Fatalf("%s: no %s of kind %s", file, event, kind)
	return spool.Marker{}
}

// The fields a person is shown: the command or file a permission prompt
// is about (with the permission as the tool), a failed turn's message
// (a 429's as OpenCode shows it, for the agent's usage-limit reading), a
// retry's message, the tool.
func TestParsePayloadAs_OpenCodeFields(t *testing.T) {
	for _, tc := range []struct {
		file, event           string
		kind                  spool.Kind
		tool, detail, message string
	}{
		{"permission-bash.jsonl", "permission.asked", spool.KindPermissionPrompt, "bash", "sleep 6; echo slow done", ""},
		{"init.jsonl", "permission.asked", spool.KindPermissionPrompt, "edit", "/tmp/oc/run-perm/proj/AGENTS.md", ""},
		{"tool-running.jsonl", "tool.execute.before", spool.KindToolStarted, "bash", "", ""},
		{"tool-running.jsonl", "tool.execute.after", spool.KindToolFinished, "bash", "", ""},
		{"api-error-429.jsonl", "session.status", spool.KindToolStarted, "", "", "Number of request tokens has exceeded your per-minute rate limit (fake)"},
	} {
		t.Run(tc.file+"/"+tc.event, func(t *testing.T) {
			m := firstOf(t, tc.file, tc.event, tc.kind)
			if tc.event == "session.status" {
				// The first retry, not the busy before it.
				for _, r := range readOpenCode(t, tc.file) {
					if r.Event == tc.event && r.Status == "retry" {
						m = r
						break
					}
				}
			}
			if m.Tool != tc.tool || m.Detail != tc.detail || m.Message != tc.message {
				t.Errorf("tool %q detail %q message %q, want %q %q %q", m.Tool, m.Detail, m.Message, tc.tool, tc.detail, tc.message)
			}
		})
	}
	for file, want := range map[string]string{
		"api-error-429.jsonl": "Number of request tokens has exceeded your per-minute rate limit (fake)",
		"api-error-500.jsonl": "Internal server error (fake)",
		"api-error-401.jsonl": "invalid x-api-key (fake)",
	} {
		if m := firstOf(t, file, "session.error", spool.KindTurnFailed); m.Error != want || m.Reason != "APIError" {
			t.Errorf("%s: error %q reason %q, want %q APIError", file, m.Error, m.Reason, want)
		}
	}
}

// What the recorded logs do not hold: the question tool, an approval for
// always, an idle status, an error without a name, and the idle after a
// failure without the plugin's ended.
func TestKind_OpenCodeCases(t *testing.T) {
	for _, tc := range []struct {
		event, payload string
		want           spool.Kind
	}{
		{"tool.execute.before", `{"type":"tool.execute.before","properties":{"sessionID":"s","tool":"question","args":{"questions":[{"question":"Which one?"}]}}}`, spool.KindQuestionPending},
		{"tool.execute.after", `{"type":"tool.execute.after","properties":{"sessionID":"s","tool":"question"}}`, spool.KindQuestionAnswered},
		{"permission.replied", `{"type":"permission.replied","properties":{"sessionID":"s","reply":"always"}}`, spool.KindToolFinished},
		{"session.status", `{"type":"session.status","properties":{"sessionID":"s","status":{"type":"idle"}}}`, spool.KindNone},
		{"session.status", `{"type":"session.status","properties":{"sessionID":"s","status":"busy"}}`, spool.KindNone},
		{"session.error", `{"type":"session.error","properties":{"error":{"data":{"message":"boom"}}}}`, spool.KindTurnFailed},
		{"session.error", `{"type":"session.error","properties":{"sessionID":"s","error":{"name":"MessageAbortedError"}}}`, spool.KindInterrupted},
		{"session.idle", `{"type":"session.idle","properties":{"sessionID":"s"}}`, spool.KindStop},
		{"session.idle", `{"type":"session.idle","properties":{"sessionID":"s","ended":"APIError"}}`, spool.KindNone},
		{"session.idle", `{"type":"session.idle","properties":"odd"}`, spool.KindStop},
	} {
		m, err := spool.ParsePayloadAs([]byte(tc.payload), tc.event)
		if err != nil {
			t.Fatalf("%s: %v", tc.payload, err)
		}
		if got := m.Kind(); got != tc.want {
			t.Errorf("%s: kind %s, want %s", tc.payload, got, tc.want)
		}
	}
	m, _ := spool.ParsePayloadAs([]byte(`{"properties":{"sessionID":"s","tool":"question","args":{"questions":[{"question":"Which one?"}]}}}`), "tool.execute.before")
	if m.Detail != "Which one?" || m.Tool != "question" {
		t.Errorf("question: tool %q detail %q", m.Tool, m.Detail)
	}
}

// The handler writes OpenCode's session.idle, named on its command line,
// as the pane's stop marker.
func TestHandleEvent_OpenCode(t *testing.T) {
	env := map[string]string{
		"XDG_RUNTIME_DIR": t.TempDir(),
		"TMUX":            "/tmp/tmux-1000/default,123,0",
		"TMUX_PANE":       "%4",
	}
	at := time.Date(2026, 12, 4, 19, 0, 38, 0, time.UTC)
	path, err := spool.HandleEvent(strings.NewReader(`{"type":"session.idle","properties":{"sessionID":"ses_1"}}`), func(k string) string { return env[k] }, at, "session.idle")
	if err != nil {
		t.Fatal(err)
	}
	m, err := spool.Read(path, spool.MaxMarkerSize)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(path, "-stop.json") || m.Event != "session.idle" || m.SessionID != "ses_1" {
		t.Errorf("marker %s: %+v", path, m)
	}
}
