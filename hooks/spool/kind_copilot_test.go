package spool_test

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/hooks/spool"
)

// copilotHooks holds the payloads recorded from the real GitHub Copilot
// CLI 1.0.102 (its README says how).
var copilotHooks = filepath.Join("..", "..", "agents", "copilot", "testdata", "hooks")

// copilotKinds is the signal each recorded Copilot payload makes when run
// as the event its file names: <event>[-<case>].json for the camelCase
// events, pascal-<Event>[-<case>].json for Claude Code's names.
var copilotKinds = map[string]spool.Kind{
	"agentStop.json":                              spool.KindStop,
	"agentStop-subagent.json":                     spool.KindNone,
	"errorOccurred-401.json":                      spool.KindNone,
	"errorOccurred-429.json":                      spool.KindNone,
	"errorOccurred-500.json":                      spool.KindNone,
	"notification-elicitation_dialog.json":        spool.KindElicitation,
	"notification-permission_prompt.json":         spool.KindPermissionPrompt,
	"permissionRequest-bash.json":                 spool.KindNone,
	"permissionRequest-bash-allowed.json":         spool.KindNone,
	"permissionRequest-edit.json":                 spool.KindNone,
	"postToolUse-apply_patch.json":                spool.KindToolFinished,
	"postToolUse-ask_user.json":                   spool.KindQuestionAnswered,
	"postToolUse-bash.json":                       spool.KindToolFinished,
	"postToolUseFailure.json":                     spool.KindToolFinished,
	"preCompact.json":                             spool.KindNone,
	"preToolUse-apply_patch.json":                 spool.KindToolStarted,
	"preToolUse-ask_user.json":                    spool.KindQuestionPending,
	"preToolUse-bash.json":                        spool.KindToolStarted,
	"preToolUse-exit_plan_mode.json":              spool.KindPlanApproval,
	"sessionEnd.json":                             spool.KindNone,
	"sessionStart-new.json":                       spool.KindNone,
	"sessionStart-resume.json":                    spool.KindNone,
	"subagentStart.json":                          spool.KindNone,
	"subagentStop.json":                           spool.KindNone,
	"userPromptSubmitted.json":                    spool.KindPromptSubmitted,
	"userPromptSubmitted-init.json":               spool.KindPromptSubmitted,
	"userPromptSubmitted-subagent.json":           spool.KindToolStarted,
	"userPromptTransformed.json":                  spool.KindNone,
	"pascal-Notification-elicitation_dialog.json": spool.KindElicitation,
	"pascal-Notification-permission_prompt.json":  spool.KindPermissionPrompt,
	"pascal-PermissionRequest-bash.json":          spool.KindNone,
	"pascal-PostToolUse-apply_patch.json":         spool.KindToolFinished,
	"pascal-PostToolUse-bash.json":                spool.KindToolFinished,
	"pascal-PreCompact.json":                      spool.KindNone,
	"pascal-PreToolUse-apply_patch.json":          spool.KindToolStarted,
	"pascal-PreToolUse-bash.json":                 spool.KindToolStarted,
	"pascal-SessionEnd.json":                      spool.KindNone,
	"pascal-SessionStart-new.json":                spool.KindNone,
	"pascal-SessionStart-resume.json":             spool.KindNone,
	"pascal-Stop.json":                            spool.KindStop,
	"pascal-Stop-subagent.json":                   spool.KindNone,
	"pascal-SubagentStop.json":                    spool.KindNone,
	"pascal-UserPromptSubmit.json":                spool.KindPromptSubmitted,
	"pascal-UserPromptSubmit-subagent.json":       spool.KindToolStarted,
}

// copilotEvent is the event a fixture's file name says it was recorded
// for: "agentStop" of agentStop-subagent.json, "Stop" of pascal-Stop.json.
func copilotEvent(name string) string {
	event, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSuffix(name, ".json"), "pascal-"), "-")
	return event
}

// readCopilot parses one recorded payload as the event its file names.
func readCopilot(t *testing.T, name string) spool.Marker {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(copilotHooks, name))
	if err != nil {
		t.Fatal(err)
	}
	m, err := spool.ParsePayloadAs(data, copilotEvent(name))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestKind_CopilotPayloads parses every recorded Copilot payload with the
// event its hook command named and checks the signal it makes; a new
// fixture without an expectation fails.
func TestKind_CopilotPayloads(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(copilotHooks, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(copilotKinds) {
		t.Errorf("%d Copilot payloads in testdata, %d expectations", len(files), len(copilotKinds))
	}
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(strings.TrimSuffix(name, ".json"), func(t *testing.T) {
			want, ok := copilotKinds[name]
			if !ok {
				t.Fatalf("no expected kind for %s", name)
			}
			m := readCopilot(t, name)
			if got := m.Kind(); got != want {
				t.Errorf("kind = %s, want %s (event %q, tool %q, agent %q)", got, want, m.Event, m.Tool, m.AgentID)
			}
			if m.SessionID == "" {
				t.Errorf("no session id read from %s", name)
			}
			// A recording's copy of the marker makes the same signal,
			// with no event argument.
			back, err := spool.ParsePayload(m.Payload())
			if err != nil {
				t.Fatal(err)
			}
			if got := back.Kind(); got != want {
				t.Errorf("kind of the marker's payload = %s, want %s", got, want)
			}
		})
	}
}

// The fields a person is shown: the command or file a permission prompt
// asks about, the question's text, a failed model call's error, the tool.
func TestParsePayloadAs_CopilotFields(t *testing.T) {
	for _, tc := range []struct {
		file                       string
		event, tool, detail, error string
	}{
		{"permissionRequest-bash.json", "permissionRequest", "bash", "echo hi from tool > out.txt; cat out.txt", ""},
		{"pascal-PermissionRequest-bash.json", "permissionRequest", "bash", "echo hi from tool > out.txt; cat out.txt", ""},
		{"permissionRequest-edit.json", "permissionRequest", "edit", "/tmp/cpr/main1/proj/.github/copilot-instructions.md", ""},
		{"preToolUse-ask_user.json", "preToolUse", "ask_user", "Which database should the service use?", ""},
		{"preToolUse-bash.json", "preToolUse", "bash", "", ""},
		{"postToolUseFailure.json", "postToolUseFailure", "view", "", "Path does not exist"},
		{"errorOccurred-500.json", "errorOccurred", "", "", `{"code":null,"message":"The server had an error while processing your request (fake)","param":null,"type":"server_error"}`},
		{"notification-permission_prompt.json", "Notification", "", "", ""},
	} {
		t.Run(tc.file, func(t *testing.T) {
			m := readCopilot(t, tc.file)
			if m.Event != tc.event || m.Tool != tc.tool || m.Detail != tc.detail || m.Error != tc.error {
				t.Errorf("event %q tool %q detail %q error %q, want %q %q %q %q", m.Event, m.Tool, m.Detail, m.Error, tc.event, tc.tool, tc.detail, tc.error)
			}
		})
	}
	if m := readCopilot(t, "agentStop-subagent.json"); m.AgentID != "acc71951-bf00-4195-a575-0b2bbce73375" {
		t.Errorf("subagent's agentStop: agent id %q", m.AgentID)
	}
	if m := readCopilot(t, "notification-permission_prompt.json"); m.NotificationType != "permission_prompt" || m.Message != "Run command: echo hi from tool > out.txt; cat out.txt" {
		t.Errorf("notification: type %q, message %q", m.NotificationType, m.Message)
	}
}

// The payload's own event name wins over the command line's; a payload
// with neither has no event.
func TestParsePayloadAs_EventPrecedence(t *testing.T) {
	for _, tc := range []struct {
		payload, arg, want string
	}{
		{`{"hook_event_name":"Stop"}`, "agentStop", "Stop"},
		{`{"hookName":"permissionRequest"}`, "notification", "permissionRequest"},
		{`{"sessionId":"s"}`, "agentStop", "agentStop"},
		{`{"hook_event_name":"Stop"}`, "", "Stop"},
	} {
		m, err := spool.ParsePayloadAs([]byte(tc.payload), tc.arg)
		if err != nil || m.Event != tc.want {
			t.Errorf("%s as %q: event %q, %v; want %q", tc.payload, tc.arg, m.Event, err, tc.want)
		}
	}
	if _, err := spool.ParsePayloadAs([]byte(`{"sessionId":"s"}`), ""); err == nil {
		t.Error("a payload without an event and no argument parsed")
	}
	long := strings.Repeat("e", 4096)
	if m, err := spool.ParsePayloadAs([]byte(`{}`), long); err != nil || len(m.Event) >= len(long) {
		t.Errorf("a long argument kept %d bytes, %v", len(m.Event), err)
	}
}

// The handler writes Copilot's agentStop, named on its command line, as
// the pane's stop marker.
func TestHandleEvent_Copilot(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(copilotHooks, "agentStop.json"))
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"XDG_RUNTIME_DIR": t.TempDir(),
		"TMUX":            "/tmp/tmux-1000/default,123,0",
		"TMUX_PANE":       "%4",
	}
	getenv := func(k string) string { return env[k] }
	at := time.Date(2026, 12, 3, 14, 47, 37, 0, time.UTC)
	if _, err := spool.Handle(strings.NewReader(string(data)), getenv, at); err == nil {
		t.Error("a payload without its event name made a marker")
	}
	path, err := spool.HandleEvent(strings.NewReader(string(data)), getenv, at, "agentStop")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(path, "-stop.json") {
		t.Errorf("marker %s, want a stop one", path)
	}
	m, err := spool.Read(path, spool.MaxMarkerSize)
	if err != nil {
		t.Fatal(err)
	}
	if m.Event != "agentStop" || m.SessionID != "93d7fd65-0743-4a89-9fec-6952aef212dd" || m.Kind() != spool.KindStop {
		t.Errorf("marker %+v", m)
	}
}

// Copilot runs permissionRequest with the same payload for a command its
// rules let through, without a prompt (permissionRequest-bash-allowed.json,
// under --allow-tool), as for one it asks about: the permission_prompt
// notification that follows only a prompt is the prompt's signal.
func TestKind_CopilotPermissionRequestAllowedAsAsked(t *testing.T) {
	keys := func(name string) []string {
		data, err := os.ReadFile(filepath.Join(copilotHooks, name))
		if err != nil {
			t.Fatal(err)
		}
		var payload map[string]json.RawMessage
		if err := json.Unmarshal(data, &payload); err != nil {
			t.Fatal(err)
		}
		return slices.Sorted(maps.Keys(payload))
	}
	asked, allowed := keys("permissionRequest-bash.json"), keys("permissionRequest-bash-allowed.json")
	if !slices.Equal(asked, allowed) {
		t.Fatalf("the payloads differ: asked %q, allowed %q; the allowed call may be told apart", asked, allowed)
	}
	for _, name := range []string{"permissionRequest-bash.json", "permissionRequest-bash-allowed.json"} {
		if m := readCopilot(t, name); m.Kind() != spool.KindNone || m.Tool != "bash" {
			t.Errorf("%s: kind %s, tool %q; want no signal of a bash call", name, m.Kind(), m.Tool)
		}
	}
	if k := readCopilot(t, "notification-permission_prompt.json").Kind(); k != spool.KindPermissionPrompt {
		t.Errorf("the prompt's notification: kind %s, want %s", k, spool.KindPermissionPrompt)
	}
}
