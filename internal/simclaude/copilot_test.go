package simclaude

import (
	"path/filepath"
	"regexp"
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
	s.send("plan a tiny change")
	s.after(4 * time.Second)
	s.key(keyShiftTab)
	add("plan-mode", s, 7, 9)
	s.send("plan the readme")
	s.after(4 * time.Second)
	add("plan-approval", s, 9)

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
