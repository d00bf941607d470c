package dash

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/respawn"
)

// One pane of every group, given in the wrong order: the dash shows
// needs-you, working, idle, waiting, paused, not controlled, and by target
// within a group.
func TestModel_OrdersByGroupThenTarget(t *testing.T) {
	need := pane("%1", "a:0.0")
	need.Status.NeedsYou = &respawn.Need{Kind: respawn.NeedPermission, Reason: "Bash(rm -rf build)", Since: t0.Add(-2 * time.Minute)}
	cycle := pane("%2", "b:0.0")
	cycle.Status.State, cycle.Status.Cycles, cycle.Status.Since = "waiting_update", 3, t0.Add(-20*time.Second)
	busy := pane("%3", "c:0.0")
	busy.Status.Evidence.Working = true
	recent := pane("%4", "d:0.0")
	recent.Status.Evidence.SinceWorking = 30 * time.Second
	idle1, idle2 := pane("%5", "f:0.0"), pane("%6", "e:0.0")
	limit := pane("%7", "g:0.0")
	limit.Status.Wait = "waiting out usage limit until 21:00:00: limit reached"
	paused := pane("%8", "h:0.0")
	paused.Status.Paused = true
	paused.Status.Decisions = append(paused.Status.Decisions, respawn.Decision{At: t0.Add(-90 * time.Second), Kind: respawn.DecisionSkip, Reason: "paused: nothing is sent until resumed"})
	broken := api.PaneStatus{Pane: "screen:4242.work:0", Target: "screen 4242.work:0", Problem: "config: bad value", ProblemAt: t0.Add(-time.Hour)}

	h := newHarness(t, Options{}, broken, paused, limit, idle1, idle2, recent, busy, cycle, need)
	want := [][]string{
		{"a:0.0 (%1)", "needs you", "2m00s", "permission: Bash(rm -rf build)"},
		{"b:0.0 (%2)", "waiting update", "20s", "3"},
		{"c:0.0 (%3)", "working", "5m00s"},
		{"d:0.0 (%4)", "working"},
		{"e:0.0 (%6)", "idle", "state stopped -> watching: started"},
		{"f:0.0 (%5)", "idle"},
		{"g:0.0 (%7)", "waiting", "waiting out usage limit"},
		{"h:0.0 (%8)", "paused", "1m30s", "skip: paused"},
		{"screen 4242.work:0", "not controlled", "1h00m", "config: bad value"},
	}
	rows := h.rowLines()
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d:\n%s", len(rows), len(want), strings.Join(h.screen(), "\n"))
	}
	for i, w := range want {
		for _, part := range w {
			if !strings.Contains(rows[i], part) {
				t.Errorf("row %d %q lacks %q", i, rows[i], part)
			}
		}
	}
	if title := h.screen()[0]; !strings.Contains(title, "9 panes: 1 need you, 3 working, 2 idle, 1 waiting, 1 paused, 1 not controlled") {
		t.Errorf("title %q", title)
	}
}

// A watching pane counts as working for recentWork after the screen last
// showed work; the tick moves it to idle without asking the daemon.
func TestModel_RecentWorkAgesOut(t *testing.T) {
	p := pane("%1", "w:0.0")
	p.Status.Evidence.SinceWorking = 30 * time.Second
	h := newHarness(t, Options{}, p)
	if r := h.rowLines()[0]; !strings.Contains(r, "working") {
		t.Fatalf("row %q, want working", r)
	}
	h.now = h.now.Add(29 * time.Second)
	h.send(tickMsg{})
	if r := h.rowLines()[0]; !strings.Contains(r, "working") {
		t.Fatalf("row after 59s %q, want working", r)
	}
	h.now = h.now.Add(time.Second)
	h.send(tickMsg{})
	if r := h.rowLines()[0]; !strings.Contains(r, "idle") {
		t.Fatalf("row after 60s %q, want idle", r)
	}
	if calls := h.src.takeCalls(); len(calls) != 0 {
		t.Fatalf("ticks asked the daemon %q", calls)
	}
}

// The tick comes at each whole second and moves every duration.
func TestModel_TickRendersDurations(t *testing.T) {
	h := newHarness(t, Options{}, pane("%1", "w:0.0"))
	h.now = h.now.Add(400 * time.Millisecond)
	h.timed = nil
	h.send(tickMsg{})
	if len(h.timed) != 1 || h.timed[0].after != 600*time.Millisecond {
		t.Fatalf("next tick %+v, want in 600ms", h.timed)
	}
	h.now = h.now.Add(time.Hour)
	fire[tickMsg](h)
	if r := h.rowLines()[0]; !strings.Contains(r, "1h05m") {
		t.Fatalf("row %q, want 1h05m in state", r)
	}
}

// A decision reads its pane; attach, detach and kinds unknown read the
// list; a pane the daemon no longer controls leaves.
func TestModel_EventsRefresh(t *testing.T) {
	a, b := pane("%1", "a:0.0"), pane("%2", "b:0.0")
	h := newHarness(t, Options{}, a, b)
	h.now = h.now.Add(time.Second) // past the flush of the first list

	a.Status.State, a.Status.Cycles = "sending_update", 1
	h.src.set(a)
	h.send(eventMsg{api.Event{Pane: a.Pane, Kind: "decision"}})
	if calls := h.src.takeCalls(); !slices.Equal(calls, []string{"pane " + a.Pane}) {
		t.Fatalf("calls %q, want the pane read", calls)
	}
	if r := h.rowLines()[0]; !strings.Contains(r, "sending update") {
		t.Fatalf("row %q, want the new state", r)
	}

	h.now = h.now.Add(time.Second)
	c := pane("%3", "c:0.0")
	h.src.set(c)
	h.send(eventMsg{api.Event{Pane: c.Pane, Kind: "attach"}})
	if calls := h.src.takeCalls(); !slices.Equal(calls, []string{"panes"}) {
		t.Fatalf("calls %q, want the list read", calls)
	}
	if len(h.m.visible) != 3 {
		t.Fatalf("%d rows after attach, want 3", len(h.m.visible))
	}

	// A decision of a pane that has gone: the read says not controlled.
	h.now = h.now.Add(time.Second)
	h.src.Detach(context.Background(), b.Pane)
	h.src.takeCalls()
	h.send(eventMsg{api.Event{Pane: b.Pane, Kind: "needs-you"}})
	if len(h.m.visible) != 2 || h.m.rows[b.Pane] != nil {
		t.Fatalf("rows after the pane went: %d", len(h.m.visible))
	}
}

// Events come faster than the dash reads: the first is read at once, the
// rest together flushEvery later, and many panes with one list read.
func TestModel_EventsDebounced(t *testing.T) {
	var panes []api.PaneStatus
	for i := range 20 {
		panes = append(panes, pane(fmt.Sprintf("%%%d", i), fmt.Sprintf("s%02d:0.0", i)))
	}
	h := newHarness(t, Options{}, panes...)
	h.timed = nil
	h.now = h.now.Add(time.Second) // past the flush of the first list
	h.send(eventMsg{api.Event{Pane: panes[0].Pane, Kind: "decision"}})
	if calls := h.src.takeCalls(); len(calls) != 1 {
		t.Fatalf("first event: calls %q, want one read at once", calls)
	}
	h.now = h.now.Add(30 * time.Millisecond)
	for i := range 3 {
		h.send(eventMsg{api.Event{Pane: panes[1+i].Pane, Kind: "decision"}})
		h.send(eventMsg{api.Event{Pane: panes[1+i].Pane, Kind: "decision"}})
	}
	if calls := h.src.takeCalls(); len(calls) != 0 {
		t.Fatalf("events within flushEvery read at once: %q", calls)
	}
	if len(h.timed) != 1 || h.timed[0].after != 70*time.Millisecond {
		t.Fatalf("timed %+v, want one flush in 70ms", h.timed)
	}
	fire[flushMsg](h)
	want := []string{"pane " + panes[1].Pane, "pane " + panes[2].Pane, "pane " + panes[3].Pane}
	if calls := h.src.takeCalls(); !slices.Equal(calls, want) {
		t.Fatalf("flush read %q, want %q", calls, want)
	}

	h.now = h.now.Add(time.Second)
	for _, p := range panes {
		h.send(eventMsg{api.Event{Pane: p.Pane, Kind: "decision"}})
	}
	fire[flushMsg](h)
	if calls := h.src.takeCalls(); !slices.Equal(calls, []string{"pane " + panes[0].Pane, "panes"}) {
		t.Fatalf("20 panes changed: read %q, want the first pane, then the list", calls)
	}
}

// An answer older than the one a row holds never replaces it.
func TestModel_OlderAnswerLoses(t *testing.T) {
	a := pane("%1", "a:0.0")
	h := newHarness(t, Options{}, a)
	older := h.m.readPane(a.Pane)
	a.Status.State = "sending_clear"
	h.src.set(a)
	h.send(h.m.readList())
	a.Status.State = "watching"
	h.src.set(a)
	h.send(older)
	if r := h.rowLines()[0]; !strings.Contains(r, "sending clear") {
		t.Fatalf("row %q: an older read replaced a newer one", r)
	}
}

func TestModel_Navigation(t *testing.T) {
	h := newHarness(t, Options{}, pane("%1", "a:0.0"), pane("%2", "b:0.0"), pane("%3", "c:0.0"))
	selected := func() string { return h.m.current().st.Target }
	if selected() != "a:0.0 (%1)" {
		t.Fatalf("first selection %s", selected())
	}
	h.key("j", "down")
	if selected() != "c:0.0 (%3)" {
		t.Fatalf("after two downs: %s", selected())
	}
	h.key("down")
	if selected() != "c:0.0 (%3)" {
		t.Fatalf("down past the end: %s", selected())
	}
	h.key("k", "home")
	if selected() != "a:0.0 (%1)" {
		t.Fatalf("home: %s", selected())
	}
	h.key("end")
	if !strings.HasPrefix(h.rowLines()[2], "> ") {
		t.Fatalf("the selected row is not marked:\n%s", strings.Join(h.rowLines(), "\n"))
	}

	// The selection follows its pane when the rows reorder.
	c := pane("%3", "c:0.0")
	c.Status.NeedsYou = &respawn.Need{Kind: respawn.NeedQuestion, Reason: "which file?", Since: t0}
	h.src.set(c)
	h.now = h.now.Add(time.Second)
	h.send(eventMsg{api.Event{Pane: c.Pane, Kind: "needs-you"}})
	if selected() != "c:0.0 (%3)" || h.m.cursor != 0 {
		t.Fatalf("after reorder selected %s at %d", selected(), h.m.cursor)
	}
}

func TestModel_Filter(t *testing.T) {
	h := newHarness(t, Options{}, pane("%1", "api:0.0"), pane("%2", "web:0.0"), pane("%3", "webhooks:1.0"))
	h.key("/", "w", "e", "b")
	if len(h.m.visible) != 2 || !strings.Contains(h.statusBar(), "/web") {
		t.Fatalf("filter web: %d rows, bar %q", len(h.m.visible), h.statusBar())
	}
	h.key("q") // typed, not quit
	if h.quit || len(h.m.visible) != 0 || !strings.Contains(strings.Join(h.screen(), "\n"), `no pane matches "webq"`) {
		t.Fatalf("filter webq: quit %t, %d rows", h.quit, len(h.m.visible))
	}
	h.key("backspace", "h", "enter")
	if h.m.mode != modeList || len(h.m.visible) != 1 || !strings.Contains(h.screen()[0], `filter "webh": 1 shown`) {
		t.Fatalf("filter webh kept: mode %d, %d rows, title %q", h.m.mode, len(h.m.visible), h.screen()[0])
	}
	h.key("esc")
	if h.m.filter != "" || len(h.m.visible) != 3 {
		t.Fatalf("esc left filter %q and %d rows", h.m.filter, len(h.m.visible))
	}
}

// A Codex pane says so beside its profile, and "/codex" finds it; a
// Claude Code pane, the default, shows its profile alone.
func TestModel_Agent(t *testing.T) {
	codex, claude := pane("%1", "api:0.0"), pane("%2", "web:0.0")
	codex.Agent, claude.Agent = "codex", "claude"
	h := newHarness(t, Options{}, codex, claude)
	h.send(teaSize(100, 20))
	rows := h.rowLines()
	if !strings.Contains(rows[0]+rows[1], "codex/default") || strings.Contains(rows[0]+rows[1], "claude/") {
		t.Fatalf("rows %q: want codex/default on the Codex pane and the profile alone on Claude's", rows)
	}
	h.key("/", "c", "o", "d", "e", "x")
	if len(h.m.visible) != 1 || h.m.visible[0].st.Pane != codex.Pane {
		t.Fatalf("filter codex: %d rows", len(h.m.visible))
	}
}

func TestModel_PauseAndResume(t *testing.T) {
	a := pane("%1", "a:0.0")
	h := newHarness(t, Options{}, a)
	h.key("p")
	if calls := h.src.takeCalls(); !slices.Equal(calls, []string{"pause " + a.Pane + " true"}) {
		t.Fatalf("calls %q", calls)
	}
	if r := h.rowLines()[0]; !strings.Contains(r, "paused") || !strings.Contains(h.statusBar(), "paused a:0.0 (%1)") {
		t.Fatalf("row %q bar %q", r, h.statusBar())
	}
	h.key("p")
	if calls := h.src.takeCalls(); !slices.Equal(calls, []string{"pause " + a.Pane + " false"}) {
		t.Fatalf("calls %q", calls)
	}
	if r := h.rowLines()[0]; strings.Contains(r, "paused") || !strings.Contains(h.statusBar(), "resumed") {
		t.Fatalf("row %q bar %q", r, h.statusBar())
	}
	// The message lasts until the next key.
	h.key("j")
	if strings.Contains(h.statusBar(), "resumed") {
		t.Fatalf("bar %q after a key", h.statusBar())
	}

	broken := api.PaneStatus{Pane: "screen:1.w:0", Target: "screen 1.w:0", Problem: "bad"}
	h = newHarness(t, Options{}, broken)
	h.key("p")
	if calls := h.src.takeCalls(); len(calls) != 0 || !strings.Contains(h.statusBar(), "not controlled") {
		t.Fatalf("pause of a pane not controlled: calls %q bar %q", calls, h.statusBar())
	}
}

func TestModel_DetachAsks(t *testing.T) {
	a, b := pane("%1", "a:0.0"), pane("%2", "b:0.0")
	h := newHarness(t, Options{}, a, b)
	h.key("d")
	if !strings.Contains(h.statusBar(), "detach a:0.0 (%1)? ") {
		t.Fatalf("bar %q", h.statusBar())
	}
	h.key("n")
	if calls := h.src.takeCalls(); len(calls) != 0 || !strings.Contains(h.statusBar(), "cancelled") {
		t.Fatalf("n: calls %q bar %q", calls, h.statusBar())
	}
	h.key("d", "y")
	if calls := h.src.takeCalls(); !slices.Equal(calls, []string{"detach " + a.Pane}) {
		t.Fatalf("y: calls %q", calls)
	}
	if len(h.m.visible) != 1 || !strings.Contains(h.statusBar(), "detached a:0.0") {
		t.Fatalf("after detach %d rows, bar %q", len(h.m.visible), h.statusBar())
	}
}

func TestModel_Jump(t *testing.T) {
	same := pane("%3", "work:1.0")
	other := pane("%4", "far:0.0")
	other.Pane = "tmux:/tmp/tmux-0/other:%4"
	scr := pane("%0", "x")
	scr.Pane, scr.Target = "screen:4242.work:2", "screen 4242.work:2"
	here := Here{Socket: "/tmp/tmux-0/default", Pane: "%1"}

	h := newHarness(t, Options{Client: "/dev/pts/7", Here: here}, same, other, scr)
	h.key("/", "w", "o", "r", "k", ":", "enter", "enter")
	want := []string{
		"/tmp/tmux-0/default: switch-client -c /dev/pts/7 -t %3",
		"/tmp/tmux-0/default: select-window -t %3",
		"/tmp/tmux-0/default: select-pane -t %3",
	}
	if !slices.Equal(h.tmux, want) || h.quit || !strings.Contains(h.statusBar(), "jumped to") {
		t.Fatalf("tmux %q quit %t bar %q", h.tmux, h.quit, h.statusBar())
	}
	h.tmux = nil
	h.key("esc", "/", "f", "a", "r", "enter", "enter")
	if len(h.tmux) != 0 || !strings.Contains(h.statusBar(), "another tmux server: tmux -S /tmp/tmux-0/other attach -t %4") {
		t.Fatalf("tmux %q bar %q", h.tmux, h.statusBar())
	}
	h.key("esc", "/", "4", "2", "enter", "enter")
	if len(h.tmux) != 0 || !strings.Contains(h.statusBar(), "screen -r 4242.work -p 2") {
		t.Fatalf("tmux %q bar %q", h.tmux, h.statusBar())
	}

	h = newHarness(t, Options{Client: "c", Here: here, QuitAfterJump: true}, same)
	h.key("enter")
	if !h.quit {
		t.Fatal("a popup's jump did not quit")
	}
}

// Outside tmux, Enter says why no client can be switched and how to reach
// the pane; in GNU screen, that it runs in screen.
func TestModel_JumpOutsideTmux(t *testing.T) {
	same := pane("%3", "work:1.0")
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{}, "not inside tmux ($TMUX is not set): tmux -S /tmp/tmux-0/default attach -t %3"},
		{map[string]string{"STY": "4242.work"}, "inside GNU screen ($STY is set), not tmux: tmux -S /tmp/tmux-0/default attach -t %3"},
	} {
		here, err := Locate(func(k string) string { return tc.env[k] })
		if err != nil {
			t.Fatal(err)
		}
		h := newHarness(t, Options{Here: here}, same)
		h.key("enter")
		if len(h.tmux) != 0 || !strings.Contains(h.statusBar(), tc.want) {
			t.Errorf("env %v: tmux %q bar %q, want %q", tc.env, h.tmux, h.statusBar(), tc.want)
		}
	}
}

// Inside tmux, Enter finds the client that shows the dash when it is
// pressed: one attached after the dash started is switched, and with none
// attached the pane is selected in its session, and the bar says so; it
// never says the dash is not inside tmux.
func TestModel_JumpFindsClientAtEnter(t *testing.T) {
	same := pane("%3", "work:1.0")
	h := newHarness(t, Options{Here: Here{Socket: "/tmp/tmux-0/default", Pane: "%1"}}, same)
	h.tmuxOut = map[string]string{"display-message": "@1\t$0\n"}

	h.key("enter") // no client attached
	want := []string{
		"/tmp/tmux-0/default: display-message -p -t %1 #{window_id}\t#{session_id}",
		"/tmp/tmux-0/default: list-clients -F #{client_control_mode}\t#{client_activity}\t#{window_id}\t#{session_id}\t#{client_name}",
		"/tmp/tmux-0/default: select-window -t %3",
		"/tmp/tmux-0/default: select-pane -t %3",
	}
	if !slices.Equal(h.tmux, want) {
		t.Fatalf("no client: tmux %q, want %q", h.tmux, want)
	}
	if bar := h.statusBar(); !strings.Contains(bar, "no tmux client showed the dash, so none was switched: work:1.0 (%3) is selected in its session") {
		t.Fatalf("no client: bar %q", bar)
	}

	// A client attaches (and the daemon's control client is there too).
	h.tmux = nil
	h.tmuxOut["list-clients"] = "1\t900\t@1\t$0\tclient-77\n0\t500\t@1\t$0\t/dev/pts/4\n"
	h.key("enter")
	if len(h.tmux) != 5 || h.tmux[2] != "/tmp/tmux-0/default: switch-client -c /dev/pts/4 -t %3" || !strings.Contains(h.statusBar(), "jumped to work:1.0") {
		t.Fatalf("a client attached: tmux %q bar %q", h.tmux, h.statusBar())
	}
}

func TestModel_Explain(t *testing.T) {
	a, b := pane("%1", "a:0.0"), pane("%2", "b:0.0")
	h := newHarness(t, Options{}, a, b)
	h.key("j", "e")
	if calls := h.src.takeCalls(); !slices.Equal(calls, []string{"explain " + b.Pane}) {
		t.Fatalf("calls %q", calls)
	}
	s := strings.Join(h.screen(), "\n")
	if !strings.Contains(s, "explain b:0.0 (%2)") || !strings.Contains(s, "EXPLAIN b:0.0 (%2)\nstate watching") {
		t.Fatalf("explain view:\n%s", s)
	}
	// An event of the pane reads the explanation again.
	b.Status.State = "sending_init"
	h.src.set(b)
	h.now = h.now.Add(time.Second)
	h.send(eventMsg{api.Event{Pane: b.Pane, Kind: "decision"}})
	if s := strings.Join(h.screen(), "\n"); !strings.Contains(s, "state sending_init") {
		t.Fatalf("explain after the event:\n%s", s)
	}
	h.key("j", "j", "j", "j", "j")
	if h.m.explain.offset != 0 {
		t.Fatalf("scrolled to %d past a text that fits", h.m.explain.offset)
	}
	h.key("esc")
	if h.m.mode != modeList || !strings.Contains(h.screen()[1], "TARGET") {
		t.Fatalf("esc left mode %d", h.m.mode)
	}
}

func TestModel_HelpAndQuit(t *testing.T) {
	h := newHarness(t, Options{}, pane("%1", "a:0.0"))
	h.key("?")
	if !strings.Contains(strings.Join(h.screen(), "\n"), "d            detach") {
		t.Fatalf("help:\n%s", strings.Join(h.screen(), "\n"))
	}
	h.key("x")
	if h.m.mode != modeList || h.quit {
		t.Fatalf("a key left help in mode %d, quit %t", h.m.mode, h.quit)
	}
	h.key("q")
	if !h.quit {
		t.Fatal("q did not quit")
	}
	h = newHarness(t, Options{}, pane("%1", "a:0.0"))
	h.key("/", "ctrl+c")
	if !h.quit {
		t.Fatal("ctrl+c while filtering did not quit")
	}
}

// The view fits the terminal, 80x24 and a small popup alike, and keeps
// the selected row and the status bar on screen.
func TestModel_FitsTheScreen(t *testing.T) {
	var panes []api.PaneStatus
	for i := range 40 {
		p := pane(fmt.Sprintf("%%%d", i), fmt.Sprintf("a-rather-long-session-name-%02d:0.0", i))
		p.Profile = "overnight-autonomous"
		p.Status.Decisions[0].Reason = strings.Repeat("a long reason ", 20)
		panes = append(panes, p)
	}
	for _, size := range [][2]int{{80, 24}, {60, 16}, {180, 40}, {30, 5}} {
		h := newHarness(t, Options{Color: true}, panes...)
		h.send(teaSize(size[0], size[1]))
		h.key("end")
		lines := h.screen()
		if len(lines) > size[1] {
			t.Errorf("%dx%d: %d lines", size[0], size[1], len(lines))
		}
		for i, l := range lines {
			if w := displayWidth(l); w > size[0] {
				t.Errorf("%dx%d: line %d is %d wide: %q", size[0], size[1], i, w, l)
			}
		}
		if rows := h.rowLines(); !strings.HasPrefix(rows[len(rows)-1], "\x1b[7m> ") {
			t.Errorf("%dx%d: the selected last row is not the last on screen: %q", size[0], size[1], rows)
		}
		if !strings.Contains(lines[len(lines)-1], "q quit") {
			t.Errorf("%dx%d: status bar %q", size[0], size[1], lines[len(lines)-1])
		}
	}
}

// NO_COLOR: not one escape sequence; with color, the rows are styled.
func TestModel_NoColor(t *testing.T) {
	need := pane("%1", "a:0.0")
	need.Status.NeedsYou = &respawn.Need{Kind: respawn.NeedQuestion, Reason: "which?", Since: t0}
	h := newHarness(t, Options{Color: false}, need, pane("%2", "b:0.0"))
	if s := h.m.View().Content; strings.Contains(s, "\x1b") {
		t.Fatalf("NO_COLOR view has escapes: %q", s)
	}
	h = newHarness(t, Options{Color: true}, need, pane("%2", "b:0.0"))
	if s := h.m.View().Content; !strings.Contains(s, "\x1b[") {
		t.Fatalf("color view has no escapes: %q", s)
	}
	if !h.m.View().AltScreen {
		t.Fatal("the dash does not use the alternate screen")
	}
}

// While the daemon is away the rows stay and the bar says so; when the
// stream opens again the list is read afresh.
func TestModel_Reconnects(t *testing.T) {
	a := pane("%1", "a:0.0")
	h := newHarness(t, Options{}, a)
	h.send(connMsg{err: errors.New("codeman daemon is not running"), retry: 2 * time.Second})
	h.now = h.now.Add(3 * time.Second)
	h.send(connMsg{err: errors.New("codeman daemon is not running"), retry: 4 * time.Second})
	if bar := h.statusBar(); !strings.Contains(bar, "daemon unreachable for 3s (codeman daemon is not running): reconnecting in 4s") {
		t.Fatalf("bar %q", bar)
	}
	if len(h.rowLines()) != 1 {
		t.Fatal("the rows went with the daemon")
	}
	b := pane("%2", "b:0.0")
	h.src.set(b)
	h.send(connMsg{})
	if calls := h.src.takeCalls(); !slices.Equal(calls, []string{"panes"}) || len(h.rowLines()) != 2 {
		t.Fatalf("reconnected: calls %q, %d rows", calls, len(h.rowLines()))
	}
	if bar := h.statusBar(); strings.Contains(bar, "unreachable") {
		t.Fatalf("bar %q after reconnecting", bar)
	}
}

func TestModel_ServerLabels(t *testing.T) {
	a := pane("%1", "a:0.0")
	b := pane("%1", "a:0.0")
	b.Pane = "tmux:/run/other/sock:%1"
	h := newHarness(t, Options{}, a)
	if r := h.rowLines()[0]; strings.Contains(r, "[") {
		t.Fatalf("one server, yet labelled: %q", r)
	}
	h = newHarness(t, Options{}, a, b)
	rows := strings.Join(h.rowLines(), "\n")
	if !strings.Contains(rows, "[default] a:0.0") || !strings.Contains(rows, "[sock] a:0.0") {
		t.Fatalf("rows of two servers:\n%s", rows)
	}
}

func TestPickClient(t *testing.T) {
	list := "1\t900\t@1\t$0\tclient-1\n0\t100\t@1\t$0\t/dev/pts/1\n0\t300\t@2\t$0\t/dev/pts/2\n0\t999\t@3\t$1\t/dev/pts/3\n0\t50\t@1\t$2\t/dev/pts/5\n"
	for _, tc := range []struct{ window, session, want, why string }{
		{"@1", "$0", "/dev/pts/1", "of the clients that show the window, the one used last, not in control mode"},
		{"@1", "$2", "/dev/pts/1", "a client that shows the window from a grouped session"},
		{"", "$0", "/dev/pts/2", "without a window, the client of the session used last"},
		{"@9", "$0", "/dev/pts/2", "no client shows the window: one of the session"},
		{"@9", "$5", "", "no client shows the window or the session"},
	} {
		if got := pickClient(list, tc.window, tc.session); got != tc.want {
			t.Errorf("pickClient(%s, %s) = %q, want %q: %s", tc.window, tc.session, got, tc.want, tc.why)
		}
	}
}

func TestLocate(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "default")
	if err := os.WriteFile(sock, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"TMUX": sock + ",4242,3", "TMUX_PANE": "%7"}
	here, err := Locate(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(sock)
	if here != (Here{Socket: real, Pane: "%7", Session: "$3"}) {
		t.Fatalf("Locate = %+v", here)
	}
}

// A pane that asks a question shows it with its options in the status
// bar, safe; a number key answers it with that option, naming the need
// the person saw; a pane that asks nothing takes no number.
func TestModel_Answer(t *testing.T) {
	a := pane("%1", "a:0.0")
	a.Status.NeedsYou = &respawn.Need{Kind: respawn.NeedQuestion, Reason: "Which database?", ID: "f00d",
		Ask: &respawn.Ask{Kind: respawn.NeedQuestion, Text: "Which database?\x1b]52;c;aGk=\x07", Options: []string{"PostgreSQL", "SQLite"}}}
	h := newHarness(t, Options{}, a)
	if bar := h.statusBar(); !strings.Contains(bar, "1 PostgreSQL · 2 SQLite") || strings.Contains(bar, "\x1b]52") {
		t.Fatalf("bar %q", bar)
	}
	h.src.takeCalls()
	h.key("2")
	if calls := h.src.takeCalls(); !slices.Equal(calls, []string{"answer " + a.Pane + " f00d 2 from dash"}) {
		t.Fatalf("calls %q", calls)
	}
	if bar := h.statusBar(); !strings.Contains(bar, "answered a:0.0 (%1) with 2. SQLite") {
		t.Fatalf("bar %q", bar)
	}

	b := pane("%2", "b:0.0")
	h = newHarness(t, Options{}, b)
	h.src.takeCalls()
	h.key("1")
	if calls := h.src.takeCalls(); len(calls) != 0 || !strings.Contains(h.statusBar(), "asks nothing") {
		t.Fatalf("calls %q bar %q", calls, h.statusBar())
	}
}
