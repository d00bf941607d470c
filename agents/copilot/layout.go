package copilot

import (
	"strings"
	"unicode/utf8"
)

// The marks of Copilot's screen (1.0.102).
const (
	selector  = "❯"  // the prompt box, prompt echoes, a dialog's selected option
	ruleRune  = '─'  // the full-width rules around the prompt box
	border    = "│"  // a dialog's side borders
	failMark  = "✗ " // a failed tool call or turn
	replyMark = "● " // a reply, a notice
	// minRule is the fewest rule runes a row needs to be one of the box's
	// rules: the box spans the pane, and no pane is narrower.
	minRule = 20
)

// layout is a Copilot screen cut into its parts, read from the bottom.
type layout struct {
	rows []string // trailing blanks (and the scrollbar) removed
	last int      // the last non-blank row, -1 on a blank screen
	// footer is the state row under the prompt box; "" when a dialog
	// took its place.
	footer string
	// box, boxEnd: rows [box, boxEnd) hold the prompt box's text; box is
	// -1 when no box is on screen.
	box, boxEnd int
	// bodyEnd: the transcript is rows [0, bodyEnd), everything when there
	// is no box.
	bodyEnd  int
	lastEcho int // the newest prompt echo in the transcript, -1 if none
	// dialog holds the rows of a dialog that replaced box and footer, its
	// borders cut off; nil when there is none.
	dialog []string
}

func readLayout(lines []string) layout {
	l := layout{rows: make([]string, len(lines)), last: -1, box: -1, lastEcho: -1}
	for i, s := range lines {
		l.rows[i] = trimRow(s)
		if l.rows[i] != "" {
			l.last = i
		}
	}
	l.bodyEnd = len(l.rows)
	if l.last < 0 {
		return l
	}
	if !l.findDialog() {
		l.findBox()
	}
	for r := l.bodyEnd - 1; r >= 0; r-- {
		if isEcho(l.rows[r]) {
			l.lastEcho = r
			break
		}
	}
	return l
}

// trimRow drops trailing blanks and the transcript's scrollbar, which
// takes the last column once the transcript outgrows the screen.
func trimRow(s string) string {
	s = strings.TrimRight(s, " \t\u00a0")
	if t, ok := strings.CutSuffix(s, "┃"); ok && strings.HasSuffix(t, "  ") {
		s = strings.TrimRight(t, " \t\u00a0")
	}
	return s
}

// findDialog finds a dialog at the bottom of the screen: a bordered one
// (╭ … ╰: permission prompts, the plan approval, folder trust, rewind), or
// one between two rules (the question). It fills dialog and bodyEnd.
func (l *layout) findDialog() bool {
	bottom := strings.TrimSpace(l.rows[l.last])
	var top int
	switch {
	case strings.HasPrefix(bottom, "╰"):
		top = l.above(l.last, func(row string) bool { return strings.HasPrefix(strings.TrimSpace(row), "╭") })
	case isRule(bottom):
		top = l.above(l.last, isRule)
		if top >= 0 && top+1 < l.last && isBoxRow(l.rows[top+1]) {
			return false // the prompt box, with the footer's row blank
		}
	default:
		return false
	}
	if top < 0 {
		return false
	}
	for _, row := range l.rows[top+1 : l.last] {
		l.dialog = append(l.dialog, cutBorders(row))
	}
	l.bodyEnd = top
	return true
}

// above returns the nearest row above r that is, or -1.
func (l *layout) above(r int, is func(string) bool) int {
	for i := r - 1; i >= 0; i-- {
		if is(l.rows[i]) {
			return i
		}
	}
	return -1
}

// findBox finds the prompt box: the rows between the two rules right above
// the footer, the top one starting with the selector.
func (l *layout) findBox() {
	r := l.last - 1
	for r >= 0 && l.rows[r] == "" {
		r--
	}
	if r < 0 || !isRule(l.rows[r]) {
		return
	}
	bottomRule := r
	top := l.above(bottomRule, isRule)
	if top < 0 || top+1 >= bottomRule || !isBoxRow(l.rows[top+1]) {
		return
	}
	footer := strings.TrimSpace(l.rows[l.last])
	if !isFooter(footer) {
		return
	}
	l.footer = footer
	l.box, l.boxEnd, l.bodyEnd = top+1, bottomRule, top
}

// isFooter reports a row Copilot draws under its prompt box: the idle
// one ("← open sidebar · Interactive · Manual Approval · …"), the one
// while the box holds text ("Interactive · Manual Approval · @ files ·
// …"), a working one, or a key's hint ("esc again to rewind", "ctrl+c
// again to exit"). A box over any other row is not Copilot's: another
// agent draws a box between rules too.
func isFooter(row string) bool {
	if isWorkingRow(row) || strings.HasPrefix(row, "← open sidebar · ") {
		return true
	}
	if _, hint, ok := strings.Cut(row, " again to "); ok && hint != "" {
		return strings.HasPrefix(row, "esc ") || strings.HasPrefix(row, "ctrl+c ")
	}
	_, rest, _ := strings.Cut(row, " · ")
	return footerMode(row) != "" && (strings.HasPrefix(rest, "Manual Approval") || strings.HasPrefix(rest, "Allow All"))
}

// input returns the prompt box's text, "" when it is empty. A slash
// command's argument hint ("/clear [prompt]") is drawn in the box but is
// no text of it.
func (l *layout) input() string {
	if l.box < 0 {
		return ""
	}
	parts := make([]string, 0, l.boxEnd-l.box)
	parts = append(parts, strings.TrimSpace(strings.TrimPrefix(l.rows[l.box], selector)))
	for _, row := range l.rows[l.box+1 : l.boxEnd] {
		parts = append(parts, strings.TrimSpace(row))
	}
	return dropArgumentHint(strings.TrimSpace(strings.Join(parts, " ")))
}

// dropArgumentHint cuts the hint Copilot draws after a lone slash
// command: "/new [worktree|<prompt>]" is "/new".
func dropArgumentHint(text string) string {
	cmd, hint, ok := strings.Cut(text, " ")
	if !ok || !strings.HasPrefix(cmd, "/") || !strings.HasPrefix(hint, "[") || !strings.HasSuffix(hint, "]") {
		return text
	}
	return cmd
}

// isRule reports a row of rule runes only, as wide as a pane.
func isRule(row string) bool {
	t := strings.TrimSpace(row)
	if utf8.RuneCountInString(t) < minRule {
		return false
	}
	for _, r := range t {
		if r != ruleRune {
			return false
		}
	}
	return true
}

// isBoxRow reports the prompt box's first row: the selector at the left
// edge, alone or before the text.
func isBoxRow(row string) bool {
	return row == selector || strings.HasPrefix(row, selector+" ")
}

// isEcho reports a prompt echoed in the transcript: " ❯ <prompt>", one
// column in from the box's selector.
func isEcho(row string) bool { return strings.HasPrefix(row, " "+selector+" ") }

// cutBorders cuts a dialog row's side borders: "│ text │" is "text".
// A row without borders keeps its indentation, which tells a question's
// options from its labels.
func cutBorders(row string) string {
	rest, ok := strings.CutPrefix(strings.TrimLeft(row, " "), border)
	if !ok {
		return row
	}
	return strings.TrimRight(strings.TrimSuffix(strings.TrimRight(rest, " "), border), " ")
}
