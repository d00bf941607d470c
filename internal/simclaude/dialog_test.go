package simclaude

import (
	"strings"
	"testing"
	"time"
)

// openWith submits prompt and runs until its dialog is open.
func openWith(t *testing.T, prompt string) *sim {
	t.Helper()
	s := newSim(t, nil)
	s.submit(prompt)
	s.after(3 * time.Second)
	if s.m.dialog == nil {
		t.Fatalf("no dialog after %q:\n%s", prompt, joinPlain(s.screen()))
	}
	return s
}

func TestDialog_PlanEnterAcceptsWithAutoMode(t *testing.T) {
	s := openWith(t, "plan it")
	s.key(keyEnter)
	s.after(3 * time.Second)
	rows := s.screen()
	if !has(rows, "● Approved Claude's plan") || !completionRow.MatchString(find(rows, "✻ ")) {
		t.Errorf("after accepting the plan:\n%s", joinPlain(rows))
	}
	if rows[49] != "  ⏵⏵ auto mode on (shift+tab to cycle)" {
		t.Errorf("footer = %q", rows[49])
	}
	sameList(t, "hooks", s.events(1), []string{
		"UserPromptSubmit", "PreToolUse:ExitPlanMode", "PermissionRequest:ExitPlanMode",
		"PostToolUse:ExitPlanMode", "PostToolBatch", "Stop",
	})
	logs := s.logKinds(0)
	if got := logs[3]; got != `key "" key=enter busy=false dialog=plan` {
		t.Errorf("Enter on the plan logged as %s", got)
	}
}

func TestDialog_PlanOptionTwoKeepsManualMode(t *testing.T) {
	s := openWith(t, "plan it")
	s.typeText("2")
	s.after(3 * time.Second)
	if got := s.screen()[49]; got != "  ⏸ manual mode on · ? for shortcuts" {
		t.Errorf("footer = %q", got)
	}
}

func TestDialog_PlanFeedback(t *testing.T) {
	s := openWith(t, "plan it")
	s.typeText("3")
	if s.m.dialog == nil || !s.m.dialog.typing {
		t.Fatal("option 3 did not ask for feedback")
	}
	s.typeText("use sqlite")
	if got := find(s.screen(), "   ❯ 3. "); got != "   ❯ 3. use sqlite" {
		t.Errorf("feedback row = %q", got)
	}
	s.key(keyEnter)
	s.after(3 * time.Second)
	rows := s.screen()
	if !has(rows, "  ⎿ \u00a0Rejected Claude's plan:") || find(rows, "● I'll revise the plan: “use sqlite”") == "" {
		t.Errorf("after feedback:\n%s", joinPlain(rows))
	}
	if !strings.Contains(strings.Join(s.logKinds(0), "\n"), `submit "use sqlite" busy=false dialog=plan`) {
		t.Errorf("feedback not logged as a submit:\n%s", strings.Join(s.logKinds(0), "\n"))
	}
	if ev := s.events(0); ev[len(ev)-1] != "Stop" {
		t.Errorf("turn did not stop: %v", ev)
	}
}

func TestDialog_PlanEscapeRejects(t *testing.T) {
	s := openWith(t, "plan it")
	mark := len(s.hooks)
	s.key(keyEscape)
	s.after(10 * time.Second)
	rows := s.screen()
	if !has(rows, "     │ Fake plan: add hello.txt            │") || find(rows, "✻ ") != "" {
		t.Errorf("after Esc on the plan:\n%s", joinPlain(rows))
	}
	if len(s.events(mark)) != 0 {
		t.Errorf("hooks after a rejected plan: %v", s.events(mark))
	}
}

func TestDialog_PermissionPromptNotification(t *testing.T) {
	for _, tc := range []struct{ prompt, message string }{
		{"plan it", "Claude Code needs your approval for the plan"},
		{"question", "Claude needs your permission"},
		{"permission", "Claude needs your permission"},
	} {
		t.Run(tc.prompt, func(t *testing.T) {
			s := openWith(t, tc.prompt)
			mark := len(s.hooks)
			s.after(5 * time.Second)
			if len(s.events(mark)) != 0 {
				t.Errorf("notification too early: %v", s.events(mark))
			}
			s.after(2 * time.Second)
			s.after(time.Minute)
			sameList(t, "hooks", s.events(mark), []string{"Notification:permission_prompt"})
			if got := s.hooks[mark].get("message"); got != tc.message {
				t.Errorf("message = %v", got)
			}
		})
	}
}

func TestDialog_AnsweredBeforeNotification(t *testing.T) {
	s := openWith(t, "permission")
	s.after(time.Second)
	s.typeText("1")
	s.after(time.Minute)
	for _, e := range s.events(0) {
		if e == "Notification:permission_prompt" {
			t.Error("permission_prompt after the dialog was answered")
		}
	}
}

func TestDialog_QuestionDigitAnswers(t *testing.T) {
	s := openWith(t, "question")
	s.typeText("2")
	s.after(2 * time.Second)
	rows := s.screen()
	if !has(rows, "  ⎿ \u00a0· Which database should the project use? → SQLite") || !completionRow.MatchString(find(rows, "✻ ")) {
		t.Errorf("after answering:\n%s", joinPlain(rows))
	}
	sameList(t, "hooks", s.events(1), []string{
		"UserPromptSubmit", "PreToolUse:AskUserQuestion", "PermissionRequest:AskUserQuestion",
		"PostToolUse:AskUserQuestion", "PostToolBatch", "Stop",
	})
	post := s.hooks[4].get("tool_input").(object)
	if answers := post.get("answers").(object); answers.get("Which database should the project use?") != "SQLite" {
		t.Errorf("answers = %v", answers)
	}
}

func TestDialog_QuestionArrowsAndEnter(t *testing.T) {
	s := openWith(t, "question")
	s.key(keyDown)
	s.key(keyDown)
	if !has(s.screen(), "❯ 3. Redis") {
		t.Errorf("Redis not highlighted:\n%s", joinPlain(s.screen()))
	}
	s.key(keyEnter)
	if !has(s.screen(), "  ⎿ \u00a0· Which database should the project use? → Redis") {
		t.Errorf("Enter did not take the highlighted option:\n%s", joinPlain(s.screen()))
	}
}

func TestDialog_QuestionTypedAnswer(t *testing.T) {
	s := openWith(t, "question")
	s.typeText("4")
	s.typeText("DuckDB")
	s.key(keyEnter)
	if !has(s.screen(), "  ⎿ \u00a0· Which database should the project use? → DuckDB") {
		t.Errorf("typed answer missing:\n%s", joinPlain(s.screen()))
	}
}

func TestDialog_QuestionEscapeDeclines(t *testing.T) {
	s := openWith(t, "question")
	mark := len(s.hooks)
	s.key(keyEscape)
	s.after(time.Minute)
	if s.m.turn != nil || len(s.events(mark)) != 0 {
		t.Errorf("after Esc: turn %v, hooks %v", s.m.turn, s.events(mark))
	}
	if last := s.logs[len(s.logs)-1]; last.Outcome != OutcomeDeclined {
		t.Errorf("outcome = %q", last.Outcome)
	}
}

func TestDialog_PermissionAllowAndDeny(t *testing.T) {
	for _, tc := range []struct {
		name    string
		keys    func(*sim)
		outcome string
		row     string
		footer  string
	}{
		{"one", func(s *sim) { s.typeText("1") }, OutcomeDone, "  Ran 1 shell command", "  ⏸ manual mode on · ? for shortcuts"},
		{"enter", func(s *sim) { s.key(keyEnter) }, OutcomeDone, "  Ran 1 shell command", "  ⏸ manual mode on · ? for shortcuts"},
		{"three", func(s *sim) { s.typeText("3") }, OutcomeDone, "  Ran 1 shell command", "  ⏵⏵ auto mode on (shift+tab to cycle)"},
		{"four", func(s *sim) { s.typeText("4") }, OutcomeDenied, "  Did not run 1 call", "  ⏸ manual mode on · ? for shortcuts"},
		{"escape", func(s *sim) { s.key(keyEscape) }, OutcomeDenied, "  Did not run 1 call", "  ⏸ manual mode on · ? for shortcuts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := openWith(t, "permission")
			tc.keys(s)
			s.after(3 * time.Second)
			rows := s.screen()
			if !has(rows, tc.row) || rows[49] != tc.footer {
				t.Errorf("screen:\n%s", joinPlain(rows))
			}
			if last := s.logs[len(s.logs)-1]; last.Kind != LogTurnEnd || last.Outcome != tc.outcome {
				t.Errorf("last log entry %+v, want outcome %s", last, tc.outcome)
			}
		})
	}
}

func TestDialog_TypingDoesNotReachThePrompt(t *testing.T) {
	s := openWith(t, "permission")
	s.typeText("hello")
	s.paste("pasted")
	if len(s.m.input) != 0 || s.m.dialog == nil {
		t.Errorf("input %q, dialog %v", string(s.m.input), s.m.dialog)
	}
	logs := s.logKinds(0)
	sameList(t, "log", logs[len(logs)-2:], []string{
		`key "hello" busy=false dialog=permission`,
		`paste "pasted" busy=false dialog=permission`,
	})
}
