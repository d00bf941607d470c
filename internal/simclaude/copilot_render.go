package simclaude

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// Colours of the Copilot look: the terminal's own sixteen.
const (
	copilotBlue   = 4
	copilotRed    = 1
	copilotGreen  = 2
	copilotYellow = 3
	copilotCyan   = 6
	copilotGrey   = 8
	copilotBright = 12 // the moving letter of "Working"
	copilotWhite  = 15
)

// renderCopilot lays the model out as Copilot 1.0.102 draws it: the tab
// bar, the transcript, and pinned to the bottom the working directory,
// the prompt box between two rules and the state row. A dialog takes the
// place of all four. A transcript taller than its room shows its end with
// a scrollbar in the last column.
func (m *model) renderCopilot(now time.Time, width, height int) []string {
	var bottom []string
	if m.dialog != nil {
		bottom = append([]string{""}, m.copilotDialogRows(width)...)
	} else {
		if p, ok := copilotPopups[string(m.input)]; ok {
			// The popup takes five rows above the directory, after a blank one.
			popup := make([]string, 6)
			copy(popup[1:], p.rows)
			bottom = popup
		}
		bottom = append(bottom, " "+m.cfg.Cwd, dim(rule("─", width)))
		bottom = append(bottom, m.copilotBoxRows()...)
		bottom = append(bottom, dim(rule("─", width)), m.copilotStateRow(now, width))
	}
	// Two columns stay free at the right: a margin and the scrollbar's.
	content := m.copilotTranscript(max(width-2, 8))
	if room := max(height-2-len(bottom), 0); len(content) > room {
		content = content[len(content)-room:]
		for i, r := range content {
			content[i] = r + strings.Repeat(" ", max(width-1-ansi.StringWidth(r), 0)) + "┃"
		}
	}
	rows := append([]string{copilotTabRow(), ""}, content...)
	rows = append(rows, make([]string, max(height-len(rows)-len(bottom), 0))...)
	return fitBottom(append(rows, bottom...), height)
}

func copilotTabRow() string {
	return " " + bold(fg(copilotWhite, bg(copilotBlue, "[Current]"))) + "  Sessions  " + dim(" Issues ") + " " + dim(" Pull requests ") + "  Gists"
}

// copilotTranscript is the items, a blank row between two, the queued
// prompts right under the last one.
func (m *model) copilotTranscript(width int) []string {
	var rows []string
	for i, it := range m.items {
		if i > 0 {
			rows = append(rows, "")
		}
		rows = append(rows, it.rows(width)...)
	}
	for _, q := range m.queue {
		if !q.hidden {
			rows = append(rows, copilotEcho(q.text, q.at).rows(width)...)
			rows = append(rows, "   └ [pending · "+bold("↑")+" recall]")
		}
	}
	return append(rows, "")
}

// copilotBoxRows are the prompt box's lines: "❯ " and the text, the
// argument hint of a recorded command after it.
func (m *model) copilotBoxRows() []string {
	if len(m.input) == 0 {
		return []string{"❯"}
	}
	if p, ok := copilotPopups[string(m.input)]; ok {
		return []string{"❯ " + string(m.input) + dim(strings.TrimPrefix(p.hint, string(m.input)))}
	}
	var rows []string
	for i, l := range strings.Split(string(m.input), "\n") {
		lead := "  "
		if i == 0 {
			lead = "❯ "
		}
		rows = append(rows, lead+l)
	}
	return rows
}

// copilotStateRow is the last row, which says the state: the idle
// footer, the hints of a box with text, or the working row; the model at
// the right, one column in.
func (m *model) copilotStateRow(now time.Time, width int) string {
	mode := copilotModes[m.cp.mode]
	var left string
	switch {
	case now.Before(m.ctrlCUntil):
		left = bold("ctrl+c") + " again to exit"
	case m.busy():
		left = m.copilotWorkingRow(now)
	case len(m.input) > 0:
		left = mode + " · Manual Approval · " + bold("@") + " files · " + bold("#") + " issues"
		if p, ok := copilotPopups[string(m.input)]; ok && p.help {
			left = mode + " · Manual Approval · " + bold("/help") + " show help"
		}
	default:
		help := bold("?") + " help · "
		if m.cp.mode == copilotAutopilot {
			help = ""
		}
		left = bold("←") + " open sidebar · " + mode + " · Manual Approval · " + bold("/") + " commands · " + help + bold("tab") + " next tab"
	}
	gap := width - 2 - ansi.StringWidth(left) - len(copilotModel)
	return " " + left + strings.Repeat(" ", max(gap, 1)) + copilotModel
}

// copilotWorkingRow is "◎ Working · 30 B esc esc interrupt": the glyph
// cycling, the bytes streamed once there are any, and what two Escs do.
func (m *model) copilotWorkingRow(now time.Time) string {
	frame := int(now.Sub(m.turn.started) / copilotGlyphFrame)
	word := fg(copilotBright, "W") + fg(copilotBlue, "orking")
	row := fg(copilotBlue, copilotGlyphs[frame%len(copilotGlyphs)]) + " " + word
	if m.cp.bytes > 0 {
		row += " · " + strconv.Itoa(m.cp.bytes) + " B"
	}
	// Before any output two Escs take the prompt back into an empty box.
	action := "interrupt"
	if !m.cp.output && len(m.input) == 0 && !m.hasVisibleQueue() {
		action = "edit prompt"
	}
	if m.cp.escArmed(now) {
		row += " " + bold("esc") + " again to " + action
	} else {
		row += " " + bold("esc esc") + " " + action
	}
	if len(m.input) > 0 {
		row += " · " + bold("ctrl+q") + " enqueue"
	}
	return row
}

// copilotBoxed draws body in the rounded box of Copilot's dialogs.
func copilotBoxed(width int, body []string) []string {
	inner := max(width-4, 1)
	rows := []string{fg(copilotGrey, "╭"+rule("─", width-2)+"╮")}
	for _, r := range body {
		pad := strings.Repeat(" ", max(inner-ansi.StringWidth(r), 0))
		rows = append(rows, fg(copilotGrey, "│")+" "+r+pad+" "+fg(copilotGrey, "│"))
	}
	return append(rows, fg(copilotGrey, "╰"+rule("─", width-2)+"╯"))
}

// copilotDialogRows draws the open dialog in place of the box.
func (m *model) copilotDialogRows(width int) []string {
	d := m.dialog
	inner := max(width-4, 1)
	keys := bold("↑/↓") + " to navigate · " + bold("enter") + " to select · " + bold("esc") + " to cancel"
	switch d.kind {
	case dialogQuestion:
		return m.copilotQuestionRows(width)
	case dialogPlan:
		body := []string{bold("Plan Ready for Review"), fg(copilotGrey, rule("─", inner))}
		for _, l := range strings.Split(copilotPlanSummary, "\n") {
			body = append(body, " "+l)
		}
		body = append(body, "")
		for i, o := range copilotPlanOptions {
			row := strconv.Itoa(i+1) + ". " + o
			if i == d.cursor {
				body = append(body, fg(copilotCyan, "❯ "+row))
				continue
			}
			body = append(body, "  "+row)
		}
		return copilotBoxed(width, append(body, "", keys))
	}
	var body []string
	if m.turn.tool.name == copilotToolPatch {
		path := m.cfg.Cwd + "/" + copilotInstructions
		body = []string{
			bold("Create file"), fg(copilotGrey, rule("─", inner)),
			"copilot-instructions.md " + fg(copilotGreen, "+"+strconv.Itoa(len(copilotInstructionLines))) + " " + fg(copilotRed, "-0"),
			m.cfg.Cwd + "/.github", "",
		}
		for i, l := range copilotInstructionLines {
			body = append(body, fg(copilotGreen, strconv.Itoa(i+1)+" + ")+nbsp+nbsp+l)
		}
		body = append(body, "", "Do you want to create "+path+"?", "")
	} else {
		cmd := copilotRiskyCommand
		body = []string{
			bold(copilotRiskyDesc), fg(copilotGrey, rule("─", inner)),
			fg(copilotGrey, "╭"+rule("─", inner-2)+"╮"),
			fg(copilotGrey, "│") + " " + cmd + strings.Repeat(" ", max(inner-4-ansi.StringWidth(cmd), 0)) + " " + fg(copilotGrey, "│"),
			fg(copilotGrey, "╰"+rule("─", inner-2)+"╯"),
			"", "Do you want to run this command?", "",
		}
	}
	for i, o := range m.copilotPermissionOptions() {
		row := strconv.Itoa(i+1) + ". " + o
		if i == d.cursor {
			pad := strings.Repeat(" ", max(inner-2-ansi.StringWidth(row), 0))
			body = append(body, bg(copilotBlue, fg(copilotWhite, "❯")+" "+fg(copilotWhite, row)+pad))
			continue
		}
		body = append(body, "  "+row)
	}
	return copilotBoxed(width, append(body, "", keys))
}

// copilotPermissionOptions are the prompt's options; the last one shows
// the feedback typed into it.
func (m *model) copilotPermissionOptions() []string {
	remember := "Yes, and don't ask again for `" + copilotRiskyVerb + "` in this directory (" + m.cfg.Cwd + ")"
	if m.turn.tool.name == copilotToolPatch {
		remember = "Yes, and don't ask again for file operations when in this directory (" + m.cfg.Cwd + ")"
	}
	last := "No, and tell Copilot what to do differently (Esc to stop)"
	if len(m.dialog.text) > 0 {
		last = string(m.dialog.text) + " (Esc to stop)"
	}
	return []string{"Yes", remember, last}
}

// copilotQuestionRows are the ask_user form of the question recording,
// between two rules.
func (m *model) copilotQuestionRows(width int) []string {
	rows := []string{
		rule("─", width),
		" " + bold("Copilot needs information."),
		" " + copilotQuestion,
		"",
		" " + bold("Database:"),
	}
	labels := []string{copilotQuestionOptions[0].label, copilotQuestionOptions[1].label, "Other (type your answer)"}
	for i, l := range labels {
		if i == m.dialog.cursor {
			rows = append(rows, " "+bold(fg(copilotCyan, "❯ "+l)))
			continue
		}
		rows = append(rows, "   "+l)
	}
	keys := bold("↑/↓") + " select · " + bold("enter") + " accept · " + bold("ctrl+d") + " decline · " + bold("esc") + " cancel"
	return append(rows, "", " "+keys, rule("─", width))
}
