package dash

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/respawn"
)

// hostile is what a pane can make the dash show: a bidi override that
// shows a command reordered, a zero-width space, a clipboard write (OSC
// 52), a bell and a line break.
const hostile = "rm -rf ~\u202egpj.sh\u200b\x1b]52;c;ZWNobyBoaQ==\a\nNEEDS YOU"

// unsafeIn names what in s could act on a terminal or hide itself.
func unsafeIn(s string) []string {
	var found []string
	for _, bad := range []string{"\x1b", "\a", "\u202e", "\u200b", "\n"} {
		if strings.Contains(s, bad) {
			found = append(found, fmt.Sprintf("%q", bad))
		}
	}
	return found
}

// hostilePanes are a pane that needs a person, one not controlled and one
// waiting, each with hostile text wherever a pane puts text.
func hostilePanes() []api.PaneStatus {
	need := pane("%1", "a:0.0")
	need.Target, need.Profile, need.Agent = hostile, hostile, hostile
	need.Status.NeedsYou = &respawn.Need{Kind: respawn.NeedPermission, Reason: hostile, Since: t0}
	broken := api.PaneStatus{Pane: "screen:4242.w" + hostile + ":0", Target: hostile + " 2", Problem: hostile, ProblemAt: t0}
	waiting := pane("%3", "c:0.0")
	waiting.Status.Wait = hostile
	waiting.Status.Decisions[0].Reason = hostile
	return []api.PaneStatus{need, broken, waiting}
}

// checkSafe fails the test if view could act on a terminal or hide a
// character, once the dash's own styles (when color) are taken out, or if
// it does not spell the hidden characters out.
func checkSafe(t *testing.T, color bool, what, view string) {
	t.Helper()
	shown := view
	if color {
		shown = ansi.Strip(view)
	}
	if bad := unsafeIn(strings.ReplaceAll(shown, "\n", " ")); len(bad) > 0 {
		t.Errorf("%s shows %s:\n%s", what, strings.Join(bad, ", "), view)
	}
	for _, spelled := range []string{`\u202e`, `\u200b`, `\x1b]52;c;`} {
		if !strings.Contains(shown, spelled) {
			t.Errorf("%s does not spell out %s:\n%s", what, spelled, view)
		}
	}
}

// Every string a pane controls is shown as one safe line, with its hidden
// characters spelled out; the dash's own styles still color the view.
func TestModel_PaneTextShownSafe(t *testing.T) {
	for _, color := range []bool{false, true} {
		t.Run(fmt.Sprintf("color=%t", color), func(t *testing.T) {
			h := newHarness(t, Options{Color: color, ExplainText: func(api.PaneStatus, time.Time) string {
				return "EXPLAIN\n" + hostile + "\nend"
			}}, hostilePanes()...)
			h.send(teaSize(200, 24))
			view := h.m.View().Content
			checkSafe(t, color, "the list", view)
			if rows := h.rowLines(); len(rows) != 3 {
				t.Fatalf("%d rows, want 3: a line break in pane text made more:\n%s", len(rows), view)
			}
			for i, l := range h.screen() {
				if w := displayWidth(l); w > 200 {
					t.Errorf("line %d is %d wide on a screen of 200: %q", i, w, l)
				}
			}
			if color && !strings.Contains(view, styleGroup[groupNotControlled].Render(fit("not controlled", stateWidth))) {
				t.Errorf("the state of the pane not controlled is not styled:\n%q", view)
			}

			// The status bar: a question naming the pane, an error that
			// quotes it, the connection's error, the filter typed.
			h.key("d")
			checkSafe(t, color, "the detach question", h.statusBar())
			h.key("n")
			h.send(doneMsg{err: errors.New("pause " + hostile + ": refused")})
			checkSafe(t, color, "an error", h.statusBar())
			h.send(connMsg{err: errors.New(hostile), retry: time.Second})
			h.key("j")
			checkSafe(t, color, "the connection's error", h.statusBar())
			h.key("/")
			h.send(tea.KeyPressMsg{Code: 'r', Text: hostile}) // as a terminal may give a paste
			checkSafe(t, color, "the filter", h.statusBar())
			h.key("esc")

			// The explain view and its title.
			h.key("home", "e")
			checkSafe(t, color, "the explain view", h.m.View().Content)
		})
	}
}
