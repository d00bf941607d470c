package simclaude

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// The Codex look is compared with the real Codex CLI 0.171.0 screens
// (200x50, agents/codex/testdata/screens) row by row.

const codexScreens = "../../agents/codex/testdata/screens"

func newCodexSim(t *testing.T, edit func(*Options)) *sim {
	return newSim(t, func(o *Options) {
		o.Look = LookCodex
		if edit != nil {
			edit(o)
		}
	})
}

// send types text and presses Enter once Codex's paste window has passed,
// as codeman does.
func (s *sim) send(text string) {
	s.typeText(text)
	s.after(2 * pasteEnterWindow)
	s.key(keyEnter)
}

// recorded reads a real Codex screen as rows.
func recorded(t *testing.T, situation string) []string {
	t.Helper()
	return screenFile(t, filepath.Join(codexScreens, "v0.171.0-"+situation+".txt"))
}

// screenFile reads a recorded screen as rows, trailing blanks removed.
func screenFile(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	for i := range rows {
		rows[i] = strings.TrimRight(rows[i], " ")
	}
	return rows
}

// codexSituation is the look's screen in one recorded situation; skip
// lists rows whose text is the recording's own (its prompt, its reply).
type codexSituation struct {
	name   string
	screen []string
	skip   []int
}

// codexSituations drives the Codex look into each recorded situation.
func codexSituations(t *testing.T) []codexSituation {
	var out []codexSituation
	add := func(name string, s *sim, skip ...int) {
		out = append(out, codexSituation{name, s.screen(), skip})
	}

	s := newCodexSim(t, nil)
	add("idle", s)
	s.send("refactor the parser")
	add("working", s)
	s.after(5 * time.Second)
	add("done", s, 8, 9, 10, 11, 12, 13, 14, 15, 16) // the reply and its completion line
	s.send("/new")
	add("new", s)

	s = newCodexSim(t, nil)
	s.send("clean the build, permission needed")
	s.after(4 * time.Second)
	add("approval", s, 5)

	s = newCodexSim(t, nil)
	s.send("deploy the service despite the error")
	s.after(4 * time.Second)
	add("api-error", s, 5)

	s = newCodexSim(t, nil)
	s.send("rewrite everything")
	s.after(time.Second)
	s.key(keyEscape)
	add("interrupted", s)

	// 18:47 plus 2h25m: the limit resets at 9:12 PM, as in the recording.
	s = newCodexSim(t, func(o *Options) { o.LimitReset = 2*time.Hour + 25*time.Minute })
	s.send("keep going until the limit")
	s.after(2 * time.Second)
	add("usage-limit-dismissed", s, 5)
	return out
}

func TestCodex_ScreensMatchRecordings(t *testing.T) {
	for _, c := range codexSituations(t) {
		t.Run(c.name, func(t *testing.T) {
			got, want := c.screen, recorded(t, c.name)
			for _, r := range c.skip {
				got[r], want[r] = "", ""
			}
			sameRows(t, c.name, got, want)
		})
	}
}

var codexDoneRow = regexp.MustCompile(`^  Worked for (<1s|\d+s) • \d\d:\d\d$`)

func TestCodex_TurnEndsWithWorkedFor(t *testing.T) {
	s := newCodexSim(t, nil)
	s.send("refactor the parser")
	s.after(5 * time.Second)
	rows := s.screen()
	if !hasMatch(rows, codexDoneRow) {
		t.Fatalf("no Worked for line:\n%s", joinPlain(rows))
	}
	if got := s.m.title(s.now); got != "Fake task | proj" {
		t.Errorf("title when done = %q", got)
	}
	sameList(t, "hooks", s.events(0), []string{
		"SessionStart:startup", "UserPromptSubmit", "PreModelRequest", "PostModelRequest:completed",
		"PreToolUse:Bash", "PostToolUse:Bash", "PreModelRequest", "PostModelRequest:completed", "Stop",
	})
	sameList(t, "notices", s.m.cx.signals, []string{
		"\x1b]7501;state=idle:app=codex\x1b\\", "\x1b]7501;state=working:app=codex\x1b\\",
		"\a", "\x1b]7501;state=done:app=codex\x1b\\",
	})
}

func TestCodex_TitleSpinsWhileWorking(t *testing.T) {
	s := newCodexSim(t, nil)
	s.send("refactor the parser")
	seen := map[string]bool{}
	for range 10 {
		s.after(codexTitleFrame)
		seen[s.m.title(s.now)] = true
	}
	if len(seen) < 8 {
		t.Errorf("title took %d forms over 10 frames: %v", len(seen), seen)
	}
	if next := s.m.nextDeadline(s.now); next.Sub(s.now) > codexTitleFrame {
		t.Errorf("next repaint in %s while working", next.Sub(s.now))
	}
}

// An Enter within 120 ms of a burst of keys is a newline, as in Codex;
// after that window it submits.
func TestCodex_EnterAfterPasteBurstIsNewline(t *testing.T) {
	s := newCodexSim(t, nil)
	s.typeText("hello there")
	s.after(50 * time.Millisecond)
	s.key(keyEnter)
	if s.m.turn != nil || string(s.m.input) != "hello there\n" {
		t.Fatalf("Enter 50ms after the burst: turn %v, input %q", s.m.turn != nil, string(s.m.input))
	}
	s.after(200 * time.Millisecond)
	s.key(keyEnter)
	if s.m.turn == nil {
		t.Fatal("Enter 200ms after the burst did not submit")
	}
	sameList(t, "log", s.logKinds(0), []string{
		`key "hello there" busy=false dialog=`,
		`key "\n" key=enter busy=false dialog=`,
		`submit "hello there" busy=false dialog=`,
		`turn_start "hello there" busy=false dialog=`,
	})

	// Single keys typed slower than 8 ms apart are no paste.
	s = newCodexSim(t, nil)
	for _, c := range "hi" {
		s.typeText(string(c))
		s.after(20 * time.Millisecond)
	}
	s.key(keyEnter)
	if s.m.turn == nil {
		t.Fatal("Enter after typed keys did not submit")
	}
}

func TestCodex_NewAndInit(t *testing.T) {
	s := newCodexSim(t, nil)
	s.send("hello")
	s.after(5 * time.Second)
	s.send("/new")
	if len(s.m.items) != 0 || s.m.taskTitle(s.now) != "" {
		t.Fatalf("after /new: %d items, title %q", len(s.m.items), s.m.taskTitle(s.now))
	}
	mark := len(s.hooks)
	s.send("/init")
	s.after(5 * time.Second)
	rows := s.screen()
	for _, want := range []string{"• Added AGENTS.md (+3 -0)", "    1 +# Repository Guidelines", "• Created AGENTS.md with the repository guidelines."} {
		if !has(rows, want) {
			t.Errorf("no row %q after /init:\n%s", want, joinPlain(rows))
		}
	}
	sameList(t, "hooks of /init", s.events(mark), []string{
		"SessionStart:startup", "UserPromptSubmit", "PreModelRequest", "PostModelRequest:completed",
		"PreToolUse:apply_patch", "PostToolUse:apply_patch", "PreModelRequest", "PostModelRequest:completed", "Stop",
	})
	if p := s.hooks[mark+1].get("prompt"); p != codexInitPrompt {
		t.Errorf("UserPromptSubmit prompt = %q", p)
	}
}

// The approval is answered like Codex's: Enter or y runs the command, Esc
// declines and interrupts the turn without PostToolUse.
func TestCodex_Approval(t *testing.T) {
	s := newCodexSim(t, nil)
	s.send("clean the build, permission needed")
	s.after(4 * time.Second)
	if got := s.m.title(s.now); got != "[ ! ] Action Required | Fake task | proj" {
		t.Errorf("title = %q", got)
	}
	mark := len(s.hooks)
	s.key(keyEscape)
	sameList(t, "hooks after Esc", s.events(mark), []string{"Interrupt"})
	if !has(s.screen(), "✗ You canceled the request to run rm -rf ./build-output") {
		t.Errorf("no cancel line:\n%s", joinPlain(s.screen()))
	}

	s.send("again, permission needed")
	s.after(4 * time.Second)
	mark = len(s.hooks)
	s.typeText("y")
	s.after(5 * time.Second)
	sameList(t, "hooks after y", s.events(mark), []string{"PostToolUse:Bash", "PreModelRequest", "PostModelRequest:completed", "Stop"})
}

func TestCodex_ErrorsAndInterrupt(t *testing.T) {
	s := newCodexSim(t, nil)
	s.send("deploy the service despite the error")
	s.after(4 * time.Second)
	sameList(t, "hooks", s.events(0), []string{"SessionStart:startup", "UserPromptSubmit", "PreModelRequest", "PostModelRequest:failed"})
	if got := s.hooks[3].get("error"); got != codexAPIError {
		t.Errorf("error = %q", got)
	}

	s = newCodexSim(t, nil)
	s.send("long one")
	s.after(time.Second)
	s.key(keyEscape)
	sameList(t, "hooks", s.events(0), []string{"SessionStart:startup", "UserPromptSubmit", "PreModelRequest", "PostModelRequest:cancelled", "Interrupt"})

	// Ctrl+C quits an idle Codex at once.
	s.key(keyCtrlC)
	if s.m.quit != "other" {
		t.Errorf("Ctrl+C on an empty composer: quit %q", s.m.quit)
	}
}

func TestCodex_LimitDoesNotContinueByItself(t *testing.T) {
	s := newCodexSim(t, func(o *Options) { o.LimitReset = time.Minute })
	s.send("hit the limit")
	s.after(2 * time.Minute)
	if s.m.turn != nil {
		t.Fatal("a turn started by itself after the reset")
	}
}

// The Claude look is untouched by the Codex one: no title, no notices.
func TestCodex_ClaudeLookSetsNoTitle(t *testing.T) {
	s := newSim(t, nil)
	s.submit("hello")
	s.after(5 * time.Second)
	if got := s.m.title(s.now); got != "" || len(s.m.cx.signals) > 0 {
		t.Errorf("Claude look: title %q, notices %q", got, s.m.cx.signals)
	}
}

// Every payload of the Codex look has the keys of the real CLI's payload
// of its kind (hooks/testdata/codex), and only those.
func TestCodex_PayloadsHaveTheRealKeys(t *testing.T) {
	real := map[string][]string{} // "Event" or "PostModelRequest:status" → sorted keys
	files, _ := filepath.Glob("../../hooks/testdata/codex/*.json")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var p map[string]any
		if err := json.Unmarshal(b, &p); err != nil || p["hook_event_name"] == nil {
			continue // the notify payloads and the README
		}
		real[p["hook_event_name"].(string)] = slices.Sorted(maps.Keys(p))
	}
	s := newCodexSim(t, nil)
	s.send("list the files")
	s.after(5 * time.Second)
	s.send("clean the build, permission needed")
	s.after(4 * time.Second)
	s.key(keyEscape)
	s.send("/compact")
	s.after(4 * time.Second)
	s.send("/exit")
	seen := map[string]bool{}
	for _, p := range s.hooks {
		event := p.get("hook_event_name").(string)
		seen[event] = true
		var keys []string
		for _, f := range p {
			keys = append(keys, f.key)
		}
		want, ok := real[event]
		if !ok {
			t.Errorf("%s: no such event in Codex", event)
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
