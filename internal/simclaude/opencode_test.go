package simclaude

import (
	"path/filepath"
	"regexp"
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
		for _, k := range []string{"status", "error", "tool", "permission", "reply", "agent"} {
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
