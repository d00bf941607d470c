package dash

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/internal/safetext"
	"github.com/codeman-dev/codeman/respawn"
)

// View draws the dash on the alternate screen, from a cache that only
// Update invalidates: an event that changes nothing redraws nothing.
func (m *Model) View() tea.View {
	if !m.viewOK {
		m.view, m.viewOK = m.render(), true
	}
	v := tea.NewView(m.view)
	v.AltScreen = true
	return v
}

func (m *Model) render() string {
	var lines []string
	switch m.mode {
	case modeHelp:
		lines = m.helpView()
	case modeExplain:
		lines = m.explainView()
	default:
		lines = m.listView()
	}
	if m.height < 2 {
		lines = lines[len(lines)-1:]
	} else if len(lines) > m.height {
		// The status bar stays: it is where questions and errors are.
		lines = append(lines[:m.height-1], lines[len(lines)-1])
	}
	return strings.Join(lines, "\n")
}

// clip cuts a line to the screen's width.
func (m *Model) clip(line string) string {
	if cellWidth(line) <= m.width {
		return line
	}
	return ansi.Truncate(line, m.width, "")
}

// cellWidth is the width of s on screen; plain ASCII, what almost every
// cell holds, is counted without segmenting graphemes.
func cellWidth(s string) int {
	if plainASCII(s) {
		return len(s)
	}
	return ansi.StringWidth(s)
}

// cut cuts s to w cells ending in …, the cheap way for plain ASCII.
func cut(s string, w int) string {
	if plainASCII(s) && w > 0 {
		return s[:w-1] + "…"
	}
	return ansi.Truncate(s, w, "…")
}

// plainASCII reports whether s is printable ASCII: one cell a byte.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x7f || c < 0x20 {
			return false
		}
	}
	return true
}

// listHeight is the rows shown at once: all but the title, the column
// header and the status bar.
func (m *Model) listHeight() int { return max(1, m.height-3) }

// explainHeight is the explain lines shown at once.
func (m *Model) explainHeight() int { return max(1, m.height-2) }

// columns are the widths of the list's columns; last takes what is left,
// and profile is dropped on a narrow screen.
type columns struct {
	target, state, dur, cycles, last, profile int
	narrow                                    bool // the columns overflow the screen
}

const (
	markerWidth = 2 // "> " on the selected row
	stateWidth  = 15
	durWidth    = 6
	cyclesWidth = 3
)

func (m *Model) columns() columns {
	c := columns{state: stateWidth, dur: durWidth, cycles: cyclesWidth}
	label, profile := len("TARGET"), len("PROFILE")
	for _, r := range m.visible {
		label = max(label, cellWidth(r.label))
		profile = max(profile, cellWidth(r.prof))
	}
	if m.width >= 70 {
		c.profile = min(profile, 14)
	}
	c.target = min(label, max(12, m.width*2/5))
	used := markerWidth + c.target + 1 + c.state + 1 + c.dur + 1 + c.cycles + 1
	if c.profile > 0 {
		used += 1 + c.profile
	}
	c.last = max(0, m.width-used)
	c.narrow = used > m.width
	return c
}

func (m *Model) listView() []string {
	lines := []string{m.paint(styleTitle, m.clip(m.title()))}
	c := m.columns()
	lines = append(lines, m.paint(styleHeader, m.clip(c.line("  ", "TARGET", "STATE", "FOR", "CYC", "LAST DECISION", "PROFILE"))))
	switch {
	case !m.loaded:
		lines = append(lines, m.clip("  waiting for the codeman daemon…"))
	case len(m.visible) == 0 && len(m.rows) > 0:
		lines = append(lines, m.clip(fmt.Sprintf("  no pane matches %q (Esc clears the filter)", m.filter)))
	case len(m.visible) == 0:
		lines = append(lines, m.clip("  no pane is enabled: codeman attach PANE, or prefix + A in a tmux pane"))
	}
	end := min(len(m.visible), m.top+m.listHeight())
	for i := m.top; i < end; i++ {
		lines = append(lines, m.rowLine(m.visible[i], i == m.cursor, c))
	}
	for len(lines) < m.height-1 {
		lines = append(lines, "")
	}
	return append(lines, m.statusBar())
}

// title counts the panes of each group, all of them whatever the filter.
func (m *Model) title() string {
	var n [groupNotControlled + 1]int
	for _, r := range m.rows {
		n[r.group]++
	}
	var parts []string
	for g, name := range []string{"need you", "working", "idle", "waiting", "paused", "not controlled"} {
		if n[g] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[g], name))
		}
	}
	s := fmt.Sprintf("codeman dash · %d pane%s", len(m.rows), plural(len(m.rows)))
	if len(parts) > 0 {
		s += ": " + strings.Join(parts, ", ")
	}
	if m.filter != "" {
		s += fmt.Sprintf(" · filter %q: %d shown", m.filter, len(m.visible))
	}
	return s
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func (m *Model) rowLine(r *row, selected bool, c columns) string {
	marker := "  "
	if selected {
		marker = "> "
	}
	cycles := fmt.Sprint(r.st.Status.Cycles)
	if r.group == groupNotControlled {
		cycles = "-"
	}
	state := fit(r.state, c.state)
	if !selected && !c.narrow {
		state = m.paintState(r.group, state)
	}
	line := marker + fit(r.label, c.target) + " " + state + " " + fitRight(api.Age(m.now, r.since()), c.dur) +
		" " + fitRight(cycles, c.cycles) + " " + fit(r.last, c.last)
	if c.profile > 0 {
		line += " " + fit(r.prof, c.profile)
	}
	if c.narrow {
		line = m.clip(line) // plain: its cells are cut, not its styles
	}
	if selected {
		return m.paint(styleSelected, line)
	}
	return line
}

// line lays out the column header.
func (c columns) line(marker, target, state, dur, cycles, last, profile string) string {
	s := marker + fit(target, c.target) + " " + fit(state, c.state) + " " + fitRight(dur, c.dur) + " " + fitRight(cycles, c.cycles) + " " + fit(last, c.last)
	if c.profile > 0 {
		s += " " + fit(profile, c.profile)
	}
	return s
}

// fit cuts s to w cells, ending it with … when cut, and pads it to w.
func fit(s string, w int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	n := cellWidth(s)
	if n > w {
		s = cut(s, w)
		n = cellWidth(s)
	}
	return s + strings.Repeat(" ", max(0, w-n))
}

// fitRight is fit aligned right.
func fitRight(s string, w int) string {
	n := cellWidth(s)
	if n > w {
		return cut(s, w)
	}
	return strings.Repeat(" ", w-n) + s
}

// statusBar is the last line: a question, the filter being typed, the
// answer to the last key, the state of the connection, or the keys. Most
// of it can quote a pane (its target, an error the daemon answered with),
// so it is shown safe.
func (m *Model) statusBar() string {
	text, style := m.statusText()
	return m.paint(style, m.clip(safetext.Line(text)))
}

func (m *Model) statusText() (string, lipgloss.Style) {
	switch {
	case m.mode == modeConfirm:
		label := m.confirm
		if r := m.rows[m.confirm]; r != nil {
			label = r.label
		}
		return "detach " + label + "? respawn goes off there (y/n)", styleError
	case m.mode == modeFilter:
		return "/" + m.filter + "█  Enter keeps it, Esc clears it", lipgloss.Style{}
	case m.message != "" && m.isError:
		return m.message, styleError
	case m.message != "":
		return m.message, lipgloss.Style{}
	case !m.conn.up && m.conn.err != "":
		return fmt.Sprintf("daemon unreachable for %s (%s): reconnecting in %s",
			api.Age(m.now, m.conn.since), m.conn.err, m.conn.retry.Round(100*time.Millisecond)), styleError
	case m.fetch != "":
		return m.fetch, styleError
	}
	if r := m.current(); r != nil && r.st.Status.NeedsYou != nil && r.st.Status.NeedsYou.Ask != nil {
		return askLine(r.st.Status.NeedsYou.Ask), styleError
	}
	keys := "Enter jump · e explain · p pause/resume · d detach · / filter · ? help · q quit"
	if cellWidth(keys) > m.width {
		keys = "? help · q quit"
	}
	return keys, styleHint
}

// askLine shows the dialog the selected pane asks, with the number key of
// each option: "Which database? 1 PostgreSQL · 2 SQLite · press 1-2".
func askLine(a *respawn.Ask) string {
	parts := make([]string, len(a.Options))
	for i, o := range a.Options {
		parts[i] = fmt.Sprintf("%d %s", i+1, o)
	}
	text, _, _ := strings.Cut(a.Text, "\n")
	return fmt.Sprintf("%s  %s  (press its number to answer)", text, strings.Join(parts, " · "))
}

func (m *Model) helpView() []string {
	lines := []string{
		"codeman dash: keys",
		"",
		"  ↑/k ↓/j      select a pane (PgUp PgDn Home End too)",
		"  Enter        go to the pane (tmux: this client switches to it; screen: the command to reach it)",
		"  e            explain: evidence, timers, decisions and the screen now (Esc goes back)",
		"  p            pause the pane (codeman types nothing into it), or resume it",
		"  d            detach: respawn off for the pane, after a y/n question",
		"  1-9          answer the question or permission prompt the pane shows with that option",
		"  /            filter the rows by a part of what they show; Esc clears it",
		"  ?            this help",
		"  q, Ctrl-C    quit",
		"",
		"  Rows: panes that need you, working, idle, waiting out a limit, paused, not controlled.",
		"  FOR is how long the pane has been in its state; the rows follow the daemon's events.",
	}
	for i, l := range lines {
		lines[i] = m.clip(l)
	}
	for len(lines) < m.height-1 {
		lines = append(lines, "")
	}
	return append(lines, m.paint(styleHint, m.clip("any key goes back")))
}

// explainLines is the text of the explain view.
func (m *Model) explainLines() []string {
	x := m.explain
	switch {
	case x == nil:
		return nil
	case x.st == nil && x.err != "":
		return []string{safetext.Line("cannot explain " + x.addr + ": " + x.err)}
	case x.st == nil:
		return []string{safetext.Line("reading " + x.addr + "…")}
	}
	lines := strings.Split(strings.TrimRight(m.opts.ExplainText(*x.st, m.now), "\n"), "\n")
	for i, l := range lines {
		lines[i] = safetext.Line(l)
	}
	return lines
}

func (m *Model) explainView() []string {
	x := m.explain
	label := safetext.Line(x.addr)
	if r := m.rows[x.addr]; r != nil {
		label = r.label
	}
	lines := []string{m.paint(styleTitle, m.clip("explain "+label))}
	text := m.explainLines()
	end := min(len(text), x.offset+m.explainHeight())
	for _, l := range text[min(x.offset, end):end] {
		lines = append(lines, m.clip(l))
	}
	for len(lines) < m.height-1 {
		lines = append(lines, "")
	}
	bar := m.paint(styleHint, m.clip("↑↓ scroll · r read again · Esc back · q quit"))
	if x.err != "" && x.st != nil {
		bar = m.paint(styleError, m.clip(safetext.Line("read again failed: "+x.err)))
	}
	return append(lines, bar)
}
