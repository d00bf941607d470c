package simclaude

import (
	"strings"
	"testing"
	"time"
)

func TestScenario_UsageLimitContinuesAtReset(t *testing.T) {
	s := newSim(t, func(o *Options) { o.LimitReset = time.Minute })
	s.submit("limit")
	s.after(2 * time.Second)
	if got := s.events(1); strings.Join(got, " ") != "UserPromptSubmit StopFailure:rate_limit" {
		t.Errorf("hooks = %v", got)
	}
	if find(s.screen(), "✻ ") != "" || s.m.busy() {
		t.Errorf("a limited turn looks finished or busy:\n%s", joinPlain(s.screen()))
	}
	s.after(time.Minute)
	if !s.m.busy() {
		t.Fatalf("no automatic continue at the reset:\n%s", joinPlain(s.screen()))
	}
	if has(s.screen(), "  ⚠ Usage limit reached · limit resets 6:48pm") {
		t.Error("limit lines still shown after the reset")
	}
	s.after(5 * time.Second)
	if !completionRow.MatchString(find(s.screen(), "✻ ")) {
		t.Errorf("continued turn did not complete:\n%s", joinPlain(s.screen()))
	}
}

func TestScenario_UsageLimitHitsEveryTurnUntilReset(t *testing.T) {
	s := newSim(t, func(o *Options) { o.LimitReset = time.Minute })
	s.submit("limit")
	s.after(2 * time.Second)
	s.submit("hello")
	s.after(2 * time.Second)
	ev := s.events(1)
	if ev[len(ev)-1] != "StopFailure:rate_limit" {
		t.Errorf("a prompt during the limit did not hit it: %v", ev)
	}
	reset := s.hooks[len(s.hooks)-1].get("last_assistant_message")
	if reset != s.hooks[2].get("last_assistant_message") {
		t.Errorf("reset time moved: %v, then %v", s.hooks[2].get("last_assistant_message"), reset)
	}
}

func TestScenario_UsageLimitEscapeCancels(t *testing.T) {
	s := newSim(t, func(o *Options) { o.LimitReset = time.Minute })
	s.submit("limit")
	s.after(2 * time.Second)
	s.key(keyEscape)
	rows := s.screen()
	if !has(rows, "● Automatic continue cancelled · /rate-limit-options to re-arm") ||
		!has(rows, "     /upgrade to increase your usage limit.") || find(rows, "  ⚠") != "" {
		t.Errorf("after Esc:\n%s", joinPlain(rows))
	}
	s.after(2 * time.Minute)
	if s.m.turn != nil || s.m.limit != nil {
		t.Errorf("cancelled limit still acts: turn %v, limit %v", s.m.turn, s.m.limit)
	}
	s.submit("hello")
	s.after(5 * time.Second)
	if !completionRow.MatchString(find(s.screen(), "✻ ")) {
		t.Error("turn after the reset did not complete")
	}
}

func TestScenario_BackgroundAgent(t *testing.T) {
	s := newSim(t, func(o *Options) { o.AgentTime = 10 * time.Second })
	s.submit("background")
	s.after(4 * time.Second)
	rows := s.screen()
	if !has(rows, "✻ Waiting for 1 background agent to finish") || s.m.busy() {
		t.Errorf("after the main turn:\n%s", joinPlain(rows))
	}
	if got := find(rows, "  ⏸ manual mode on"); got != "  ⏸ manual mode on · ? for shortcuts · ← for agents · ↓ to manage" {
		t.Errorf("footer = %q", got)
	}
	stop := s.hooks[len(s.hooks)-1]
	if tasks := stop.get("background_tasks").([]object); stop.get("hook_event_name") != "Stop" || len(tasks) != 1 || tasks[0].get("status") != "running" {
		t.Errorf("Stop = %v", stop)
	}
	s.after(10 * time.Second)
	rows = s.screen()
	if !has(rows, `● Agent "Say hi subtask" finished · 10s`) || !hasMatch(rows, completionRow) {
		t.Errorf("after the agent:\n%s", joinPlain(rows))
	}
	if got := rows[49]; got != "  ⏸ manual mode on · /tasks to see subagents" {
		t.Errorf("footer = %q", got)
	}
	sameList(t, "hooks", s.events(1), []string{
		"UserPromptSubmit", "PreToolUse:Agent", "PostToolUse:Agent", "SubagentStart", "PostToolBatch", "Stop",
		"SubagentStop", "UserPromptSubmit", "Stop",
	})
	notification := s.hooks[8].get("prompt").(string)
	if !strings.HasPrefix(notification, "<task-notification>") {
		t.Errorf("task notification prompt = %q", notification)
	}
	if tasks := s.hooks[9].get("background_tasks").([]object); len(tasks) != 0 {
		t.Errorf("final Stop lists %d tasks", len(tasks))
	}
}

func TestScenario_BackgroundReportWaitsForBusyTurn(t *testing.T) {
	s := newSim(t, func(o *Options) { o.AgentTime = 3 * time.Second })
	s.submit("background")
	s.after(4 * time.Second) // Stop came at 3.25s; the agent runs until 4.5s
	s.submit("hello")
	s.after(2 * time.Second) // the agent reports while "hello" works
	if s.m.turn == nil || s.m.turn.prompt != "hello" {
		t.Fatalf("the report interrupted the running turn")
	}
	s.after(5 * time.Second)
	if got := s.logs[len(s.logs)-1]; got.Kind != LogTurnEnd || !strings.HasPrefix(got.Text, "<task-notification>") {
		t.Errorf("last log entry = %+v", got)
	}
}

func TestScenario_UsageLimitSurvivesClear(t *testing.T) {
	s := newSim(t, func(o *Options) { o.LimitReset = time.Minute })
	s.submit("limit")
	s.after(2 * time.Second)
	s.submit("/clear")
	s.key(keyEscape)
	if !has(s.screen(), "● Automatic continue cancelled · /rate-limit-options to re-arm") {
		t.Errorf("Esc after /clear:\n%s", joinPlain(s.screen()))
	}
}
