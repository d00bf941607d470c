package dash

import "charm.land/lipgloss/v2"

// Styles of the view; none of them is used when Options.Color is off
// (NO_COLOR), which leaves plain text and the "> " of the selected row.
var (
	styleTitle    = lipgloss.NewStyle().Bold(true)
	styleHeader   = lipgloss.NewStyle().Faint(true)
	styleSelected = lipgloss.NewStyle().Reverse(true)
	styleError    = lipgloss.NewStyle().Foreground(lipgloss.Color("1")).Bold(true)
	styleHint     = lipgloss.NewStyle().Faint(true)
	styleGroup    = map[group]lipgloss.Style{
		groupNeedsYou:      lipgloss.NewStyle().Foreground(lipgloss.Color("1")).Bold(true),
		groupWorking:       lipgloss.NewStyle().Foreground(lipgloss.Color("2")),
		groupIdle:          lipgloss.NewStyle(),
		groupWaiting:       lipgloss.NewStyle().Foreground(lipgloss.Color("3")),
		groupPaused:        lipgloss.NewStyle().Foreground(lipgloss.Color("4")),
		groupNotControlled: lipgloss.NewStyle().Foreground(lipgloss.Color("5")).Faint(true),
	}
)

// paint styles s unless the dash draws without color.
func (m *Model) paint(st lipgloss.Style, s string) string {
	if !m.opts.Color || s == "" {
		return s
	}
	return st.Render(s)
}

// paintState styles a STATE cell. The cells are few (a group and a state
// each), so each is rendered once.
func (m *Model) paintState(g group, cell string) string {
	if !m.opts.Color {
		return cell
	}
	key := stateCell{g, cell}
	if s, ok := m.stateCells[key]; ok {
		return s
	}
	s := styleGroup[g].Render(cell)
	m.stateCells[key] = s
	return s
}

type stateCell struct {
	g    group
	cell string
}
