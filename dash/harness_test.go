package dash

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/respawn"
)

// t0 is the tests' time: the fake clock starts there.
var t0 = time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)

// fakeSource is a daemon in memory that records what it was asked.
type fakeSource struct {
	mu    sync.Mutex
	panes map[string]api.PaneStatus
	calls []string
}

func newFakeSource(panes ...api.PaneStatus) *fakeSource {
	s := &fakeSource{panes: map[string]api.PaneStatus{}}
	for _, p := range panes {
		s.panes[p.Pane] = p
	}
	return s
}

func (s *fakeSource) record(call string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, call)
}

// takeCalls returns the calls since the last takeCalls.
func (s *fakeSource) takeCalls() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.calls
	s.calls = nil
	return c
}

func (s *fakeSource) set(st api.PaneStatus) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.panes[st.Pane] = st
}

func (s *fakeSource) Panes(context.Context) ([]api.PaneStatus, error) {
	s.record("panes")
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []api.PaneStatus
	for _, p := range s.panes {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b api.PaneStatus) int { return strings.Compare(a.Pane, b.Pane) })
	return out, nil
}

func (s *fakeSource) get(addr string) (api.PaneStatus, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.panes[addr]
	if !ok {
		return p, fmt.Errorf("%s: %w", addr, api.ErrNotControlled)
	}
	return p, nil
}

func (s *fakeSource) Pane(_ context.Context, addr string, _ int) (api.PaneStatus, error) {
	s.record("pane " + addr)
	return s.get(addr)
}

func (s *fakeSource) Explain(_ context.Context, addr string, _ int) (api.PaneStatus, error) {
	s.record("explain " + addr)
	return s.get(addr)
}

func (s *fakeSource) Answer(_ context.Context, req api.AnswerRequest) (respawn.Answered, error) {
	s.record(fmt.Sprintf("answer %s %s %s from %s", req.Pane, req.Need, req.Choice, req.From))
	p, err := s.get(req.Pane)
	if err != nil {
		return respawn.Answered{}, err
	}
	n := p.Status.NeedsYou
	i, err := n.Ask.Choose(req.Choice)
	if err != nil {
		return respawn.Answered{}, err
	}
	return respawn.Answered{Need: n.ID, Option: i + 1, Label: n.Ask.Options[i]}, nil
}

func (s *fakeSource) Pause(_ context.Context, addr string, paused bool) (api.PaneStatus, error) {
	s.record(fmt.Sprintf("pause %s %t", addr, paused))
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.panes[addr]
	if !ok {
		return p, fmt.Errorf("%s: %w", addr, api.ErrNotControlled)
	}
	p.Status.Paused = paused
	s.panes[addr] = p
	return p, nil
}

func (s *fakeSource) Detach(_ context.Context, addr string) error {
	s.record("detach " + addr)
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.panes, addr)
	return nil
}

func (s *fakeSource) Follow(context.Context, string, func(), func(api.Event) error) error {
	panic("the model never follows the stream itself")
}

// timed is a message the model asked to get later.
type timed struct {
	after time.Duration
	msg   tea.Msg
}

// harness drives a Model without a terminal: it runs the commands the
// model returns at once and feeds their messages back, except timed ones,
// which it keeps until the test fires them.
type harness struct {
	t     *testing.T
	m     *Model
	src   *fakeSource
	now   time.Time
	timed []timed
	tmux  []string // tmux commands run, one line each
	// tmuxOut answers tmux commands by their name (list-clients); the
	// others print nothing.
	tmuxOut map[string]string
	quit    bool
}

func newHarness(t *testing.T, opts Options, panes ...api.PaneStatus) *harness {
	t.Helper()
	h := &harness{t: t, src: newFakeSource(panes...), now: t0}
	opts.Source = h.src
	opts.Now = func() time.Time { return h.now }
	if opts.ExplainText == nil {
		opts.ExplainText = func(st api.PaneStatus, now time.Time) string {
			return fmt.Sprintf("EXPLAIN %s\nstate %s\nline three", st.Target, st.Status.State)
		}
	}
	opts.Tmux = func(_ context.Context, socket string, args ...string) (string, error) {
		h.tmux = append(h.tmux, socket+": "+strings.Join(args, " "))
		return h.tmuxOut[args[0]], nil
	}
	h.m = New(opts)
	h.m.after = func(d time.Duration, msg tea.Msg) tea.Cmd {
		h.timed = append(h.timed, timed{d, msg})
		return nil
	}
	h.send(h.m.Init())
	h.send(tea.WindowSizeMsg{Width: 100, Height: 24})
	h.send(connMsg{}) // the stream opens: the list is read
	h.src.takeCalls()
	return h
}

// send applies msg (a tea.Msg, or a tea.Cmd to run first) and everything
// that follows from it.
func (h *harness) send(msg any) {
	h.t.Helper()
	var queue []tea.Msg
	switch v := msg.(type) {
	case tea.Cmd:
		queue = run(v)
	default:
		queue = []tea.Msg{v}
	}
	for len(queue) > 0 {
		msg := queue[0]
		queue = queue[1:]
		if _, ok := msg.(tea.QuitMsg); ok {
			h.quit = true
			continue
		}
		_, cmd := h.m.Update(msg)
		queue = append(queue, run(cmd)...)
	}
}

// run runs cmd and the commands of a batch.
func run(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, run(c)...)
		}
		return out
	default:
		return []tea.Msg{msg}
	}
}

// fire delivers the timed messages of type T, after moving the clock to
// the latest of their times.
func fire[T tea.Msg](h *harness) int {
	h.t.Helper()
	var due []timed
	rest := h.timed[:0]
	for _, tm := range h.timed {
		if _, ok := tm.msg.(T); ok {
			due = append(due, tm)
		} else {
			rest = append(rest, tm)
		}
	}
	h.timed = rest
	for _, tm := range due {
		h.now = h.now.Add(tm.after)
		h.send(tm.msg)
	}
	return len(due)
}

// key presses one key: a printable character or a name such as "enter".
func (h *harness) key(names ...string) {
	h.t.Helper()
	for _, name := range names {
		h.send(keyMsg(name))
	}
}

func keyMsg(name string) tea.KeyPressMsg {
	special := map[string]rune{
		"enter": tea.KeyEnter, "esc": tea.KeyEscape, "up": tea.KeyUp, "down": tea.KeyDown,
		"backspace": tea.KeyBackspace, "end": tea.KeyEnd, "home": tea.KeyHome,
	}
	if c, ok := special[name]; ok {
		return tea.KeyPressMsg{Code: c}
	}
	if rest, ok := strings.CutPrefix(name, "ctrl+"); ok {
		return tea.KeyPressMsg{Code: rune(rest[0]), Mod: tea.ModCtrl}
	}
	r := []rune(name)[0]
	return tea.KeyPressMsg{Code: r, Text: name}
}

// screen is the view as lines.
func (h *harness) screen() []string {
	return strings.Split(h.m.View().Content, "\n")
}

// rowLines returns the lines of the rows on screen, in order.
func (h *harness) rowLines() []string {
	n := min(len(h.m.visible), h.m.listHeight())
	return h.screen()[2 : 2+n]
}

func (h *harness) statusBar() string {
	s := h.screen()
	return s[len(s)-1]
}

// pane is a controlled tmux pane of the default test server, watching and
// idle, as the daemon describes it.
func pane(id, target string) api.PaneStatus {
	return api.PaneStatus{
		Pane: "tmux:/tmp/tmux-0/default:" + id, Target: target + " (" + id + ")", Command: "claude", Mode: "control",
		Status: respawn.Status{
			State: "watching", Line: "watching", Since: t0.Add(-5 * time.Minute),
			Evidence:  respawn.Evidence{Tokens: -1, PromptBox: true},
			Decisions: []respawn.Decision{{At: t0.Add(-5 * time.Minute), Kind: respawn.DecisionState, From: "stopped", To: "watching", Reason: "started"}},
		},
	}
}

func teaSize(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }

func displayWidth(s string) int { return ansi.StringWidth(s) }
