package dash

import (
	tea "charm.land/bubbletea/v2"
)

// key handles a key press in the current mode. Ctrl-C quits from
// anywhere; a message in the status bar lasts until the next key.
func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	if k.String() == "ctrl+c" {
		return tea.Quit
	}
	m.message, m.isError = "", false
	switch m.mode {
	case modeFilter:
		m.filterKey(k)
		return nil
	case modeConfirm:
		return m.confirmKey(k)
	case modeHelp:
		m.mode = modeList
		if k.String() == "q" {
			return tea.Quit
		}
		return nil
	case modeExplain:
		return m.explainKey(k)
	}
	return m.listKey(k)
}

func (m *Model) listKey(k tea.KeyPressMsg) tea.Cmd {
	switch k.String() {
	case "q":
		return tea.Quit
	case "up", "k":
		m.move(-1)
	case "down", "j":
		m.move(1)
	case "pgup":
		m.move(-m.listHeight())
	case "pgdown", "space":
		m.move(m.listHeight())
	case "home", "g":
		m.move(-len(m.visible))
	case "end", "G":
		m.move(len(m.visible))
	case "/":
		m.mode = modeFilter
	case "esc":
		m.filter = ""
	case "?":
		m.mode = modeHelp
	}
	r := m.current()
	if r == nil {
		return nil
	}
	switch k.String() {
	case "enter":
		return m.jump(r)
	case "e":
		m.mode = modeExplain
		m.explain = &explainView{addr: r.st.Pane}
		return m.readExplain(r.st.Pane)
	case "p":
		if r.group == groupNotControlled {
			m.message, m.isError = r.label+" is not controlled: nothing to pause", true
			return nil
		}
		return m.pause(r)
	case "d":
		m.mode, m.confirm = modeConfirm, r.st.Pane
	case "1", "2", "3", "4", "5", "6", "7", "8", "9":
		n := r.st.Status.NeedsYou
		if n == nil || n.Ask == nil {
			m.message, m.isError = r.label+" asks nothing codeman can answer", true
			return nil
		}
		return m.answer(r, n.ID, k.String())
	}
	return nil
}

// move moves the selection by n rows.
func (m *Model) move(n int) {
	if len(m.visible) == 0 {
		return
	}
	m.cursor = max(0, min(m.cursor+n, len(m.visible)-1))
	m.selected = m.visible[m.cursor].st.Pane
}

// filterKey edits the filter, which applies as it is typed: Enter keeps
// it, Esc drops it.
func (m *Model) filterKey(k tea.KeyPressMsg) {
	switch k.String() {
	case "enter":
		m.mode = modeList
	case "esc":
		m.mode, m.filter = modeList, ""
	case "backspace":
		if r := []rune(m.filter); len(r) > 0 {
			m.filter = string(r[:len(r)-1])
		}
	case "ctrl+u":
		m.filter = ""
	default:
		if k.Text != "" && k.Mod&^tea.ModShift == 0 {
			m.filter += k.Text
		}
	}
}

func (m *Model) confirmKey(k tea.KeyPressMsg) tea.Cmd {
	addr := m.confirm
	m.mode, m.confirm = modeList, ""
	r := m.rows[addr]
	if k.String() != "y" || r == nil {
		m.say("detach cancelled")
		return nil
	}
	return m.detach(addr, r.label)
}

func (m *Model) explainKey(k tea.KeyPressMsg) tea.Cmd {
	x := m.explain
	switch k.String() {
	case "q":
		return tea.Quit
	case "esc", "e", "left", "h":
		m.mode, m.explain = modeList, nil
		return nil
	case "up", "k":
		x.offset--
	case "down", "j":
		x.offset++
	case "pgup":
		x.offset -= m.height - 2
	case "pgdown", "space":
		x.offset += m.height - 2
	case "home", "g":
		x.offset = 0
	case "end", "G":
		x.offset = len(m.explainLines())
	case "r":
		return m.readExplain(x.addr)
	}
	x.offset = max(0, min(x.offset, len(m.explainLines())-m.explainHeight()))
	return nil
}
