package simclaude

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// renderCodex lays the model out as Codex 0.171.0 draws it: the header,
// the transcript (or the logo on a fresh start screen), and pinned to the
// bottom the status row, the composer and two footer rows. The approval
// prompt replaces the composer and the footer.
func (m *model) renderCodex(now time.Time, width, height int) []string {
	top := m.codexTopRows(width)
	bottom := m.codexBottomRows(now, width)
	if m.dialog != nil {
		bottom = m.approvalRows()
	} else if len(m.items) == 0 {
		top = append(top, m.logoRows(width, height-len(top)-len(bottom)+3)...)
	}
	if len(top)+len(bottom) > height {
		top = top[max(len(top)-(height-len(bottom)), 0):]
	}
	rows := append(top, make([]string, max(height-len(top)-len(bottom), 0))...)
	return fitBottom(append(rows, bottom...), height)
}

// codexTopRows are the header and the transcript, each cell after a blank row.
func (m *model) codexTopRows(width int) []string {
	rows := []string{
		"",
		"  " + fg(codexColorAccent, ">_ ") + bold("OpenAI Codex") + dim(" (v"+codexVersion+")"),
		"     " + dim(m.displayDir()),
	}
	for _, it := range m.items {
		rows = append(rows, "")
		rows = append(rows, it.rows(width)...)
	}
	return rows
}

// logoRows centre the logo in the area rows high between the header
// and the composer.
func (m *model) logoRows(width, area int) []string {
	w := 0
	for _, l := range codexLogo {
		w = max(w, ansi.StringWidth(l))
	}
	if w > width || len(codexLogo) > area {
		return nil
	}
	rows := make([]string, (area-len(codexLogo))/2)
	indent := strings.Repeat(" ", (width-w+1)/2)
	for _, l := range codexLogo {
		rows = append(rows, indent+dim(l))
	}
	return rows
}

// codexBottomRows are the status row, the limit row, the composer and
// its footer (or the slash popup in the footer's place).
func (m *model) codexBottomRows(now time.Time, width int) []string {
	status := ""
	if m.spinnerVisible() {
		status = m.codexStatusRow(now)
	}
	rows := []string{status, m.codexLimitRow(now, width), ""}
	rows = append(rows, m.composerRows(width)...)
	rows = append(rows, "")
	if matches := slashMatches(codexSlashCommands, string(m.input)); len(matches) > 0 {
		for i, c := range matches {
			row := fmt.Sprintf("  %-12s%s", c.name, dim(c.description))
			if i == 0 {
				row = fg(codexColorAccent, row)
			}
			rows = append(rows, row)
		}
		return rows
	}
	model := "  " + fg(codexColorModel, codexModelLabel) + " · " + fg(codexColorDir, m.displayDir())
	if title := m.taskTitle(now); title != "" {
		model += " · " + title
	}
	return append(rows, model, "  "+bold("←")+" for agents · "+bold("?")+" for shortcuts")
}

// codexStatusRow is "• Working (12s • esc to interrupt)", the bullet
// blinking.
func (m *model) codexStatusRow(now time.Time) string {
	elapsed := now.Sub(m.turn.started)
	mark := "•"
	if int(elapsed/(600*time.Millisecond))%2 == 1 {
		mark = "◦"
	}
	return mark + " " + dim("Working") + " " + dim("("+codexStatusSeconds(elapsed)+" • ") + bold("esc") + dim(" to interrupt)")
}

// composerRows are "› " with the placeholder, or the draft wrapped under it.
func (m *model) composerRows(width int) []string {
	if len(m.input) == 0 {
		return []string{bold("›") + " " + dim(codexPlaceholder)}
	}
	var rows []string
	for i, l := range strings.Split(string(m.input), "\n") {
		for j, w := range strings.Split(ansi.Hardwrap(l, max(width-2, 8), true), "\n") {
			lead := "  "
			if i == 0 && j == 0 {
				lead = bold("›") + " "
			}
			rows = append(rows, lead+w)
		}
	}
	return rows
}

// approvalRows are the approval prompt of the approval recording.
func (m *model) approvalRows() []string {
	options := []string{
		"1. Yes, proceed (" + bold("y") + ")",
		"2. Yes, and don't ask again for commands that start with `" + codexRiskyCommand + "` (" + bold("p") + ")",
		"3. No, and tell Codex what to do differently (" + bold("esc") + ")",
	}
	rows := []string{
		"  " + bold("Would you like to run the following command?"),
		"",
		"  Environment: " + bold("local"),
		"",
		"  Reason: " + "\x1b[3m" + codexRiskyReason + "\x1b[23m",
		"",
		"  $ " + codexRiskyCommand,
		"",
		"",
	}
	for i, o := range options {
		if i == m.dialog.cursor {
			rows = append(rows, reverse(bold("› "+o)))
			continue
		}
		rows = append(rows, "  "+o)
	}
	return append(rows, "", "  "+dim("Press ")+bold("enter")+dim(" to confirm or ")+bold("esc")+dim(" to cancel"))
}
