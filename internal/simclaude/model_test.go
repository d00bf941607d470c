package simclaude

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

var completionRow = regexp.MustCompile(`^✻ (Baked|Brewed|Churned|Cogitated|Cooked|Crunched|Sautéed|Worked) for \d+s · done \d{1,2}:\d\d [AP]M$`)

func TestModel_OrdinaryTurn(t *testing.T) {
	s := newSim(t, nil)
	s.at(time.Second)
	s.typeText("hello there")
	if got := s.screen()[49]; got != "  ⏸ manual mode on" {
		t.Errorf("footer with input = %q", got)
	}
	s.key(keyEnter)
	rows := s.screen()
	if !spinnerRow.MatchString(rows[43]) || rows[49] != "  ⏸ manual mode on · esc to interrupt" {
		t.Errorf("working screen:\n%s", joinPlain(rows))
	}
	s.after(2 * time.Second)
	if !has(s.screen(), "  Ran 1 shell command") {
		t.Errorf("no Bash call in the transcript:\n%s", joinPlain(s.screen()))
	}
	s.after(2 * time.Second)
	rows = s.screen()
	if !completionRow.MatchString(find(rows, "✻ ")) {
		t.Errorf("no completion line:\n%s", joinPlain(rows))
	}
	if rows[49] != "  ⏸ manual mode on · ? for shortcuts" {
		t.Errorf("footer after the turn = %q", rows[49])
	}
	sameList(t, "hooks", s.events(0), []string{
		"SessionStart:startup", "UserPromptSubmit", "PreToolUse:Bash", "PostToolUse:Bash", "PostToolBatch", "Stop",
	})
	sameList(t, "log", s.logKinds(0), []string{
		`key "hello there" busy=false dialog=`,
		`submit "hello there" busy=false dialog=`,
		`turn_start "hello there" busy=false dialog=`,
		`turn_end "hello there" busy=true dialog= outcome=done`,
	})
}

func TestModel_CompletionLineTakesTurnDuration(t *testing.T) {
	s := newSim(t, func(o *Options) { o.Work = 61 * time.Second })
	s.submit("hello")
	s.after(70 * time.Second)
	if got := find(s.screen(), "✻ "); !strings.Contains(got, " for 1m 1s · done 6:48 PM") {
		t.Errorf("completion line = %q", got)
	}
}

func TestModel_LongKeywordWorksLonger(t *testing.T) {
	s := newSim(t, func(o *Options) { o.Long = 10 * time.Second })
	s.submit("a LONG one")
	s.after(9 * time.Second)
	if !spinnerRow.MatchString(s.screen()[43]) {
		t.Errorf("not working 9s into a long turn:\n%s", joinPlain(s.screen()))
	}
	s.after(2 * time.Second)
	if find(s.screen(), "✻ ") == "" {
		t.Error("long turn did not finish after --long")
	}
}

func TestModel_TypingAndEditing(t *testing.T) {
	s := newSim(t, nil)
	s.typeText("helo")
	s.key(keyBackspace)
	s.typeText("lo")
	s.key(keyNewline)
	s.typeText("second")
	if rows := s.screen(); rows[46] != "❯\u00a0hello" || rows[47] != "  second" {
		t.Errorf("input rows = %q, %q", rows[46], rows[47])
	}
	s.key(keyCtrlU)
	if got := string(s.m.input); got != "hello\n" {
		t.Errorf("after ctrl+u input = %q, want the first line kept", got)
	}
	s.key(keyCtrlC)
	if len(s.m.input) != 0 {
		t.Errorf("ctrl+c did not clear the input")
	}
	s.key(keyEnter)
	if s.m.turn != nil {
		t.Error("Enter on an empty input started a turn")
	}
}

func TestModel_PasteIsOneSubmit(t *testing.T) {
	s := newSim(t, nil)
	s.paste("line one\nline two")
	if s.m.turn != nil {
		t.Fatal("a newline inside a paste submitted")
	}
	s.key(keyEnter)
	sameList(t, "log", s.logKinds(0), []string{
		`paste "line one\nline two" busy=false dialog=`,
		`submit "line one\nline two" busy=false dialog=`,
		`turn_start "line one\nline two" busy=false dialog=`,
	})
	rows := s.screen()
	if rows[6] != "❯ line one" || rows[7] != "  line two" {
		t.Errorf("prompt echo = %q, %q", rows[6], rows[7])
	}
}

func TestModel_QueueWhileBusy(t *testing.T) {
	s := newSim(t, nil)
	s.submit("first")
	s.after(time.Second)
	s.submit("second")
	if got := s.screen()[47]; got != "❯\u00a0Press up to edit queued messages" {
		t.Errorf("input row with a queued prompt = %q", got)
	}
	s.after(3 * time.Second)
	rows := s.screen()
	if !has(rows, "❯ second") || !spinnerRow.MatchString(rows[43]) {
		t.Errorf("queued prompt did not run after the first turn:\n%s", joinPlain(rows))
	}
	sameList(t, "log", s.logKinds(0), []string{
		`key "first" busy=false dialog=`,
		`submit "first" busy=false dialog=`,
		`turn_start "first" busy=false dialog=`,
		`key "second" busy=true dialog=`,
		`queued "second" busy=true dialog=`,
		`turn_end "first" busy=true dialog= outcome=done`,
		`turn_start "second" busy=false dialog=`,
	})
	// UserPromptSubmit fires when a prompt is queued, not again when it runs.
	sameList(t, "hooks", s.events(0), []string{
		"SessionStart:startup", "UserPromptSubmit", "UserPromptSubmit", "PreToolUse:Bash",
		"PostToolUse:Bash", "PostToolBatch", "Stop",
	})
}

func TestModel_UpEditsQueuedPrompts(t *testing.T) {
	s := newSim(t, nil)
	s.submit("first")
	s.submit("second")
	s.key(keyUp)
	if string(s.m.input) != "second" || len(s.m.queue) != 0 {
		t.Errorf("input %q, queue %d after Up", string(s.m.input), len(s.m.queue))
	}
}

func TestModel_EscapeInterrupts(t *testing.T) {
	s := newSim(t, nil)
	s.submit("hello")
	s.after(time.Second)
	mark := len(s.hooks)
	s.key(keyEscape)
	rows := s.screen()
	if !has(rows, "  ⎿ \u00a0Interrupted · What should Claude do instead?") {
		t.Errorf("no interrupt line:\n%s", joinPlain(rows))
	}
	s.after(10 * time.Second)
	if find(s.screen(), "✻ ") != "" || len(s.events(mark)) != 0 {
		t.Errorf("after an interrupt: completion %q, hooks %v", find(s.screen(), "✻ "), s.events(mark))
	}
	if got := s.logKinds(0)[len(s.logs)-1]; got != `turn_end "hello" busy=true dialog= outcome=interrupted` {
		t.Errorf("last log entry = %s", got)
	}
}

func TestModel_EscapeWhileIdleDoesNothing(t *testing.T) {
	s := newSim(t, nil)
	s.typeText("draft")
	s.key(keyEscape)
	if string(s.m.input) != "draft" || s.m.turn != nil {
		t.Errorf("Escape while idle changed the input to %q", string(s.m.input))
	}
}

func TestModel_CtrlCTwiceExits(t *testing.T) {
	s := newSim(t, nil)
	s.key(keyCtrlC)
	if got := s.screen()[49]; got != "  Press Ctrl-C again to exit" {
		t.Errorf("footer after one Ctrl-C = %q", got)
	}
	s.after(ctrlCWindow)
	if got := s.screen()[49]; got != "  ⏸ manual mode on · ? for shortcuts" {
		t.Errorf("footer after the window = %q", got)
	}
	s.key(keyCtrlC)
	s.after(time.Second)
	s.key(keyCtrlC)
	if s.m.quit != "prompt_input_exit" {
		t.Fatalf("quit = %q", s.m.quit)
	}
	sameList(t, "hooks", s.events(0), []string{"SessionStart:startup", "SessionEnd:prompt_input_exit"})
}

func TestModel_ShiftTabCyclesModes(t *testing.T) {
	s := newSim(t, nil)
	var got []string
	for range 4 {
		s.key(keyShiftTab)
		got = append(got, s.screen()[49])
	}
	sameList(t, "footers", got, []string{
		"  ⏵⏵ accept edits on (shift+tab to cycle)",
		"  ⏸ plan mode on (shift+tab to cycle)",
		"  ⏵⏵ auto mode on (shift+tab to cycle)",
		"  ⏸ manual mode on · ? for shortcuts",
	})
}

func TestModel_IdleNotificationOncePerIdlePeriod(t *testing.T) {
	s := newSim(t, func(o *Options) { o.IdleNotify = 5 * time.Second })
	s.at(30 * time.Second)
	if len(s.events(1)) != 0 {
		t.Errorf("idle_prompt before any turn: %v", s.events(1))
	}
	s.submit("hello")
	s.after(4 * time.Second) // Stop came at 3.5s
	mark := len(s.hooks)
	s.after(4 * time.Second)
	if len(s.events(mark)) != 0 {
		t.Errorf("idle_prompt too early: %v", s.events(mark))
	}
	s.after(time.Second)
	s.after(time.Minute)
	sameList(t, "hooks after Stop", s.events(mark), []string{"Notification:idle_prompt"})
	if p := s.hooks[len(s.hooks)-1]; p.get("message") != "Claude is waiting for your input" {
		t.Errorf("idle message = %v", p.get("message"))
	}
}

func TestModel_IdleAfterDeadlinesNeedsNoTimer(t *testing.T) {
	s := newSim(t, func(o *Options) { o.IdleNotify = 5 * time.Second })
	s.submit("hello")
	s.after(time.Minute)
	if next := s.m.nextDeadline(s.now); !next.IsZero() {
		t.Errorf("idle model wants a wake-up at %s", next.Sub(s.now))
	}
}

func TestModel_ClearStartsNewSession(t *testing.T) {
	s := newSim(t, nil)
	s.submit("hello")
	s.after(5 * time.Second)
	old := s.m.session
	mark := len(s.hooks)
	s.submit("/clear")
	sameList(t, "hooks", s.events(mark), []string{"SessionEnd:clear", "SessionStart:clear"})
	end, start := s.hooks[mark], s.hooks[mark+1]
	if end.get("session_id") != old || start.get("session_id") == old {
		t.Errorf("session ids: end %v, start %v, old %s", end.get("session_id"), start.get("session_id"), old)
	}
	if s.m.turn != nil || len(s.m.items) != 1 {
		t.Errorf("after /clear: turn %v, %d items", s.m.turn, len(s.m.items))
	}
}

func TestModel_SlashMenuCompletes(t *testing.T) {
	s := newSim(t, nil)
	s.typeText("/cl")
	if got := s.screen()[45]; !strings.HasPrefix(got, "  ❯ /clear                      Start a new session") {
		t.Errorf("slash menu row = %q", got)
	}
	mark := len(s.hooks)
	s.key(keyEnter)
	sameList(t, "hooks", s.events(mark), []string{"SessionEnd:clear", "SessionStart:clear"})
}

func TestModel_InitWritesClaudeMD(t *testing.T) {
	s := newSim(t, nil)
	s.submit("/init")
	s.after(5 * time.Second)
	rows := s.screen()
	for _, want := range []string{"● Write(CLAUDE.md)", "  ⎿ \u00a0Wrote 3 lines to CLAUDE.md", "      1 # CLAUDE.md"} {
		if !has(rows, want) {
			t.Errorf("no %q in:\n%s", want, joinPlain(rows))
		}
	}
	if !completionRow.MatchString(find(rows, "✻ ")) {
		t.Errorf("no completion line after /init")
	}
	sameList(t, "hooks", s.events(1), []string{
		"UserPromptSubmit", "UserPromptExpansion", "PreToolUse:Write", "PostToolUse:Write", "PostToolBatch", "Stop",
	})
}

func TestModel_CompactShowsCompacted(t *testing.T) {
	s := newSim(t, nil)
	s.submit("/compact")
	if !s.m.busy() {
		t.Error("not busy while compacting")
	}
	s.after(4 * time.Second)
	if !has(s.screen(), "  ⎿ \u00a0Compacted (ctrl+o to see full summary)") {
		t.Errorf("no Compacted line:\n%s", joinPlain(s.screen()))
	}
	sameList(t, "hooks", s.events(1), []string{"PreCompact", "SubagentStop", "SessionStart:compact", "PostCompact"})
}

func TestModel_APIErrorEndsWithStopFailure(t *testing.T) {
	s := newSim(t, nil)
	s.submit("trigger an Error")
	s.after(2 * time.Second)
	sameList(t, "hooks", s.events(1), []string{"UserPromptSubmit", "StopFailure:server_error"})
	s.typeText("x")
	if got := s.screen()[47]; got != "❯\u00a0x" {
		t.Errorf("typing after an error: %q", got)
	}
}

func TestPickScenario(t *testing.T) {
	for prompt, want := range map[string]scenario{
		"hello":                     scenarioOrdinary,
		"make a PLAN":               scenarioPlan,
		"explanation please":        scenarioOrdinary, // whole words only
		"ask a question":            scenarioQuestion,
		"needs permission":          scenarioPermission,
		"hit the limit":             scenarioLimit,
		"an error":                  scenarioError,
		"run in background":         scenarioBackground,
		"a long task":               scenarioLong,
		"plan, then hit the limit":  scenarioLimit,
		"error: plan":               scenarioError,
		"question\nabout the plan":  scenarioQuestion,
		"(permission) and long":     scenarioPermission,
		"background-long":           scenarioBackground,
		"Update the docs. /compact": scenarioOrdinary,
	} {
		if got := pickScenario(prompt, false); got != want {
			t.Errorf("pickScenario(%q) = %d, want %d", prompt, got, want)
		}
	}
	if got := pickScenario("hello", true); got != scenarioLimit {
		t.Errorf("while limited: %d", got)
	}
}

func TestModel_SeedMakesRunsRepeatable(t *testing.T) {
	run := func(seed int64) string {
		s := newSim(t, func(o *Options) { o.Seed = seed })
		var screens []string
		for _, p := range []string{"one", "two", "three"} {
			s.submit(p)
			s.after(time.Second)
			screens = append(screens, s.screen()[43])
			s.after(3 * time.Second)
		}
		return strings.Join(append(screens, joinPlain(s.screen()), s.m.session), "\n")
	}
	if a, b := run(42), run(42); a != b {
		t.Errorf("same seed, different runs:\n%s\n---\n%s", a, b)
	}
	if a, b := run(42), run(43); a == b {
		t.Error("different seeds gave the same run")
	}
}
