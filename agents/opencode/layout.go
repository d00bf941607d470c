package opencode

import (
	"strings"
	"unicode/utf8"
)

// The marks of OpenCode's screen (1.18.33).
const (
	bar         = "┃"  // the composer's rows, prompt echoes, tool and error blocks
	edge        = "╹▀" // the composer's lower edge
	turnFooter  = "▣  "
	placeholder = "Ask anything…"
	// gap is the run of spaces that parts a row's own text from the
	// sidebar's beside it (the title, "Context", "LSP").
	gap = "     "
)

// layout is an OpenCode screen cut into its parts, read from the bottom.
type layout struct {
	rows []string // trailing blanks removed
	last int      // the last non-blank row, -1 on a blank screen
	// composer is the composer's agent row ("┃  Build · …"), -1 when no
	// composer is on screen; rows [input, composer) hold its text.
	composer, input int
	// state is the row under the composer's edge that says what OpenCode
	// does ("⬝⬝■■■■⬝⬝  esc interrupt", the idle row); "" when none.
	state string
	// bodyEnd: the transcript is rows [0, bodyEnd).
	bodyEnd int
	// footer is the newest turn footer in the transcript, -1 if none.
	footer int
}

func readLayout(lines []string) layout {
	l := layout{rows: make([]string, len(lines)), last: -1, composer: -1, footer: -1}
	for i, s := range lines {
		l.rows[i] = strings.TrimRight(s, " \t\u00a0")
		if l.rows[i] != "" {
			l.last = i
		}
	}
	l.bodyEnd = len(l.rows)
	l.findComposer()
	for r := l.bodyEnd - 1; r >= 0; r-- {
		if strings.HasPrefix(strings.TrimSpace(l.rows[r]), turnFooter) {
			l.footer = r
			break
		}
	}
	return l
}

// findComposer finds the lowest lower edge with the agent row over it,
// then the composer's rows over that: the "┃" rows in the same column,
// up to a blank row or a slash-command popup's row ("┃ /new  New
// session  ┃", closed on the right).
func (l *layout) findComposer() {
	for r := l.last; r > 0; r-- {
		if !strings.HasPrefix(strings.TrimSpace(l.rows[r]), edge) {
			continue
		}
		agent := r - 1
		col, text, ok := barRow(l.rows[agent])
		if !ok || !isAgentRow(text) {
			return
		}
		top := agent
		for top > 0 {
			c, t, ok := barRow(l.rows[top-1])
			if !ok || c != col || t != "" && strings.HasSuffix(l.rows[top-1], bar) {
				break
			}
			top--
		}
		l.composer, l.input, l.bodyEnd = agent, top, top
		for _, row := range l.rows[r+1:] {
			if t := strings.TrimSpace(row); t != "" {
				l.state = t
				break
			}
		}
		return
	}
}

// barRow cuts a row that starts with "┃" after its indentation: the bar's
// column and the text after it, trimmed, without the sidebar's text.
func barRow(row string) (col int, text string, ok bool) {
	t := strings.TrimLeft(row, " ")
	rest, ok := strings.CutPrefix(t, bar)
	if !ok {
		return 0, "", false
	}
	text = strings.TrimLeft(rest, " ")
	switch i := strings.Index(text, gap); {
	case len(rest)-len(text) >= len(gap):
		text = "" // only the sidebar's text beside an empty row
	case i >= 0:
		text = text[:i]
	}
	return len(row) - len(t), strings.TrimSpace(text), true
}

// isAgentRow reports the composer's agent row: "Build · Claude Sonnet 4.5
// (latest) Anthropic".
func isAgentRow(text string) bool {
	name, model, ok := strings.Cut(text, " · ")
	return ok && name != "" && !strings.Contains(name, " ") && model != ""
}

// text returns the composer's text, "" when it is empty or shows the
// placeholder.
func (l *layout) text() string {
	if l.composer < 0 {
		return ""
	}
	var parts []string
	for _, row := range l.rows[l.input:l.composer] {
		if _, t, _ := barRow(row); t != "" {
			parts = append(parts, t)
		}
	}
	text := strings.Join(parts, " ")
	if strings.HasPrefix(text, placeholder) {
		return ""
	}
	return text
}

// isWorkingRow reports the state row of a turn under way: an 8-cell bar
// of ⬝ and ■, then "esc interrupt" (or, while an API error is retried,
// the error and "[retrying in 9s attempt #3]").
func isWorkingRow(row string) bool {
	cells, _, _ := strings.Cut(row, " ")
	if utf8.RuneCountInString(cells) != 8 {
		return false
	}
	for _, r := range cells {
		if r != '⬝' && r != '■' {
			return false
		}
	}
	return true
}
