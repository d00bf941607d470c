package simclaude

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The Copilot look is compared with the real Copilot CLI 1.0.102 screens
// (200x50, agents/copilot/testdata/screens) row by row.

const copilotScreens = "../../agents/copilot/testdata/screens"

func newCopilotSim(t *testing.T, cwd string, edit func(*Options)) *sim {
	return newSim(t, func(o *Options) {
		o.Look = LookCopilot
		if cwd != "" {
			o.Cwd = cwd
		}
		if edit != nil {
			edit(o)
		}
	})
}

// recordedCopilot reads a real Copilot screen as rows.
func recordedCopilot(t *testing.T, situation string) []string {
	t.Helper()
	return screenFile(t, filepath.Join(copilotScreens, "v1.0.102-"+situation+".txt"))
}

// copilotClock masks what the clock writes: the time of a prompt's echo
// and the seconds of a tool row.
var copilotClock = regexp.MustCompile(`( \d\d:\d\d| \d+s)( ┃)?$`)

func maskClock(rows []string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = copilotClock.ReplaceAllString(r, " <clock>$2")
	}
	return out
}

// copilotSituations drives the Copilot look into each recorded situation;
// skip lists rows (1-based, as in the files) whose text is the
// recording's own.
func copilotSituations(t *testing.T) []codexSituation {
	var out []codexSituation
	add := func(name string, s *sim, skip ...int) {
		for i := range skip {
			skip[i]--
		}
		out = append(out, codexSituation{name, s.screen(), skip})
	}
	const main1 = "/tmp/cpr/main1/proj"

	s := newCopilotSim(t, "/tmp/cpr/first/proj", nil)
	add("idle", s)
	s.typeText("say hello")
	add("typed", s)

	s = newCopilotSim(t, "/tmp/cpr/hooks1/proj", nil)
	s.send("/clear")
	add("after-clear", s)
	s.send("/new")
	add("after-new", s)

	s = newCopilotSim(t, main1, nil)
	s.send("/clear")
	s.send("stream slowly now")
	s.after(7*copilotGlyphFrame - 2*pasteEnterWindow) // the glyph ◎
	add("working", s)
	s.after(time.Second)
	add("streaming", s, 9, 50) // the reply, its bytes
	s.after(3 * time.Second)
	add("done", s, 9)

	s = newCopilotSim(t, main1, nil)
	s.send("/clear")
	s.send("run the slow tool, permission needed")
	s.after(4 * time.Second)
	add("permission-shell-remember", s, 7, 9, 11, 12, 37, 40, 46) // the recording's call

	s = newCopilotSim(t, main1, nil)
	s.send("/clear")
	s.send("ask me a question")
	s.after(4 * time.Second)
	add("question", s)

	s = newCopilotSim(t, main1, nil)
	s.send("/clear")
	s.key(keyShiftTab)
	add("plan-mode", s)
	s.send("a tiny change first")
	s.after(4 * time.Second)
	s.send("plan the readme")
	s.after(4 * time.Second)
	add("plan-approval", s, 7, 9) // the recording's first turn
	s.typeText("1")
	s.after(3 * time.Second)
	add("plan-accepted", s, 7, 9, 17)

	s = newCopilotSim(t, main1, nil)
	s.send("/clear")
	s.send("ask me a question")
	s.after(4 * time.Second)
	s.key(keyDown)
	s.after(8 * time.Second)
	s.key(keyEnter)
	s.after(3 * time.Second)
	add("question-answered", s)

	s = newCopilotSim(t, main1, nil)
	s.send("/clear")
	s.send("hello")
	s.after(4 * time.Second)
	s.send("/init")
	s.after(2 * time.Second)
	add("permission-write", s, 7, 9)
	s.key(keyEnter)
	s.after(3 * time.Second)
	add("init-done", s, 7, 9)

	s = newCopilotSim(t, main1, nil)
	s.send("/clear")
	s.send("stream slowly now")
	s.after(4 * time.Second)
	s.send("very long answer please")
	s.after(10 * time.Second)
	s.key(keyEscape)
	add("esc-once-working", s, 9, 13, 50) // the replies, the bytes
	s.after(150 * time.Millisecond)
	s.key(keyEscape)
	add("interrupted", s, 9, 13)

	s = newCopilotSim(t, main1, nil)
	s.send("/clear")
	s.send("server error test")
	s.after(4 * time.Second)
	add("api-error-500", s, 19) // the recording's wait

	s = newCopilotSim(t, main1, nil)
	s.send("/clear")
	s.send("usage limit test")
	s.after(4 * time.Second)
	add("api-error-429-usage-limit", s, 9)
	return out
}

func TestCopilot_ScreensMatchRecordings(t *testing.T) {
	for _, c := range copilotSituations(t) {
		t.Run(c.name, func(t *testing.T) {
			got, want := maskClock(c.screen), maskClock(recordedCopilot(t, c.name))
			for _, r := range c.skip {
				got[r], want[r] = "", ""
			}
			sameRows(t, c.name, got, want)
		})
	}
}

// copilotEvents lists the hook runs since mark as "event" or
// "event:detail", the event being the command's argument.
func (s *sim) copilotEvents(mark int) []string {
	var out []string
	for i, p := range s.hooks[mark:] {
		e := s.args[mark+i]
		for _, k := range []string{"toolName", "notification_type", "source", "reason"} {
			if v, ok := p.get(k).(string); ok {
				e += ":" + v
				break
			}
		}
		out = append(out, e)
	}
	return out
}

func TestCopilot_TurnHooksAndTitle(t *testing.T) {
	s := newCopilotSim(t, "", nil)
	if got := s.m.title(s.now); got != "GitHub Copilot" {
		t.Errorf("title at start = %q", got)
	}
	s.send("say hello")
	s.after(5 * time.Second)
	s.send("say more")
	s.after(5 * time.Second)
	sameList(t, "hooks", s.copilotEvents(0), []string{
		"sessionStart:new", "userPromptSubmitted", "userPromptTransformed", "agentStop",
		"userPromptSubmitted", "userPromptTransformed", "agentStop",
	})
	if got := s.hooks[0].get("initialPrompt"); got != "say hello" {
		t.Errorf("initialPrompt = %v", got)
	}
	if got := s.m.title(s.now); got != "say hello - GitHub Copilot" {
		t.Errorf("title = %q", got)
	}
	if got := s.screen()[49]; !regexp.MustCompile(`^ ← open sidebar · Interactive · Manual Approval · / commands · \? help · tab next tab +gpt-5\.5$`).MatchString(got) {
		t.Errorf("state row when done = %q", got)
	}
}

// One read of 32 characters or more, its CR counting, is a paste: the CR
// is dropped. An Enter in a read of its own submits.
func TestCopilot_PasteRule(t *testing.T) {
	s := newCopilotSim(t, "", nil)
	long := "one write long text, well over 32"
	s.read(inputEvent{kind: evText, text: long}, inputEvent{kind: evKey, key: keyEnter})
	if s.m.turn != nil || string(s.m.input) != long {
		t.Fatalf("text and CR in one read: turn %v, input %q", s.m.turn != nil, string(s.m.input))
	}
	s.read(inputEvent{kind: evText, text: " and more, in a read long enough"}, inputEvent{kind: evKey, key: keyEnter}, inputEvent{kind: evText, text: " tail"})
	if s.m.turn != nil || string(s.m.input) != long+" and more, in a read long enough tail" {
		t.Fatalf("a CR inside a long read: turn %v, input %q", s.m.turn != nil, string(s.m.input))
	}
	s.key(keyEnter)
	if s.m.turn == nil {
		t.Fatal("an Enter of its own did not submit")
	}
	sameList(t, "log", s.logKinds(0)[:4], []string{
		`key "` + long + `" busy=false dialog=`,
		`key "\n" key=enter busy=false dialog=`,
		`key " and more, in a read long enough" busy=false dialog=`,
		`key "\n" key=enter busy=false dialog=`,
	})

	// A short text and its CR in one read submit; a newline makes any
	// read a paste.
	s = newCopilotSim(t, "", nil)
	s.read(inputEvent{kind: evText, text: "short text here"}, inputEvent{kind: evKey, key: keyEnter})
	if s.m.turn == nil {
		t.Fatal("17 characters and a CR in one read did not submit")
	}
	s = newCopilotSim(t, "", nil)
	s.read(inputEvent{kind: evText, text: "one"}, inputEvent{kind: evKey, key: keyNewline}, inputEvent{kind: evText, text: "two"}, inputEvent{kind: evKey, key: keyEnter})
	if s.m.turn != nil || string(s.m.input) != "one\ntwo" {
		t.Fatalf("a read with a newline: turn %v, input %q", s.m.turn != nil, string(s.m.input))
	}
	if rows := s.screen(); rows[46] != "❯ one" || rows[47] != "  two" {
		t.Errorf("box rows %q %q", rows[46], rows[47])
	}
}

// One Esc only arms the interrupt; a second one soon after interrupts
// without a hook: before any output the prompt goes back into the box.
func TestCopilot_EscEsc(t *testing.T) {
	s := newCopilotSim(t, "", nil)
	s.send("long task")
	s.key(keyEscape)
	if s.m.turn == nil || !regexp.MustCompile(`^ . Working esc again to edit prompt +gpt-5\.5$`).MatchString(s.screen()[49]) {
		t.Fatalf("after one Esc: turn %v, state row %q", s.m.turn != nil, s.screen()[49])
	}
	s.after(copilotEscWindow + time.Millisecond)
	s.key(keyEscape)
	if s.m.turn == nil {
		t.Fatal("two Escs a window apart interrupted")
	}
	mark := len(s.hooks)
	s.after(100 * time.Millisecond)
	s.key(keyEscape)
	if s.m.turn != nil || string(s.m.input) != "long task" || has(s.screen(), " ❯ long task") {
		t.Fatalf("withdrawn: turn %v, input %q\n%s", s.m.turn != nil, string(s.m.input), joinPlain(s.screen()))
	}

	s.m.input = nil
	s.send("long task")
	s.after(10 * time.Second)
	s.key(keyEscape)
	s.after(150 * time.Millisecond)
	s.key(keyEscape)
	if s.m.turn != nil || !has(s.screen(), " ● Operation cancelled by user") {
		t.Fatalf("interrupted:\n%s", joinPlain(s.screen()))
	}
	sameList(t, "hooks", s.copilotEvents(mark), []string{"userPromptSubmitted", "userPromptTransformed"})
}

func TestCopilot_PermissionPrompt(t *testing.T) {
	s := newCopilotSim(t, "", nil)
	s.send("clean up, permission needed")
	s.after(4 * time.Second)
	sameList(t, "hooks", s.copilotEvents(0), []string{
		"sessionStart:new", "userPromptSubmitted", "userPromptTransformed",
		"preToolUse:bash", "permissionRequest:bash", "notification:permission_prompt",
	})
	mark := len(s.hooks)
	s.typeText("1")
	s.after(3 * time.Second)
	sameList(t, "hooks after 1", s.copilotEvents(mark), []string{"postToolUse:bash", "agentStop"})
	if !has(s.screen(), " $ Shell Delete the build output No Content") {
		t.Errorf("no done tool row:\n%s", joinPlain(s.screen()))
	}

	// Esc refuses and ends the turn; no hook says so.
	s.send("again, permission needed")
	s.after(4 * time.Second)
	mark = len(s.hooks)
	s.key(keyEscape)
	for _, want := range []string{" ✗ Shell Delete the build output Operation aborted by user", "     └ - Confirmation cancelled for shell command (rm)", " ● Operation cancelled by user"} {
		if !has(s.screen(), want) {
			t.Errorf("no row %q after Esc:\n%s", want, joinPlain(s.screen()))
		}
	}

	// 3 highlights the feedback field, typed text goes in, Enter refuses
	// with it and the turn goes on.
	s.send("once more, permission needed")
	s.after(4 * time.Second)
	s.typeText("3")
	if s.m.dialog == nil || s.m.dialog.cursor != 2 {
		t.Fatal("3 did not only highlight the last option")
	}
	s.typeText("do not delete it")
	if find(s.screen(), "│ ❯ 3. do not delete it (Esc to stop) ") == "" {
		t.Errorf("no feedback row:\n%s", joinPlain(s.screen()))
	}
	s.key(keyEnter)
	s.after(3 * time.Second)
	sameList(t, "hooks after Esc and feedback", s.copilotEvents(mark), []string{
		"userPromptSubmitted", "userPromptTransformed", "preToolUse:bash", "permissionRequest:bash", "notification:permission_prompt",
		"agentStop",
	})
	if !has(s.screen(), " ✗ Shell Delete the build output The user rejected this tool call. User feedback: do not delete it") {
		t.Errorf("no rejected row:\n%s", joinPlain(s.screen()))
	}
}

func TestCopilot_QuestionAndPlan(t *testing.T) {
	s := newCopilotSim(t, "", nil)
	s.send("ask me a question")
	s.after(4 * time.Second)
	mark := len(s.hooks)
	s.key(keyDown)
	s.key(keyEnter)
	s.after(3 * time.Second)
	sameList(t, "hooks after the answer", s.copilotEvents(mark), []string{"postToolUse:ask_user", "agentStop"})
	if !has(s.screen(), "   └ sqlite") {
		t.Errorf("no answer row:\n%s", joinPlain(s.screen()))
	}

	// The model presents a plan only in plan mode; Enter accepts it and
	// the mode is Interactive again.
	s.send("plan the readme")
	s.after(4 * time.Second)
	if s.m.dialog != nil {
		t.Fatal("a plan approval in Interactive mode")
	}
	s.key(keyShiftTab)
	s.send("plan the readme")
	s.after(4 * time.Second)
	if s.m.dialog == nil || s.m.dialog.kind != dialogPlan {
		t.Fatal("no plan approval in plan mode")
	}
	mark = len(s.hooks)
	s.key(keyEnter)
	s.after(3 * time.Second)
	sameList(t, "hooks after accepting", s.copilotEvents(mark), []string{"postToolUse:exit_plan_mode", "agentStop"})
	if got := s.screen()[49]; !regexp.MustCompile(`· Interactive ·`).MatchString(got) {
		t.Errorf("state row after the plan = %q", got)
	}
}

// /clear ends the session and the next prompt opens another; /new leaves
// it open until Copilot exits, which ends every open session.
func TestCopilot_ClearNewExit(t *testing.T) {
	s := newCopilotSim(t, "", nil)
	s.send("hello")
	s.after(5 * time.Second)
	first := s.m.session
	s.send("/clear")
	if got := s.screen()[2]; got != " ● "+copilotFresh {
		t.Errorf("after /clear row 3 = %q", got)
	}
	s.send("hello again")
	s.after(5 * time.Second)
	second := s.m.session
	s.send("/new")
	s.send("/exit")
	sameList(t, "hooks", s.copilotEvents(0), []string{
		"sessionStart:new", "userPromptSubmitted", "userPromptTransformed", "agentStop",
		"sessionEnd:user_exit",
		"sessionStart:new", "userPromptSubmitted", "userPromptTransformed", "agentStop",
		"sessionEnd:user_exit",
	})
	if s.hooks[4].get("sessionId") != first || s.hooks[9].get("sessionId") != second || first == second {
		t.Errorf("sessionEnd ids %v %v, sessions %s %s", s.hooks[4].get("sessionId"), s.hooks[9].get("sessionId"), first, second)
	}
	if s.m.quit == "" {
		t.Error("/exit did not exit")
	}
	if note := s.m.exitNote(s.m.quit); !strings.Contains(note, "  █ ▘▝ █   Resume     copilot --resume="+second+"\n") {
		t.Errorf("exit note:\n%s", note)
	}
}

// /init sends Copilot's prompt and asks before it writes the file, with
// the notification the real CLI runs for it.
func TestCopilot_Init(t *testing.T) {
	s := newCopilotSim(t, "", nil)
	s.send("/init")
	s.after(2 * time.Second)
	sameList(t, "hooks", s.copilotEvents(0), []string{
		"sessionStart:new", "userPromptSubmitted", "userPromptTransformed", "preToolUse:apply_patch", "permissionRequest:edit",
		"notification:permission_prompt",
	})
	if got := s.hooks[len(s.hooks)-1].get("message"); got != "Edit file: /home/dev/proj/.github/copilot-instructions.md" {
		t.Errorf("notification message = %v", got)
	}
	if got := s.hooks[1].get("prompt"); got != copilotInitPrompt {
		t.Errorf("prompt = %q", got)
	}
	if find(s.screen(), "│ Do you want to create /home/dev/proj/.github/copilot-instructions.md? ") == "" {
		t.Errorf("no file-write prompt:\n%s", joinPlain(s.screen()))
	}
	mark := len(s.hooks)
	s.key(keyEnter)
	s.after(3 * time.Second)
	sameList(t, "hooks after Enter", s.copilotEvents(mark), []string{"postToolUse:apply_patch", "agentStop"})
	if !has(s.screen(), " ● Created .github/copilot-instructions.md.") {
		t.Errorf("no reply:\n%s", joinPlain(s.screen()))
	}
}

// With --allow-tool write, /init writes the file without asking: the
// real CLI still runs permissionRequest, shows no prompt and runs no
// notification, and the row shows no time.
func TestCopilot_InitWriteAllowed(t *testing.T) {
	s := newCopilotSim(t, "", func(o *Options) { o.AllowWrite = true })
	if got := s.screen()[49]; !strings.HasPrefix(got, " ← open sidebar · Interactive · Manual Approval · ") {
		t.Errorf("footer %q: the real CLI keeps Manual Approval with --allow-tool write", got)
	}
	s.send("/init")
	s.after(2 * time.Second)
	if s.m.dialog != nil {
		t.Fatalf("a dialog opened:\n%s", joinPlain(s.screen()))
	}
	s.after(3 * time.Second)
	sameList(t, "hooks", s.copilotEvents(0), []string{
		"sessionStart:new", "userPromptSubmitted", "userPromptTransformed", "preToolUse:apply_patch", "permissionRequest:edit",
		"postToolUse:apply_patch", "agentStop",
	})
	if !has(s.screen(), " ● Edit  Create .github/copilot-instructions.md") || !has(s.screen(), " ● Created .github/copilot-instructions.md.") {
		t.Errorf("no write or reply:\n%s", joinPlain(s.screen()))
	}
}

// A failed turn runs errorOccurred per attempt and no agentStop.
func TestCopilot_ErrorsAndKeys(t *testing.T) {
	s := newCopilotSim(t, "", nil)
	s.send("this will error")
	s.after(4 * time.Second)
	want := []string{"sessionStart:new", "userPromptSubmitted", "userPromptTransformed"}
	for range 6 {
		want = append(want, "errorOccurred")
	}
	sameList(t, "hooks", s.copilotEvents(0), want)
	if n := countRows(s.screen(), " ● "+copilotRetrying); n != 5 || s.m.turn != nil {
		t.Errorf("%d retry rows, turn %v", n, s.m.turn != nil)
	}
	if got := s.logs[len(s.logs)-1].Outcome; got != OutcomeError {
		t.Errorf("outcome %q", got)
	}

	// Ctrl+C clears the text and arms the exit; a second one exits.
	s.typeText("draft")
	s.key(keyCtrlC)
	if len(s.m.input) != 0 || !regexp.MustCompile(`^ ctrl\+c again to exit +gpt-5\.5$`).MatchString(s.screen()[49]) {
		t.Errorf("after Ctrl+C: input %q, state row %q", string(s.m.input), s.screen()[49])
	}
	s.key(keyCtrlC)
	if s.m.quit == "" {
		t.Error("a second Ctrl+C did not exit")
	}
}

func countRows(rows []string, want string) int {
	n := 0
	for _, r := range rows {
		if r == want {
			n++
		}
	}
	return n
}

// Every payload of the Copilot look has the keys of the real CLI's
// payload of its event (agents/copilot/testdata/hooks, camelCase), in
// their order.
func TestCopilot_PayloadsHaveTheRealKeys(t *testing.T) {
	real := map[string][]string{}
	files, _ := filepath.Glob("../../agents/copilot/testdata/hooks/*.json")
	for _, f := range files {
		base := filepath.Base(f)
		if strings.HasPrefix(base, "pascal-") || strings.Contains(base, "subagent") {
			continue
		}
		event, _, _ := strings.Cut(strings.TrimSuffix(base, ".json"), "-")
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		real[event] = orderedKeys(t, b)
	}
	s := newCopilotSim(t, "", nil)
	s.send("hello, permission needed")
	s.after(4 * time.Second)
	s.typeText("1")
	s.after(3 * time.Second)
	s.send("ask me a question")
	s.after(4 * time.Second)
	s.key(keyEnter)
	s.after(3 * time.Second)
	s.key(keyShiftTab)
	s.send("plan it")
	s.after(4 * time.Second)
	s.key(keyEnter)
	s.after(3 * time.Second)
	s.send("/init")
	s.after(2 * time.Second)
	s.key(keyEnter)
	s.after(3 * time.Second)
	s.send("this will error")
	s.after(4 * time.Second)
	s.send("/compact")
	s.after(4 * time.Second)
	s.send("/clear")
	seen := map[string]bool{}
	for i, p := range s.hooks {
		event := s.args[i]
		seen[event] = true
		var keys []string
		for _, f := range p {
			keys = append(keys, f.key)
		}
		want, ok := real[event]
		if !ok {
			t.Errorf("%s: no recorded payload", event)
			continue
		}
		if strings.Join(keys, " ") != strings.Join(want, " ") {
			t.Errorf("%s keys:\n got %s\nwant %s", event, keys, want)
		}
	}
	if len(seen) < 11 {
		t.Errorf("only %d kinds of payload: %v", len(seen), seen)
	}
}

// orderedKeys are the top-level keys of a JSON object in their order.
func orderedKeys(t *testing.T, b []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	var keys []string
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}
