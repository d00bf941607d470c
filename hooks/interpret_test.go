package hooks_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/hooks"
	"github.com/codeman-dev/codeman/respawn"
)

func TestInterpret(t *testing.T) {
	at := time.Date(2026, 11, 29, 19, 13, 0, 0, time.UTC)
	const plan = "Claude Code needs your approval for the plan"
	tests := []struct {
		name string
		m    hooks.Marker
		want respawn.HookKind // 0: no signal
		bg   int
	}{
		{"Stop", hooks.Marker{Event: "Stop"}, respawn.HookStop, 0},
		{"StopBackgroundRunning", hooks.Marker{Event: "Stop", BackgroundTasks: []string{"running", "completed", "running"}}, respawn.HookStop, 2},
		{"StopFailure", hooks.Marker{Event: "StopFailure", Error: "rate_limit"}, respawn.HookTurnFailed, 0},
		{"IdlePrompt", hooks.Marker{Event: "Notification", NotificationType: "idle_prompt"}, respawn.HookIdlePrompt, 0},
		{"PermissionPrompt", hooks.Marker{Event: "Notification", NotificationType: "permission_prompt", Message: "Claude needs your permission"}, respawn.HookPermissionPrompt, 0},
		{"PlanPrompt", hooks.Marker{Event: "Notification", NotificationType: "permission_prompt", Message: plan}, respawn.HookPlanApproval, 0},
		{"Elicitation", hooks.Marker{Event: "Notification", NotificationType: "elicitation_dialog"}, respawn.HookElicitation, 0},
		{"AuthSuccess", hooks.Marker{Event: "Notification", NotificationType: "auth_success"}, 0, 0},
		{"PromptSubmit", hooks.Marker{Event: "UserPromptSubmit"}, respawn.HookPromptSubmitted, 0},
		{"PreAsk", hooks.Marker{Event: "PreToolUse", Tool: "AskUserQuestion"}, respawn.HookQuestionPending, 0},
		{"PostAsk", hooks.Marker{Event: "PostToolUse", Tool: "AskUserQuestion"}, respawn.HookQuestionAnswered, 0},
		{"PrePlan", hooks.Marker{Event: "PreToolUse", Tool: "ExitPlanMode"}, respawn.HookPlanApproval, 0},
		{"PostPlan", hooks.Marker{Event: "PostToolUse", Tool: "ExitPlanMode"}, respawn.HookToolFinished, 0},
		{"PermissionPlan", hooks.Marker{Event: "PermissionRequest", Tool: "ExitPlanMode"}, respawn.HookPlanApproval, 0},
		{"PermissionAsk", hooks.Marker{Event: "PermissionRequest", Tool: "AskUserQuestion"}, respawn.HookQuestionPending, 0},
		{"PermissionBash", hooks.Marker{Event: "PermissionRequest", Tool: "Bash"}, respawn.HookPermissionPrompt, 0},
		{"PreBash", hooks.Marker{Event: "PreToolUse", Tool: "Bash"}, respawn.HookToolStarted, 0},
		{"PostWrite", hooks.Marker{Event: "PostToolUse", Tool: "Write"}, respawn.HookToolFinished, 0},
		{"StartClear", hooks.Marker{Event: "SessionStart", Source: "clear"}, respawn.HookClearFinished, 0},
		{"StartStartup", hooks.Marker{Event: "SessionStart", Source: "startup"}, 0, 0},
		{"StartCompact", hooks.Marker{Event: "SessionStart", Source: "compact"}, 0, 0},
		{"EndClear", hooks.Marker{Event: "SessionEnd", Reason: "clear"}, 0, 0},
		{"EndExit", hooks.Marker{Event: "SessionEnd", Reason: "prompt_input_exit"}, respawn.HookSessionEnded, 0},
		{"MessageDisplay", hooks.Marker{Event: "MessageDisplay"}, 0, 0},
		{"InstructionsLoaded", hooks.Marker{Event: "InstructionsLoaded"}, 0, 0},
		{"SubagentStop", hooks.Marker{Event: "SubagentStop", BackgroundTasks: []string{"running"}}, 0, 0},
		{"PreSkillShellCommand", hooks.Marker{Event: "PreSkillShellCommand", Tool: "Bash"}, respawn.HookToolStarted, 0},
		{"AutoResumeFired", hooks.Marker{Event: "Notification", NotificationType: "quota_auto_resume_fired",
			Message: "Usage limit reset — Claude is continuing your task"}, respawn.HookPromptSubmitted, 0},
		{"AutoResumeStale", hooks.Marker{Event: "Notification", NotificationType: "quota_auto_resume_stale"}, 0, 0},
		{"AutoResumeDisabled", hooks.Marker{Event: "Notification", NotificationType: "quota_auto_resume_disabled"}, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.m.Pane, tt.m.At = testPane, at
			pane, h, ok := hooks.Interpret(tt.m)
			if pane != testPane {
				t.Errorf("pane = %q, want %q", pane, testPane)
			}
			if ok != (tt.want != 0) {
				t.Fatalf("ok = %v, want %v (kind %v)", ok, tt.want != 0, h.Kind)
			}
			if !ok {
				return
			}
			want := respawn.Hook{Kind: tt.want, At: at, Event: tt.m.Event, Tool: tt.m.Tool,
				Background: tt.bg, Error: tt.m.Error, Message: tt.m.Message}
			if h != want {
				t.Errorf("hook = %+v\nwant   %+v", h, want)
			}
		})
	}
}

// TestInterpret_ReferencePayloads runs every real payload through the
// handler and Interpret, and compares the signals with the golden list.
func TestInterpret_ReferencePayloads(t *testing.T) {
	var out bytes.Buffer
	at := time.Date(2026, 11, 29, 19, 12, 58, 0, time.UTC)
	for _, c := range referencePayloads(t) {
		env, spool := tmuxEnv(t)
		if _, err := hooks.Handle(bytes.NewReader(c.Payload), envOf(env), at); err != nil {
			t.Fatalf("%s: %v", c.Label, err)
		}
		ms := readMarkers(t, spool)
		if len(ms) != 1 {
			t.Fatalf("%s: %d markers, want 1", c.Label, len(ms))
		}
		_, h, ok := hooks.Interpret(ms[0])
		fmt.Fprintf(&out, "%s -> %s\n", c.Label, describe(h, ok))
	}
	checkGolden(t, filepath.Join("testdata", "claude-code", "interpret.golden"), out.Bytes())
}

// describe prints a hook's kind and the fields that matter for it.
func describe(h respawn.Hook, ok bool) string {
	if !ok {
		return "-"
	}
	parts := []string{h.Kind.String()}
	if h.Tool != "" {
		parts = append(parts, "tool="+h.Tool)
	}
	if h.Kind == respawn.HookStop {
		parts = append(parts, fmt.Sprintf("background=%d", h.Background))
	}
	if h.Error != "" {
		parts = append(parts, "error="+h.Error)
	}
	if h.Message != "" {
		parts = append(parts, fmt.Sprintf("message=%q", h.Message))
	}
	if h.Detail != "" && (h.Kind == respawn.HookQuestionPending || h.Kind == respawn.HookPermissionPrompt) {
		parts = append(parts, fmt.Sprintf("detail=%q", h.Detail))
	}
	return strings.Join(parts, " ")
}

// A marker written back as a payload reads as the same signal: recordings
// carry markers as payloads.
func TestMarker_PayloadRoundTrip(t *testing.T) {
	markers := []hooks.Marker{
		{Event: "Stop", BackgroundTasks: []string{"running", "completed"}},
		{Event: "Stop"},
		{Event: "PreToolUse", Tool: "AskUserQuestion"},
		{Event: "Notification", NotificationType: "idle_prompt", Message: "Claude is waiting for your input"},
		{Event: "SessionStart", Source: "clear"},
		{Event: "StopFailure", Error: "rate_limit"},
	}
	for _, m := range markers {
		_, want, wantOK := hooks.Interpret(m)
		got, ok := hooks.InterpretPayload(m.Payload())
		if ok != wantOK || got != want {
			t.Errorf("%s: payload %s reads as %+v (%t), the marker as %+v (%t)", m.Event, m.Payload(), got, ok, want, wantOK)
		}
	}
}
