package dash

import (
	"context"
	"fmt"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/codeman-dev/codeman/api"
)

const (
	// flushEvery spaces the refreshes that events ask for: at most ten a
	// second, however many events come.
	flushEvery = 100 * time.Millisecond
	// maxPaneReads is the most panes read one by one in a refresh; more
	// are read with one list request.
	maxPaneReads = 8
	// requestTimeout bounds every request of the dash.
	requestTimeout = 10 * time.Second
	// explainDecisions is how many decisions the explain view shows.
	explainDecisions = 30
)

// event marks what an event changed: a decision or a need changes its
// pane; attach, detach, a failed adoption (and any kind this version does
// not know) may change the set of panes.
func (m *Model) event(e api.Event) tea.Cmd {
	switch e.Kind {
	case "decision", "needs-you", "resolved":
		m.dirty[e.Pane] = true
	default:
		m.listDirty = true
	}
	return m.scheduleFlush()
}

// scheduleFlush asks for a flush at once, or flushEvery after the last
// one, unless one is coming.
func (m *Model) scheduleFlush() tea.Cmd {
	if m.flushPending {
		return nil
	}
	m.flushPending = true
	if wait := m.lastFlush.Add(flushEvery).Sub(m.opts.Now()); wait > 0 {
		return m.after(wait, flushMsg{})
	}
	return func() tea.Msg { return flushMsg{} }
}

// flush sends the requests for everything marked since the last one.
func (m *Model) flush() tea.Cmd {
	m.flushPending = false
	m.lastFlush = m.opts.Now()
	var cmds []tea.Cmd
	if m.explain != nil && (m.listDirty || m.dirty[m.explain.addr]) {
		cmds = append(cmds, m.readExplain(m.explain.addr))
	}
	if m.listDirty || len(m.dirty) > maxPaneReads {
		cmds = append(cmds, m.readList())
	} else {
		addrs := make([]string, 0, len(m.dirty))
		for addr := range m.dirty {
			addrs = append(addrs, addr)
		}
		slices.Sort(addrs)
		for _, addr := range addrs {
			cmds = append(cmds, m.readPane(addr))
		}
	}
	m.listDirty = false
	clear(m.dirty)
	return tea.Batch(cmds...)
}

func (m *Model) readList() tea.Cmd {
	m.seq++
	seq, src := m.seq, m.opts.Source
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		panes, err := src.Panes(ctx)
		return listMsg{seq: seq, panes: panes, err: err}
	}
}

func (m *Model) readPane(addr string) tea.Cmd {
	m.seq++
	seq, src := m.seq, m.opts.Source
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		st, err := src.Pane(ctx, addr, 1)
		return paneMsg{seq: seq, addr: addr, st: st, err: err}
	}
}

func (m *Model) readExplain(addr string) tea.Cmd {
	src := m.opts.Source
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		st, err := src.Explain(ctx, addr, explainDecisions)
		return explainMsg{addr: addr, st: st, err: err}
	}
}

// pause pauses or resumes the pane of r.
func (m *Model) pause(r *row) tea.Cmd {
	m.seq++
	seq, src, addr, label, paused := m.seq, m.opts.Source, r.st.Pane, r.label, !r.st.Status.Paused
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		st, err := src.Pause(ctx, addr, paused)
		if err != nil {
			return doneMsg{err: fmt.Errorf("pause %s: %w", label, err)}
		}
		text := "paused " + label + ": nothing is typed into it until p again"
		if !paused {
			text = "resumed " + label
		}
		return doneMsg{text: text, pane: &paneMsg{seq: seq, addr: addr, st: st}}
	}
}

// answer types option choice into the dialog of need id on the pane of r;
// the daemon refuses it unless that dialog is still on screen.
func (m *Model) answer(r *row, id, choice string) tea.Cmd {
	src, addr, label := m.opts.Source, r.st.Pane, r.label
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), answerTimeout)
		defer cancel()
		got, err := src.Answer(ctx, api.AnswerRequest{Pane: addr, Need: id, Choice: choice, From: "dash"})
		if err != nil {
			return doneMsg{err: fmt.Errorf("answer %s: %w", label, err)}
		}
		return doneMsg{text: fmt.Sprintf("answered %s with %d. %s", label, got.Option, got.Label)}
	}
}

// answerTimeout bounds an answer, which waits for the dialog to take the
// keys.
const answerTimeout = 20 * time.Second

// detach disables respawn on the pane at addr.
func (m *Model) detach(addr, label string) tea.Cmd {
	src := m.opts.Source
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		if err := src.Detach(ctx, addr); err != nil {
			return doneMsg{err: fmt.Errorf("detach %s: %w", label, err)}
		}
		return doneMsg{text: "detached " + label + ": respawn is off there", gone: addr}
	}
}
