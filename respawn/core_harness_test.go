package respawn

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/claudescreen"
)

// screenFixture reads one of Claude Code's recorded screens
// (agents/claude/testdata/screens) as a Screen.
func screenFixture(t testing.TB, name string) Screen {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "agents", "claude", "testdata", "screens", name))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	return Screen{Lines: lines, Width: 200, Height: len(lines)}
}

func idleScreen() []string {
	return claudescreen.Of("❯ hello there", "", "● Hello from the fake Anthropic API.", "", "✻ Churned for 3s · done 6:47 PM", "", claudescreen.Rule, claudescreen.Prompt, claudescreen.Rule, claudescreen.FooterIdle)
}

func workingScreen() []string {
	return claudescreen.Of("❯ hello there", "", "✢ Enchanting… (3s · ↓ 2 tokens)", "", claudescreen.Rule, claudescreen.Prompt, claudescreen.Rule, claudescreen.FooterBusy)
}

func planScreen() []string {
	return claudescreen.Of("● The plan is ready.", "  "+strings.Repeat("─", 60), "   Ready to code?", "", "   Here is Claude's plan:",
		"   Fake plan: add hello.txt", "   1. Create hello.txt with a greeting", "  "+strings.Repeat("─", 60),
		"   Claude has written up a plan and is ready to execute. Would you like to proceed?", "",
		"   ❯ 1. Yes, and use auto mode", "     2. Yes, manually approve edits", "     3. Tell Claude what to change",
		"        shift+tab to approve with this feedback", "", "   ctrl+g to edit in Vim · ~/.claude/plans/cozy-petting-rivest.md")
}

func questionScreen() []string {
	return claudescreen.Of(claudescreen.Rule, " ☐ Database", "", "Which database should the project use?", "", "❯ 1. PostgreSQL", "     Relational, strong consistency",
		"  2. SQLite", "     Embedded, zero setup", "  3. Type something.", claudescreen.Rule, "  4. Chat about this", "",
		"Enter to select · ↑/↓ to navigate · Esc to cancel")
}

func permissionScreen() []string {
	return claudescreen.Of(claudescreen.Rule, " Bash command", "", " Delete build output", " rm -rf ./build-output", " This command requires approval",
		" Do you want to proceed?", " ❯ 1. Yes", "   2. Yes, and don't ask again", "   3. No", "", " Esc to cancel · Tab to amend")
}

func shellScreen() []string { return []string{"root@host:~# ls", "file.txt", "root@host:~# "} }

// menuScreen is a dialog that is neither a question nor a permission prompt.
func menuScreen() []string {
	return claudescreen.Of("● Auto mode can't check actions in this session", claudescreen.Rule, " Auto mode can't check actions in this session", "",
		" ❯ 1. No", "   2. Yes", "", " Enter to confirm · Esc to cancel")
}

// typedScreen shows half a prompt someone is typing.
func typedScreen() []string {
	return claudescreen.Of("● Here is some reply text that streams.", "", claudescreen.Rule, "❯\u00a0let me think about th", claudescreen.Rule, claudescreen.FooterIdle)
}

// limitScreen shows a turn that ended on a 5-hour limit resetting at 20:00 UTC.
func limitScreen() []string {
	return claudescreen.Of("❯ go on", "  ⎿  You've hit your 5-hour limit · resets 8:00pm (UTC)", "", claudescreen.Rule, claudescreen.Prompt, claudescreen.Rule, claudescreen.FooterIdle)
}

const (
	chunkWorking    = "\x1b[38;5;211m✢\x1b[39m \x1b[38;5;211mEnchanting…\x1b[39m \x1b[38;5;246m(3s · ↓ 2 tokens)\x1b[39m"
	chunkCompletion = "\x1b[2m✻ Churned for 3s · done 6:47 PM\x1b[22m"
	chunkText       = "● Here is some reply text that streams."
)

// sent is one thing the fake terminal received.
type sent struct {
	at   time.Duration // since the harness started
	what string        // "submit: text" or "press: Enter"
	step Step
}

// harness drives a Core by hand: time passes only through advance, and the
// fake terminal answers snapshots at once with its current screen.
type harness struct {
	t       tb
	c       *Core
	vt      *Virtual // h.vt.Now is the core's time
	start   time.Time
	screen  []string
	sent    []sent
	checks  []Action // checks asked, in order
	sendErr error
	log     []Decision

	// holdSends leaves typed text and keys in flight until finishSend;
	// holdScreens leaves snapshots unanswered until deliverScreen.
	holdSends   bool
	inflight    []Action
	holdScreens bool
	snapshots   int
	// printed counts the output chunks fed: the screens delivered show
	// it in a row of their claudescreen.Header, since output that is not a status
	// line's redraw changes what a real screen shows.
	printed int
}

func testConfig() Config {
	cfg := DefaultConfig()
	cfg.AIIdleCheck.Enabled = false
	cfg.AIPlanCheck.Enabled = false
	cfg.KickstartPrompt = "continue with the next task"
	return cfg
}

// tb is what the harness needs of *testing.T and *rapid.T.
type tb interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

func newHarness(t tb, cfg Config) *harness {
	t.Helper()
	return newHarnessShowing(t, cfg, idleScreen())
}

// newHarnessShowing starts a core on a pane that shows screen.
func newHarnessShowing(t tb, cfg Config, screen []string) *harness {
	t.Helper()
	return newAgentHarness(t, cfg, claudeReader, screen)
}

// newAgentHarness starts a core with agent on a pane that shows screen.
func newAgentHarness(t tb, cfg Config, agent Agent, screen []string) *harness {
	t.Helper()
	start := time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	h := &harness{t: t, c: NewCore("tmux:/tmp/test:%1", cfg, agent), start: start, screen: screen}
	h.vt = &Virtual{Core: h.c, Now: start, Do: h.do}
	h.c.Start(start)
	h.perform()
	return h
}

// perform carries out the core's actions like a loop with an instant terminal.
func (h *harness) perform() { h.vt.Perform() }

// do carries out one action at once.
func (h *harness) do(a Action) {
	switch a.Kind {
	case ActSnapshot:
		if h.holdScreens {
			h.snapshots++
			return
		}
		h.c.Screen(h.vt.Now, h.shown())
	case ActSubmit:
		h.sent = append(h.sent, sent{h.vt.Now.Sub(h.start), "submit: " + a.Text, a.Step})
		h.sendDone(a)
	case ActPress:
		h.sent = append(h.sent, sent{h.vt.Now.Sub(h.start), "press: " + string(a.Key), a.Step})
		h.sendDone(a)
	case ActCheck:
		h.checks = append(h.checks, a)
	case ActDecision:
		h.log = append(h.log, a.Decision)
	}
}

func (h *harness) sendDone(a Action) {
	if h.holdSends {
		h.inflight = append(h.inflight, a)
		return
	}
	h.c.SendDone(h.vt.Now, a.ID, h.sendErr)
}

// finishSend reports the oldest send in flight as done with err.
func (h *harness) finishSend(err error) {
	h.t.Helper()
	if len(h.inflight) == 0 {
		h.t.Fatal("no send in flight")
	}
	a := h.inflight[0]
	h.inflight = h.inflight[1:]
	h.c.SendDone(h.vt.Now, a.ID, err)
	h.perform()
}

// deliverScreens answers the snapshots asked for with the current screen,
// and those the answers lead to.
func (h *harness) deliverScreens() {
	for h.snapshots > 0 {
		h.snapshots--
		h.c.Screen(h.vt.Now, h.shown())
		h.perform()
	}
}

// shown is the screen as a snapshot delivers it: h.screen, with the
// blank row under the claudescreen.Header telling how much output came.
func (h *harness) shown() Screen {
	lines := append([]string(nil), h.screen...)
	if len(lines) > len(claudescreen.Header) && lines[len(claudescreen.Header)-1] == "" {
		lines[len(claudescreen.Header)-1] = fmt.Sprintf("  [%d chunks printed]", h.printed)
	}
	return Screen{Lines: lines, Width: 200, Height: 50, At: h.vt.Now}
}

// sentSince returns what was sent from at on.
func (h *harness) sentSince(at time.Time) []sent {
	var out []sent
	for _, s := range h.sent {
		if !h.start.Add(s.at).Before(at) {
			out = append(out, s)
		}
	}
	return out
}

// advance moves time forward by d, firing every deadline on the way at
// its exact time.
func (h *harness) advance(d time.Duration) {
	h.t.Helper()
	if err := h.vt.AdvanceTo(h.vt.Now.Add(d)); err != nil {
		h.t.Fatalf("%v\n%s", err, h.dump())
	}
}

func (h *harness) output(chunk string) {
	h.printed++
	h.c.Output(h.vt.Now, []byte(chunk))
	h.perform()
}

// redraw prints a chunk that changes only the footer's last row, as a
// status line with a clock does every second.
func (h *harness) redraw(footer string) {
	if n := len(h.screen); n > 0 {
		h.screen = append(append([]string(nil), h.screen[:n-1]...), footer)
	}
	h.c.Output(h.vt.Now, []byte("\x1b[H\r\x1b[48B"+footer))
	h.perform()
}

// draw shows screen and prints it, as Claude Code redraws its rows.
func (h *harness) draw(screen []string) {
	h.screen = screen
	h.output("\x1b[H" + strings.Join(screen, "\r\n"))
}

func (h *harness) hook(k HookKind, mod ...func(*Hook)) {
	hk := Hook{Kind: k, At: h.vt.Now}
	for _, m := range mod {
		m(&hk)
	}
	h.c.Hook(h.vt.Now, hk)
	h.perform()
}

func (h *harness) answer(res CheckResult, err error) {
	h.t.Helper()
	if len(h.checks) == 0 {
		h.t.Fatal("no check was asked")
	}
	a := h.checks[0]
	h.checks = h.checks[1:]
	h.c.CheckDone(h.vt.Now, a.ID, res, err)
	h.perform()
}

// work simulates Claude working for d: a spinner frame every 200ms.
func (h *harness) work(d time.Duration) {
	h.screen = workingScreen()
	for end := h.vt.Now.Add(d); h.vt.Now.Before(end); {
		h.output(chunkWorking)
		h.advance(200 * time.Millisecond)
	}
}

// finishTurn prints the completion line and shows the idle screen.
func (h *harness) finishTurn() {
	h.screen = idleScreen()
	h.output(chunkCompletion)
}

func (h *harness) states() []string {
	var out []string
	for _, d := range h.log {
		if d.Kind == DecisionState {
			out = append(out, d.To)
		}
	}
	return out
}

func (h *harness) sends() []string {
	var out []string
	for _, s := range h.sent {
		out = append(out, s.what)
	}
	return out
}

func (h *harness) wantState(s State) {
	h.t.Helper()
	if h.c.State() != s {
		h.t.Fatalf("state = %s, want %s\n%s", h.c.State(), s, h.dump())
	}
}

func (h *harness) wantSends(want ...string) {
	h.t.Helper()
	got := h.sends()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		h.t.Fatalf("sent:\n  %s\nwant:\n  %s\n%s", strings.Join(got, "\n  "), strings.Join(want, "\n  "), h.dump())
	}
}

func (h *harness) wantDecision(substr string) {
	h.t.Helper()
	for _, d := range h.log {
		if strings.Contains(d.String(), substr) {
			return
		}
	}
	h.t.Fatalf("no decision contains %q\n%s", substr, h.dump())
}

func (h *harness) dump() string {
	var b strings.Builder
	for _, d := range h.log {
		fmt.Fprintf(&b, "  %7.1fs %s\n", d.At.Sub(h.start).Seconds(), d)
	}
	return b.String()
}

// untilState advances in small steps until the core is in state s, for at
// most an hour.
func (h *harness) untilState(s State) {
	h.t.Helper()
	for end := h.vt.Now.Add(time.Hour); h.c.State() != s; h.advance(100 * time.Millisecond) {
		if h.vt.Now.After(end) {
			h.t.Fatalf("state %s never reached\n%s", s, h.dump())
		}
	}
}

// cycleUntil finishes a turn and lets cycle 1 run until it enters state s.
func cycleUntil(t tb, cfg Config, s State) *harness {
	t.Helper()
	h := newHarness(t, cfg)
	h.work(time.Second)
	h.finishTurn()
	h.untilState(s)
	return h
}

// untilCycleEnds advances in small steps until cycle n is over.
func (h *harness) untilCycleEnds(n int) {
	h.t.Helper()
	for i := 0; i < 100000; i++ {
		if h.c.Cycles() >= n && h.c.State() == Watching {
			return
		}
		h.advance(100 * time.Millisecond)
	}
	h.t.Fatalf("cycle %d never ended\n%s", n, h.dump())
}
