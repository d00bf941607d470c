package hooks_test

import (
	"testing"

	"github.com/codeman-dev/codeman/hooks"
	"github.com/codeman-dev/codeman/respawn"
)

// Payloads of Claude Code 2.1.332 (and one of 2.1.328 for comparison),
// taken from the real CLI run offline against the fake API; session ids,
// paths and prompt ids shortened.
var payloads332 = []struct {
	name    string
	payload string
	want    respawn.HookKind // 0: no signal
	bg      int
}{
	// A Monitor's script is a task of kind "monitor" from 2.1.329 on; it
	// counts like a shell.
	{"StopMonitorAndShell", `{"session_id":"d47f75d6","transcript_path":"/t/d47f75d6.jsonl","cwd":"/home/dev/proj","prompt_id":"f377df7e","permission_mode":"default","effort":{"level":"medium"},"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"Started in background.","background_tasks":[{"id":"baxft7rjl","type":"monitor","status":"running","description":"Watch the build log","command":"sleep 600"},{"id":"bwt7d8z20","type":"shell","status":"running","description":"Long sleep","command":"sleep 600"}],"session_crons":[]}`,
		respawn.HookStop, 2},
	{"StopMonitor2_1_328", `{"session_id":"3e29f420","transcript_path":"/t/3e29f420.jsonl","cwd":"/home/dev/proj","prompt_id":"b68cd602","permission_mode":"default","effort":{"level":"medium"},"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"Watching the log now.","background_tasks":[{"id":"buatuyzd7","type":"shell","status":"running","description":"Watch the build log","command":"sleep 600"}],"session_crons":[]}`,
		respawn.HookStop, 1},
	{"StopFailureUsageLimit", `{"session_id":"1d447847","transcript_path":"/t/1d447847.jsonl","cwd":"/home/dev/proj","prompt_id":"121212d0","effort":{"level":"medium"},"hook_event_name":"StopFailure","error":"rate_limit","last_assistant_message":"You've hit your 5-hour limit · resets 3pm (UTC)"}`,
		respawn.HookTurnFailed, 0},
	// Claude Code's own continue at the reset: the notification, then the
	// turn it starts with a prompt of its own.
	{"AutoResumeFired", `{"session_id":"1d447847","transcript_path":"/t/1d447847.jsonl","cwd":"/home/dev/proj","prompt_id":"121212d0","hook_event_name":"Notification","message":"Usage limit reset — Claude is continuing your task","notification_type":"quota_auto_resume_fired"}`,
		respawn.HookPromptSubmitted, 0},
	{"AutoResumePrompt", `{"session_id":"1d447847","transcript_path":"/t/1d447847.jsonl","cwd":"/home/dev/proj","prompt_id":"4b7af3eb","permission_mode":"default","hook_event_name":"UserPromptSubmit","prompt":"Your claude.ai usage limit has reset. Continue the task you were working on when the limit was reached; do not repeat work that is already complete."}`,
		respawn.HookPromptSubmitted, 0},
	// A skill's inline shell command, run as the skill loads.
	{"PreSkillShellCommand", `{"session_id":"ae6dc010","transcript_path":"/t/ae6dc010.jsonl","cwd":"/home/dev/proj","prompt_id":"de22a6e9","permission_mode":"default","effort":{"level":"medium"},"hook_event_name":"PreSkillShellCommand","tool_name":"Bash","tool_input":{"command":"echo tuesday"},"tool_use_id":"53000f9f-0b99-4895-8363-bfd023cd8c48:inner:preamble-0","command_name":"greet","command_source":"projectSettings","invoked_by":"user"}`,
		respawn.HookToolStarted, 0},
}

func TestInterpretPayload_2_1_332(t *testing.T) {
	for _, tc := range payloads332 {
		t.Run(tc.name, func(t *testing.T) {
			h, ok := hooks.InterpretPayload([]byte(tc.payload))
			if ok != (tc.want != 0) || h.Kind != tc.want {
				t.Fatalf("kind %v (ok %t), want %v", h.Kind, ok, tc.want)
			}
			if h.Background != tc.bg {
				t.Errorf("background %d, want %d", h.Background, tc.bg)
			}
		})
	}
}
