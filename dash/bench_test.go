package dash

import (
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/respawn"
)

// benchModel is a dash of 100 panes of every group on an 80x24 screen,
// whose requests are answered in memory.
func benchModel(b *testing.B) (*Model, *fakeSource, *time.Time) {
	b.Helper()
	now := t0
	src := newFakeSource()
	for i := range 100 {
		p := pane(fmt.Sprintf("%%%d", i), fmt.Sprintf("session-%02d:%d.0", i/4, i%4))
		switch i % 5 {
		case 0:
			p.Status.NeedsYou = &respawn.Need{Kind: respawn.NeedPermission, Reason: "Bash(go test ./...)", Since: t0}
		case 1:
			p.Status.State, p.Status.Cycles = "waiting_update", i
		case 2:
			p.Status.Paused = true
		}
		src.set(p)
	}
	m := New(Options{Source: src, Color: true, Now: func() time.Time { return now },
		ExplainText: func(api.PaneStatus, time.Time) string { return "" }})
	m.after = func(time.Duration, tea.Msg) tea.Cmd { return nil }
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	apply(m, func() tea.Msg { return connMsg{} })
	if len(m.rows) != 100 {
		b.Fatalf("%d rows", len(m.rows))
	}
	return m, src, &now
}

// apply runs cmd and feeds what follows from it back into m.
func apply(m *Model, cmd tea.Cmd) {
	for _, msg := range run(cmd) {
		_, next := m.Update(msg)
		apply(m, next)
	}
}

// One event of one pane: the event, the read of the pane, its answer and
// the redraw. The clock moves flushEvery per event, so that every event
// is read at once.
func BenchmarkDash_Event(b *testing.B) {
	m, src, now := benchModel(b)
	i := 0
	for b.Loop() {
		*now = now.Add(flushEvery)
		addr := fmt.Sprintf("tmux:/tmp/tmux-0/default:%%%d", i%100)
		_, cmd := m.Update(eventMsg{api.Event{Pane: addr, Kind: "decision"}})
		apply(m, cmd)
		if len(m.View().Content) == 0 {
			b.Fatal("empty view")
		}
		i++
	}
	if calls := len(src.takeCalls()); calls < b.N {
		b.Fatalf("%d reads for %d events", calls, b.N)
	}
}

// One second of an idle dash: the tick and the redraw of the durations.
func BenchmarkDash_Tick(b *testing.B) {
	m, _, now := benchModel(b)
	for b.Loop() {
		*now = now.Add(time.Second)
		m.Update(tickMsg{})
		if len(m.View().Content) == 0 {
			b.Fatal("empty view")
		}
	}
}
