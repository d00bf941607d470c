package simclaude

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// item is one transcript entry; on screen a blank row precedes it.
type item struct {
	lines []line
}

// line is one logical transcript line.
type line struct {
	lead    string // styled prefix; wrapped rows indent by its width
	cont    string // the prefix of wrapped rows instead, when set
	body    string // plain text, wrapped at the screen width
	color   int    // body foreground, 0 for the default
	bgColor int    // background behind lead and body (prompt echo)
	raw     string // a pre-styled row, cut at the width instead of wrapped
	right   string // drawn at the right edge of the first row (Copilot's times)
}

func text(lead string, color int, body string) line {
	return line{lead: lead, color: color, body: body}
}

func raw(s string) line { return line{raw: s} }

// rows renders the line at width.
func (l line) rows(width int) []string {
	if l.right != "" {
		return l.withRight(width)
	}
	if l.raw != "" || (l.lead == "" && l.body == "") {
		return []string{l.raw}
	}
	leadWidth := ansi.StringWidth(l.lead)
	wrapped := strings.Split(ansi.Wrap(l.body, max(width-leadWidth, 8), ""), "\n")
	indent := strings.Repeat(" ", leadWidth)
	if l.cont != "" {
		indent = l.cont
	}
	out := make([]string, len(wrapped))
	for i, w := range wrapped {
		lead := indent
		if i == 0 {
			lead = l.lead
		}
		if l.color != 0 && w != "" {
			w = fg(l.color, w)
		}
		row := lead + w
		if l.bgColor != 0 {
			row = bg(l.bgColor, row)
		}
		out[i] = row
	}
	return out
}

// withRight renders the line with right at the right edge of its first
// row, the text wrapped short of it.
func (l line) withRight(width int) []string {
	rw := ansi.StringWidth(l.right) + 1
	rest := l
	rest.right = ""
	rows := rest.rows(max(width-rw, 8))
	gap := width - ansi.StringWidth(rows[0]) - ansi.StringWidth(l.right)
	rows[0] += strings.Repeat(" ", max(gap, 1)) + l.right
	return rows
}

func (it item) rows(width int) []string {
	var out []string
	for _, l := range it.lines {
		out = append(out, l.rows(width)...)
	}
	return out
}

// promptEcho is a submitted prompt in the transcript: "❯ " with a normal
// space, on a grey background.
func promptEcho(prompt string) item {
	var it item
	for i, s := range strings.Split(prompt, "\n") {
		lead := "  "
		if i == 0 {
			lead = "❯ "
		}
		it.lines = append(it.lines, line{lead: lead, body: s, color: colorText, bgColor: colorPromptBg})
	}
	return it
}

// assistantLine starts an assistant message: "● text".
func assistantLine(s string) line { return text(fg(colorText, "●")+" ", 0, s) }

// errorLine is an API error message: bullet and text in yellow.
func errorLine(s string) line { return text(fg(colorError, "●")+" ", colorError, s) }

// noticeLine is a dim assistant line such as the usage-limit notice.
func noticeLine(s string) line { return text(fg(colorDim, "●")+" ", colorDim, s) }

// resultLine is a "  ⎿  result" line under a call or prompt.
func resultLine(color int, s string) line {
	return text(fg(colorDim, "  "+resultMark), color, s)
}

// toolHeader is a finished tool call: "● Write(CLAUDE.md)".
func toolHeader(name, arg string) line {
	return raw(fg(colorToolOK, "●") + " " + bold(name) + "(" + arg + ")")
}

// collapsedTool is a read-only call folded into one line: "  Ran 1 shell command".
func collapsedTool(verb, count, noun string) line {
	return raw("  " + fg(colorDim, verb+" ") + bold(count) + fg(colorDim, " "+noun))
}

// completionItem is "✻ Brewed for 3s · done 6:47 PM".
func completionItem(verb string, took time.Duration, now time.Time) item {
	s := fmt.Sprintf("%s for %s · done %s", verb, FormatDuration(took), now.Format("3:04 PM"))
	return item{lines: []line{raw(fg(colorDim, "✻") + " " + fg(colorDim, s))}}
}

// FormatDuration writes 0s, 41s, 1m 11s, 1h 2m 3s like Claude's timers.
func FormatDuration(d time.Duration) string {
	s := int(d / time.Second)
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%dm %ds", s/60, s%60)
	}
	return fmt.Sprintf("%dh %dm %ds", s/3600, s/60%60, s%60)
}

// FormatTokens writes 49 or 1.2k.
func FormatTokens(n int) string {
	if n < 1000 {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%.1fk", float64(n)/1000)
}
