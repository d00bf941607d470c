package simclaude

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The OpenCode look is compared with the real OpenCode 1.18.33 screens
// (200x50, agents/opencode/testdata/screens) row by row.

const opencodeScreens = "../../agents/opencode/testdata/screens"

// The recordings' two project directories.
const (
	opencodeMainDir = "/tmp/oc/run-main/proj"
	opencodePermDir = "/tmp/oc/run-perm/proj"
)

func newOpenCodeSim(t *testing.T, cwd string, edit func(*Options)) *sim {
	return newSim(t, func(o *Options) {
		o.Look = LookOpenCode
		if cwd != "" {
			o.Cwd = cwd
		}
		if edit != nil {
			edit(o)
		}
	})
}

func askPermission(o *Options) { o.Permission = PermissionAsk }

// opencodeSituation is the look's screen in one recorded situation; rows
// before from are the recording's own transcript and are not compared.
type opencodeSituation struct {
	name   string
	screen []string
	from   int
}

// opencodeUsage masks what the session's usage and the turns' times
// write: they are the recording's own.
var opencodeUsage = regexp.MustCompile(` *[\d,.]+K? \(\d+%\) · \$\d+\.\d\d|[\d,]+ tokens|\d+% used|\$\d+\.\d\d spent| · \d+(\.\d)?m?s$|[⬝■]{8}|\[retrying in \d+s attempt #\d\] +`)

func maskUsage(rows []string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = opencodeUsage.ReplaceAllString(r, "<usage>")
	}
	return out
}

// opencodeSituations drives the OpenCode look into each recorded
// situation.
func opencodeSituations(t *testing.T) []opencodeSituation {
	var out []opencodeSituation
	add := func(name string, s *sim, from int) {
		out = append(out, opencodeSituation{name, s.screen(), from})
	}
	s := newOpenCodeSim(t, opencodeMainDir, nil)
	s.typeText("say hello")
	add("typed", s, 0)
	s.key(keyEnter)
	s.after(5 * time.Second)
	s.submit("stream slowly now")
	s.after(time.Second)
	add("working", s, 42)
	s.after(time.Second)
	add("streaming", s, 42)
	s.after(3 * time.Second)
	add("done", s, 42)
	s.submit("a long turn")
	s.after(2 * time.Second)
	s.key(keyEscape)
	add("esc-once-working", s, 42)
	s.after(300 * time.Millisecond)
	s.key(keyEscape)
	add("interrupted", s, 42)
	s.submit("server error test")
	s.after(2 * time.Second)
	add("api-error-500-retrying", s, 42)
	s.after(2 * time.Second)
	add("api-error-500", s, 42)
	s.typeText("draft text")
	s.key(keyCtrlC)
	add("ctrl-c-with-text", s, 42)

	s = newOpenCodeSim(t, opencodePermDir, askPermission)
	s.submit("run the slow tool, permission needed")
	s.after(2 * time.Second)
	add("permission-bash", s, 40)
	s.key(keyEnter)
	s.after(500 * time.Millisecond)
	add("tool-running-after-approval", s, 42)
	s.after(5 * time.Second)
	s.submit("run it again, permission needed")
	s.after(2 * time.Second)
	s.key(keyEscape)
	add("permission-esc", s, 42)
	s.typeText("/new")
	add("new-typed", s, 41)
	s.key(keyEnter)
	s.key(keyEnter)
	add("after-new", s, 0)
	s.typeText("/clear")
	add("clear-typed", s, 0)
	s.key(keyCtrlU)
	s.typeText("/init")
	add("init-typed", s, 0)
	s.key(keyEnter)
	s.key(keyEnter)
	s.after(2 * time.Second)
	add("init-permission", s, 34)
	s.key(keyEnter)
	s.after(2 * time.Second)
	add("init-done", s, 42)
	s.key(keyTab)
	add("plan-agent", s, 42)
	s.submit("plan the readme")
	s.after(4 * time.Second)
	add("plan-done", s, 42)
	return out
}

func TestOpenCode_ScreensMatchRecordings(t *testing.T) {
	for _, c := range opencodeSituations(t) {
		t.Run(c.name, func(t *testing.T) {
			got, want := maskUsage(c.screen), maskUsage(screenFile(t, filepath.Join(opencodeScreens, "v1.18.33-"+c.name+".txt")))
			for r := range c.from {
				got[r], want[r] = sidebarPart(got[r]), sidebarPart(want[r])
			}
			sameRows(t, c.name, got, want)
		})
	}
}

// opencodeEvents lists the hook runs since mark as "event" or
// "event:detail", the event being the command's argument.
func (s *sim) opencodeEvents(mark int) []string {
	var out []string
	for i, p := range s.hooks[mark:] {
		e := s.args[mark+i]
		if e != p.get("type") {
			s.t.Fatalf("payload type %v for the argument %s", p.get("type"), e)
		}
		props := p.get("properties").(object)
		for _, k := range []string{"status", "error", "tool", "permission", "reply", "ended"} {
			switch v := props.get(k).(type) {
			case string:
				e += ":" + v
			case object:
				if t, ok := v.get("type").(string); ok {
					e += ":" + t
				} else if n, ok := v.get("name").(string); ok {
					e += ":" + n
				}
			default:
				continue
			}
			break
		}
		out = append(out, e)
	}
	return out
}

// sidebarPart is what the sidebar shows on a row.
func sidebarPart(row string) string {
	r := []rune(row)
	if len(r) <= 156 {
		return ""
	}
	return string(r[156:])
}

// A turn runs chat.message and busy, and ends in idle and session.idle;
// its footer gains its time.
func TestOpenCode_TurnEvents(t *testing.T) {
	s := newOpenCodeSim(t, "", nil)
	if len(s.hooks) != 0 {
		t.Fatalf("events at start: %v", s.opencodeEvents(0))
	}
	s.submit("say hello")
	s.after(5 * time.Second)
	sameList(t, "events", s.opencodeEvents(0), []string{
		"chat.message", "session.status:busy", "session.idle",
	})
	if got := s.hooks[0].get("properties").(object).get("sessionID").(string); got != s.m.session || !strings.HasPrefix(got, "ses_") || len(got) != 30 {
		t.Errorf("sessionID %q, session %q", got, s.m.session)
	}
	if find(s.screen(), "     ▣  Build · Claude Sonnet 4.5 (latest) · 3.2s") == "" {
		t.Errorf("no footer with the turn's time:\n%s", joinPlain(s.screen()))
	}

	// Tab switches to the Plan agent; a plan is an ordinary turn.
	s.key(keyTab)
	mark := len(s.hooks)
	s.submit("plan the readme")
	s.after(5 * time.Second)
	sameList(t, "events of the plan", s.opencodeEvents(mark), []string{
		"chat.message", "session.status:busy", "session.idle",
	})
	if find(s.screen(), "     ▣  Plan · Claude Sonnet 4.5 (latest) · 3.2s") == "" || s.m.dialog != nil {
		t.Errorf("the plan turn:\n%s", joinPlain(s.screen()))
	}
}

// By default the shell command runs without asking; with --permission ask
// the prompt asks, Enter allows once, Esc rejects and ends the turn.
func TestOpenCode_Permission(t *testing.T) {
	s := newOpenCodeSim(t, "", nil)
	s.submit("clean up, permission needed")
	s.after(time.Second + 500*time.Millisecond)
	if s.m.dialog != nil || !hasMatch(s.screen(), regexp.MustCompile(`^  ┃  [⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] `+regexp.QuoteMeta(opencodeCommand)+`( |$)`)) {
		t.Fatalf("the command does not run at once:\n%s", joinPlain(s.screen()))
	}
	s.after(4 * time.Second)
	sameList(t, "events", s.opencodeEvents(0), []string{
		"chat.message", "session.status:busy", "tool.execute.before:bash", "tool.execute.after:bash",
		"session.status:busy", "session.idle",
	})

	s = newOpenCodeSim(t, "", askPermission)
	s.submit("clean up, permission needed")
	s.after(2 * time.Second)
	if s.m.dialog == nil || s.m.busy() {
		t.Fatal("no permission prompt")
	}
	asked := s.hooks[len(s.hooks)-1].get("properties").(object)
	if asked.get("permission") != "bash" || asked.get("metadata").(object).get("command") != opencodeCommand {
		t.Errorf("permission.asked %v", asked)
	}
	mark := len(s.hooks)
	s.key(keyRight)
	s.key(keyEnter)
	if s.m.dialog == nil {
		t.Fatal("Enter on Allow always answered")
	}
	s.key(keyLeft)
	s.key(keyEnter)
	s.after(3 * time.Second)
	sameList(t, "events after Allow once", s.opencodeEvents(mark), []string{
		"permission.replied:once", "tool.execute.after:bash", "session.status:busy", "session.idle",
	})

	s.submit("again, permission needed")
	s.after(2 * time.Second)
	mark = len(s.hooks)
	s.key(keyEscape)
	sameList(t, "events after Esc", s.opencodeEvents(mark), []string{"permission.replied:reject", "session.idle:rejected"})
	if s.m.turn != nil || !has(s.screen(), "     $ "+opencodeCommand) {
		t.Errorf("after Esc:\n%s", joinPlain(s.screen()))
	}
	if got := s.logs[len(s.logs)-1].Outcome; got != OutcomeDenied {
		t.Errorf("outcome %q", got)
	}
}

// Esc once arms the interrupt, a second Esc soon after interrupts with
// MessageAbortedError; a failed turn is retried five times.
func TestOpenCode_InterruptAndErrors(t *testing.T) {
	s := newOpenCodeSim(t, "", nil)
	s.submit("long task")
	s.key(keyEscape)
	s.after(opencodeEscWindow + time.Millisecond)
	s.key(keyEscape)
	if s.m.turn == nil {
		t.Fatal("two Escs a window apart interrupted")
	}
	mark := len(s.hooks)
	s.after(100 * time.Millisecond)
	s.key(keyEscape)
	sameList(t, "events", s.opencodeEvents(mark), []string{"session.error:MessageAbortedError", "session.idle:MessageAbortedError"})
	if find(s.screen(), "     ▣  Build · Claude Sonnet 4.5 (latest) · interrupted") == "" {
		t.Errorf("no interrupted footer:\n%s", joinPlain(s.screen()))
	}

	mark = len(s.hooks)
	s.submit("this will error")
	s.after(4 * time.Second)
	want := []string{"chat.message", "session.status:busy", "session.status:retry"}
	for range 4 {
		want = append(want, "session.status:busy", "session.status:retry")
	}
	want = append(want, "session.status:busy", "session.error:APIError", "session.idle:APIError")
	sameList(t, "events of the error", s.opencodeEvents(mark), want)
	if got := s.logs[len(s.logs)-1].Outcome; got != OutcomeError {
		t.Errorf("outcome %q", got)
	}
}

// With the popup open the first Enter completes the command, a second runs
// it: /new goes back to the start screen; /init writes AGENTS.md.
func TestOpenCode_Commands(t *testing.T) {
	s := newOpenCodeSim(t, "", nil)
	s.submit("hello")
	s.after(5 * time.Second)
	first := s.m.session
	s.submit("/clear")
	if string(s.m.input) != "/new " || !s.m.oc.session {
		t.Fatalf("the first Enter: input %q", string(s.m.input))
	}
	s.key(keyEnter)
	if s.m.oc.session || s.m.session == first || find(s.screen(), strings.Repeat(" ", 72)+"● Tip") == "" {
		t.Fatalf("after /new:\n%s", joinPlain(s.screen()))
	}
	mark := len(s.hooks)
	s.submit("/init")
	s.key(keyEnter)
	s.after(5 * time.Second)
	sameList(t, "events of /init", s.opencodeEvents(mark), []string{
		"chat.message", "session.status:busy", "tool.execute.before:write", "tool.execute.after:write",
		"session.status:busy", "session.idle",
	})
	for _, want := range []string{"  ┃  # Wrote AGENTS.md", "  ┃   3 A fake project.", "     AGENTS.md is written."} {
		if !has(s.screen(), want) {
			t.Errorf("no row %q:\n%s", want, joinPlain(s.screen()))
		}
	}
	if s.logs[len(s.logs)-1].Text != "/init" {
		t.Errorf("turn %q", s.logs[len(s.logs)-1].Text)
	}
}

// Text and its CR in one read submit; Ctrl+C clears text, and on an empty
// composer exits with the session to continue.
func TestOpenCode_KeysAndExit(t *testing.T) {
	s := newOpenCodeSim(t, "", nil)
	s.read(inputEvent{kind: evText, text: "typed with its enter in one write"}, inputEvent{kind: evKey, key: keyEnter})
	if s.m.turn == nil {
		t.Fatal("text and CR in one read did not submit")
	}
	s.after(5 * time.Second)
	s.typeText("draft")
	s.key(keyCtrlC)
	if len(s.m.input) != 0 || s.m.quit != "" {
		t.Fatalf("Ctrl+C with text: input %q, quit %q", string(s.m.input), s.m.quit)
	}
	s.key(keyCtrlC)
	if s.m.quit == "" {
		t.Fatal("Ctrl+C on the empty composer did not exit")
	}
	if note := s.m.exitNote(s.m.quit); !strings.Contains(note, "\n  Session   Fake title\n  Continue  opencode -s "+s.m.session+"\n") {
		t.Errorf("exit note:\n%s", note)
	}
}

// Every event of the look is one of those codeman's plugin hands on,
// with the properties it keeps (agents/opencode/opencodehooks/plugin.js).
func TestOpenCode_EventsAreThePlugins(t *testing.T) {
	plugin := map[string]string{
		"chat.message": "sessionID", "session.status": "sessionID status", "session.idle": "sessionID",
		"session.error": "sessionID error", "permission.asked": "sessionID permission metadata patterns",
		"permission.replied": "sessionID reply", "tool.execute.before": "sessionID tool", "tool.execute.after": "sessionID tool",
	}
	s := newOpenCodeSim(t, "", askPermission)
	for _, p := range []string{"hello", "run it, permission needed", "this will error", "hit the limit"} {
		s.submit(p)
		s.after(2 * time.Second)
		s.key(keyEnter)
		s.after(4 * time.Second)
	}
	seen := map[string]bool{}
	for i, e := range s.args {
		seen[e] = true
		var keys []string
		for _, f := range s.hooks[i].get("properties").(object) {
			keys = append(keys, f.key)
		}
		got := strings.TrimSuffix(strings.Join(keys, " "), " ended")
		if want, ok := plugin[e]; !ok || got != want {
			t.Errorf("event %s with %s; the plugin's has %q", e, got, want)
		}
	}
	if len(seen) != len(plugin) {
		t.Errorf("events seen %v", seen)
	}
}
