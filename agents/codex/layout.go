package codex

import (
	"strings"
	"unicode/utf8"
)

// The row prefixes of Codex's screen (0.171.0).
const (
	chevron    = "›"  // U+203A: the composer, prompt echoes, a menu's selected option
	errorMark  = "■ " // a turn that ended on an error, a limit or an interrupt
	bullet     = "• " // transcript items and the status row
	hollow     = "◦ " // the status row's bullet, blinking
	placehold  = "Ask Codex to do anything"
	footerRows = 2 // model row and shortcuts row under the composer
	// statusReach is how many non-blank rows above the composer may hold
	// the status row: "• Reconnecting..." has the error under it.
	statusReach = 3
	// bottomRows is how many non-blank rows at the bottom are read for a
	// status row when there is no composer, as Claude's classifier does
	// with no prompt box.
	bottomRows = 3
)

// layout is a Codex screen cut into its parts.
type layout struct {
	rows     []string // trailing blanks removed
	composer int      // the composer's row, -1 when none is on screen
	inputEnd int      // rows [composer, inputEnd) hold the composer's text
	// body is rows [0, bodyEnd): transcript and status row; everything
	// when there is no composer.
	bodyEnd  int
	lastEcho int // the newest prompt echo in the body, -1 if none
}

func readLayout(lines []string) layout {
	l := layout{rows: make([]string, len(lines)), composer: -1, lastEcho: -1}
	for i, s := range lines {
		l.rows[i] = strings.TrimRight(s, " \t\u00a0")
	}
	l.findComposer()
	l.bodyEnd = len(l.rows)
	if l.composer >= 0 {
		l.bodyEnd = l.composer
	}
	for r := l.bodyEnd - 1; r >= 0; r-- {
		if isChevronRow(l.rows[r]) && !isOption(l.rows[r]) {
			l.lastEcho = r
			break
		}
	}
	return l
}

// findComposer finds the composer: the lowest "› " row that is not a
// menu option, with its text rows under it, then at most footerRows
// non-blank rows. A "› " row higher up is a prompt echo (the composer is
// gone behind a dialog), and a numbered "› 1." row is a dialog's option.
func (l *layout) findComposer() {
	r := len(l.rows) - 1
	for r >= 0 && !isChevronRow(l.rows[r]) {
		r--
	}
	if r < 0 || isOption(l.rows[r]) {
		return
	}
	end := r + 1
	for end < len(l.rows) && l.rows[end] != "" {
		end++
	}
	footer := 0
	for _, row := range l.rows[end:] {
		if row != "" {
			footer++
		}
	}
	if footer > footerRows {
		return
	}
	l.composer, l.inputEnd = r, end
}

// input returns the composer's text, "" when it is empty or shows the
// placeholder.
func (l *layout) input() string {
	if l.composer < 0 {
		return ""
	}
	parts := []string{strings.TrimSpace(strings.TrimPrefix(l.rows[l.composer], chevron))}
	for _, row := range l.rows[l.composer+1 : l.inputEnd] {
		parts = append(parts, strings.TrimSpace(row))
	}
	text := strings.TrimSpace(strings.Join(parts, " "))
	if text == placehold {
		return ""
	}
	return text
}

// footer returns the rows under the composer's text, or nil.
func (l *layout) footer() []string {
	if l.composer < 0 {
		return nil
	}
	return l.rows[l.inputEnd:]
}

// nonBlankAbove returns the indexes of up to n non-blank rows above row
// end, nearest first.
func (l *layout) nonBlankAbove(end, n int) []int {
	var out []int
	for r := end - 1; r >= 0 && len(out) < n; r-- {
		if l.rows[r] != "" {
			out = append(out, r)
		}
	}
	return out
}

// isChevronRow reports a row that starts with "›" and a blank or ends
// there: the composer, a prompt echo or a selected option.
func isChevronRow(row string) bool {
	rest, ok := strings.CutPrefix(row, chevron)
	return ok && (rest == "" || rest[0] == ' ')
}

// isOption reports a menu's selected option: "› 1. Yes, proceed (y)".
func isOption(row string) bool {
	rest, _ := strings.CutPrefix(row, chevron)
	rest = strings.TrimLeft(rest, " ")
	digits := 0
	for digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9' {
		digits++
	}
	return digits > 0 && digits <= 2 && strings.HasPrefix(rest[digits:], ". ")
}

// errorMessage returns the message of a "■ …" row, trimmed.
func errorMessage(row string) (string, bool) {
	// Codex draws its "■" rows flush left; a reply that quotes one is
	// indented under its "• " (or starts with it).
	msg, ok := strings.CutPrefix(strings.TrimRight(row, " \t\u00a0"), errorMark)
	return strings.TrimSpace(msg), ok
}

// maxWrapRows bounds the rows a "■" message is read across: the longest
// Codex prints, the weekly limit's, takes three rows at 80 columns.
const maxWrapRows = 8

// blockMessage returns the message of the "■ …" block that starts at row
// r: Codex wraps the message itself at the pane's width (a usage limit's
// "try again at 1:31 PM." is on a row of its own below about 166
// columns), so its continuation rows are joined to it. A row that ended
// on a "/" was broken inside a URL and is joined without a blank.
func blockMessage(rows []string, r int) (string, bool) {
	msg, ok := errorMessage(rows[r])
	if !ok {
		return "", false
	}
	for _, row := range rows[r+1 : min(len(rows), r+1+maxWrapRows)] {
		if !isContinuation(row) {
			break
		}
		if !strings.HasSuffix(msg, "/") {
			msg += " "
		}
		msg += strings.TrimSpace(row)
	}
	return msg, true
}

// isContinuation reports a wrapped row of a "■" message: flush left like
// the message's own rows, unlike a dialog, the limit warning or the next
// item's rows, and not the start of another item. The blank row between
// transcript items ends a block.
func isContinuation(row string) bool {
	t := strings.TrimRight(row, " \t\u00a0")
	if t == "" || t[0] == ' ' || t[0] == '\t' {
		return false
	}
	for _, p := range []string{errorMark, bullet, hollow, "⚠"} {
		if strings.HasPrefix(t, p) {
			return false
		}
	}
	return !isChevronRow(t) && !isStatusRow(t) && !isCompletion(t)
}

// isStatusRow reports Codex's status row while a turn runs: a bullet,
// then a parenthesis that ends with "esc to interrupt" ("• Working (12s •
// esc to interrupt)", "◦ Reconnecting... 2/5 (4s • esc to interrupt)",
// "• Working (2s • esc to interrupt) · 1 background terminal running").
func isStatusRow(row string) bool {
	t := strings.TrimSpace(row)
	if !strings.HasPrefix(t, bullet) && !strings.HasPrefix(t, hollow) {
		return false
	}
	i := strings.Index(t, "esc to interrupt)")
	return i > 0 && strings.LastIndexByte(t[:i], '(') > 0
}

// isCompletion reports the line a finished turn ends with: "Worked for
// 24s • 18:29", "Worked for <1s • 18:43".
func isCompletion(row string) bool {
	rest, ok := strings.CutPrefix(strings.TrimSpace(row), "Worked for ")
	if !ok || rest == "" {
		return false
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return r == '<' || r >= '0' && r <= '9'
}
