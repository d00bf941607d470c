package simclaude

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// render lays the model out on a width x height screen, one styled string
// per row. Like the real alternate-screen TUI, the transcript runs from the
// top and the prompt box is pinned to the bottom; when they do not fit, the
// top of the transcript scrolls away. A dialog replaces the prompt box and
// follows the transcript.
func (m *model) render(now time.Time, width, height int) []string {
	switch {
	case m.codex():
		return m.renderCodex(now, width, height)
	case m.copilot():
		return m.renderCopilot(now, width, height)
	case m.opencode():
		return m.renderOpenCode(now, width, height)
	}
	top := m.topRows(width)
	if m.dialog != nil {
		return fitBottom(append(top, m.dialogRows(width, height)...), height)
	}
	bottom := m.bottomRows(now, width)
	if len(top)+len(bottom) > height {
		top = top[max(len(top)-(height-len(bottom)), 0):]
	}
	rows := append(top, make([]string, max(height-len(top)-len(bottom), 0))...)
	return fitBottom(append(rows, bottom...), height)
}

// fitBottom keeps the last height rows, padding with blank rows below.
func fitBottom(rows []string, height int) []string {
	if len(rows) > height {
		return rows[len(rows)-height:]
	}
	return append(rows, make([]string, height-len(rows))...)
}

// topRows are the header and the transcript, each item after a blank row.
func (m *model) topRows(width int) []string {
	rows := append([]string{""}, headerRows(m.cfg.Cwd)...)
	rows = append(rows, "")
	for _, it := range m.items {
		rows = append(rows, "")
		rows = append(rows, it.rows(width)...)
	}
	for _, q := range m.queue {
		if q.hidden {
			continue
		}
		rows = append(rows, "", fg(colorDim, "❯ "+q.text), fg(colorDim, "  "+queuedLine))
	}
	return rows
}

// headerRows is the logo block at the top of the screen.
func headerRows(cwd string) []string {
	return []string{
		fg(colorLogo, " ▐"+bg(colorLogoBg, "▛███▛█")) + "   " + bold("Claude Code") + " " + fg(colorDim, "v"+claudeVersion),
		fg(colorLogo, "▝▜"+bg(colorLogoBg, "█████")+"█▀") + "  " + fg(colorDim, modelLabel),
		fg(colorLogo, " ▝▝   ▝▝ ") + "  " + fg(colorDim, cwd),
	}
}

// bottomRows are the spinner, notice row, prompt box and footer.
func (m *model) bottomRows(now time.Time, width int) []string {
	rows := []string{""}
	if m.spinnerVisible() {
		rows = append(rows, m.spinnerRow(now), fg(colorDim, "  "+resultMark+"Tip: "+m.turn.tip))
	}
	rows = append(rows, m.noticeRows(now, width)...)
	border := fg(colorBorder, rule("─", width))
	rows = append(rows, border)
	rows = append(rows, m.inputRows(width)...)
	rows = append(rows, border)
	rows = append(rows, m.limitRows()...)
	rows = append(rows, m.footerRow(now))
	return append(rows, m.agentRows(now, width)...)
}

// spinnerVisible: the spinner row shows while a turn works, but not while
// reply text streams and not while a dialog waits.
func (m *model) spinnerVisible() bool {
	return m.busy() && !m.turn.streaming
}

// spinnerRow is "✢ Sublimating… (3s · ↓ 40 tokens)".
func (m *model) spinnerRow(now time.Time) string {
	elapsed := now.Sub(m.turn.started)
	frame := int(elapsed / spinnerFrame)
	glyph := spinnerGlyphs[frame%len(spinnerGlyphs)]
	tokens := 2 + int(elapsed/(80*time.Millisecond))
	suffix := fmt.Sprintf("(%s · ↓ %s tokens)", FormatDuration(elapsed), FormatTokens(tokens))
	return fg(colorLogo, glyph) + " " + shimmer(m.turn.verb+"…", frame) + " " + fg(colorDim, suffix)
}

// shimmer colours the verb with a bright three-letter window that moves one
// letter per frame, as the real spinner does.
func shimmer(s string, frame int) string {
	r := []rune(s)
	span := len(r) + 6
	pos := frame%span - 3
	var b strings.Builder
	for i, c := range r {
		color := colorLogo
		if i >= pos && i < pos+3 {
			color = colorShimmer
		}
		b.WriteString(fg(color, string(c)))
	}
	return b.String()
}

// noticeRows sit above the prompt box: the slash menu, or one right-aligned
// notice, or a blank row.
func (m *model) noticeRows(now time.Time, width int) []string {
	if menu := slashMenuRows(slashMatches(slashCommands, string(m.input))); len(menu) > 0 {
		return menu
	}
	switch {
	case m.limitCancelled:
		return []string{rightAlign("", fg(colorDim, "Automatic continue cancelled · /rate-limit-options to re-arm"), width)}
	case now.Before(m.noticeUntil), m.limit != nil && m.limit.auto:
		return []string{rightAlign("", fg(colorDim, effortNotice), width)}
	}
	return []string{""}
}

// slashMenuRows list matching commands; the first is highlighted.
func slashMenuRows(matches []slashCommand) []string {
	var rows []string
	for i, c := range matches {
		name := fmt.Sprintf("%-28s", c.name)
		if i == 0 {
			rows = append(rows, "  "+fg(colorAccent, "❯ /"+bold(strings.TrimPrefix(c.name, "/"))+name[len(c.name):]+c.description))
			continue
		}
		rows = append(rows, "    "+name+fg(colorDim, c.description))
	}
	return rows
}

// inputRows are the lines inside the prompt box: "❯" + U+00A0, the input,
// and a reverse-video block where the cursor is.
func (m *model) inputRows(width int) []string {
	if len(m.input) == 0 {
		switch {
		case m.hasVisibleQueue():
			return []string{inputMark + placeholder(placeholderQueued)}
		case m.resend:
			return []string{inputMark + placeholder(placeholderResend)}
		}
		return []string{inputMark + reverse(" ")}
	}
	var rows []string
	for i, l := range strings.Split(string(m.input), "\n") {
		for j, w := range strings.Split(ansi.Hardwrap(l, max(width-3, 8), true), "\n") {
			lead := "  "
			if i == 0 && j == 0 {
				lead = inputMark
			}
			rows = append(rows, lead+w)
		}
	}
	rows[len(rows)-1] += reverse(" ")
	return rows
}

// placeholder is dim text whose first letter carries the cursor.
func placeholder(s string) string {
	r := []rune(s)
	return reverse(string(r[0])) + dim(string(r[1:]))
}

func (m *model) hasVisibleQueue() bool {
	for _, q := range m.queue {
		if !q.hidden {
			return true
		}
	}
	return false
}

// footerRow is the line under the prompt box.
func (m *model) footerRow(now time.Time) string {
	if now.Before(m.ctrlCUntil) {
		return "  " + fg(colorDim, ctrlCAgain)
	}
	suffix := ""
	switch {
	case m.busy():
		suffix = " · esc to interrupt"
	case len(m.input) > 0:
	case m.mode != modeManual:
	case m.agent != nil:
		suffix = " · ? for shortcuts · ← for agents · ↓ to manage"
	case m.agentsRan:
		suffix = " · /tasks to see subagents"
	default:
		suffix = " · ? for shortcuts"
	}
	switch m.mode {
	case modeAcceptEdits:
		return "  " + fg(colorAcceptOn, "⏵⏵ accept edits on") + fg(colorDim, " (shift+tab to cycle)"+suffix)
	case modePlan:
		return "  " + fg(colorPlanModeF, "⏸ plan mode on") + fg(colorDim, " (shift+tab to cycle)"+suffix)
	case modeAuto:
		return "  " + fg(colorError, "⏵⏵ auto mode on") + fg(colorDim, " (shift+tab to cycle)"+suffix)
	}
	return "  " + fg(colorDim, "⏸ manual mode on"+suffix)
}

// rightAlign puts right at the right edge, two columns in, after left.
func rightAlign(left, right string, width int) string {
	gap := width - 2 - ansi.StringWidth(left) - ansi.StringWidth(right)
	return left + strings.Repeat(" ", max(gap, 1)) + right
}
