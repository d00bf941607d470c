package simclaude

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// Colours of the OpenCode look (xterm-256, from the recordings' .ansi).
const (
	opencodeBlue   = 75  // the bars, the turn footer's mark, the agent
	opencodeText   = 255 // prompt and reply text
	opencodeDim    = 8   // hints, the model in the footer, the sidebar
	opencodeOrange = 215 // the permission prompt
	opencodeFaint  = 236 // the bar's empty cells
	opencodeGreen  = 114 // the sidebar's version mark
	opencodeOn     = 232 // the highlighted choice's text
)

// opencodeGeom is where the parts of the screen sit at one width: the
// sidebar of 40 columns at the right once a session has messages (at
// 120 columns and more), the main column left of it.
type opencodeGeom struct {
	width   int
	mainEnd int // the main column is [0, mainEnd)
	sideCol int // the sidebar's column, 0 without one
}

func opencodeGeometry(width int) opencodeGeom {
	if width < 120 {
		return opencodeGeom{width: width, mainEnd: width}
	}
	return opencodeGeom{width: width, mainEnd: width - 44, sideCol: width - 40}
}

// barLead is a "┃" row's start: the bar in column 2, two spaces.
func opencodeBarLead(color int) string { return "  " + fg(color, "┃") + "  " }

// opencodeBlock is a "┃" block of the transcript: the prompt's echo, a
// tool's call and output, an error, each between two bare "┃" rows.
func opencodeBlock(color int, lines ...string) item {
	bare := raw("  " + fg(color, "┃"))
	it := item{lines: []line{bare}}
	for _, l := range lines {
		if l == "" {
			it.lines = append(it.lines, bare)
			continue
		}
		lead := opencodeBarLead(color)
		it.lines = append(it.lines, line{lead: lead, cont: lead, body: l})
	}
	it.lines = append(it.lines, bare)
	return it
}

// opencodeEcho is a submitted prompt: its paragraphs in a "┃" block.
func opencodeEcho(prompt string) item {
	return opencodeBlock(opencodeBlue, strings.Split(prompt, "\n")...)
}

// opencodeReply is the model's text, indented five columns.
func opencodeReply(s string) item {
	return item{lines: []line{{lead: "     ", body: s, color: opencodeText}}}
}

// opencodeFooter is a turn's footer: "▣  Build · <model>", then " · 2.8s"
// or " · interrupted" once it ended.
func opencodeFooter(agent, suffix string) item {
	return item{lines: []line{raw("     " + fg(opencodeBlue, "▣") + "  " + fg(opencodeText, agent) + fg(opencodeDim, " · "+opencodeModel+suffix))}}
}

// opencodeTook writes a turn's time as the footer does: 145ms, 2.8s.
func opencodeTook(d time.Duration) string {
	if d < time.Second {
		return strconv.Itoa(int(d/time.Millisecond)) + "ms"
	}
	return fmt.Sprintf("%.1fs", d.Seconds())
}

// opencodeNumbered are a written file's lines as its block shows them.
func opencodeNumbered(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(fmt.Sprintf(" %d %s", i+1, l), " ")
	}
	return out
}

// renderOpenCode lays the model out as OpenCode 1.18.33 draws it: the
// centred start screen until a session has messages, then the session
// view with the composer (or the permission prompt) at the bottom and
// the sidebar at the right. The bottom row stays blank.
func (m *model) renderOpenCode(now time.Time, width, height int) []string {
	if !m.oc.session {
		return m.opencodeStart(width, height)
	}
	g := opencodeGeometry(width)
	var bottom []string
	top := 0 // the row the composer's first row sits on, from the bottom part's start
	if m.dialog != nil {
		bottom = append([]string{""}, m.opencodePermissionRows(g)...)
	} else {
		bottom = append([]string{""}, m.opencodeComposerRows(g, 2)...)
		top = 1
		bottom = append(bottom, m.opencodeStateRow(now, g))
	}
	bottom = append(bottom, "")
	content := m.opencodeTranscript(now, g)
	room := max(height-len(bottom), 0)
	if len(content) > room {
		content = content[len(content)-room:]
	}
	rows := append(content, make([]string, room-len(content))...)
	rows = append(rows, bottom...)
	if m.dialog == nil {
		m.opencodePopup(rows, room+top, 2, g.mainEnd-1, 14)
	}
	return fitBottom(m.opencodeSidebar(rows, g), height)
}

// opencodeTranscript is the items, a blank row before each, then what the
// turn under way shows: its tool and its footer.
func (m *model) opencodeTranscript(now time.Time, g opencodeGeom) []string {
	width := g.mainEnd - 1
	var rows []string
	for _, it := range m.items {
		rows = append(rows, "")
		rows = append(rows, it.rows(width)...)
	}
	if t := m.turn; t != nil {
		var live []item
		if tool := m.oc.tool; tool != nil {
			live = append(live, m.opencodeToolItem(tool, now))
		}
		live = append(live, opencodeFooter(m.opencodeAgentLabel(), ""))
		for _, it := range live {
			rows = append(rows, "")
			rows = append(rows, it.rows(width)...)
		}
	}
	return rows
}

// opencodeToolItem is the tool under way: a row of its own while it
// waits on the permission prompt, a "┃" block with a spinner while it
// runs.
func (m *model) opencodeToolItem(tool *opencodeTool, now time.Time) item {
	if m.dialog != nil {
		return item{lines: []line{raw("     " + tool.pending())}}
	}
	frame := int(now.Sub(tool.started) / opencodeBarFrame)
	return opencodeBlock(opencodeBlue, fg(opencodeBlue, codexSpinner[frame%len(codexSpinner)])+" "+tool.what)
}

// opencodeComposerRows are the composer at column col: a bare "┃" row, the
// text (the placeholder on the start screen), a bare row, the agent row,
// and the lower edge, width columns wide.
func (m *model) opencodeComposerRows(g opencodeGeom, col int) []string {
	pad := strings.Repeat(" ", col)
	bare := pad + fg(opencodeBlue, "┃")
	lead := bare + "  "
	rows := []string{bare}
	switch {
	case len(m.input) > 0:
		for _, l := range strings.Split(string(m.input), "\n") {
			rows = append(rows, lead+fg(opencodeText, l))
		}
	case !m.oc.session:
		rows = append(rows, lead+fg(opencodeDim, opencodeExample))
	default:
		rows = append(rows, bare)
	}
	agent := lead + fg(opencodeBlue, m.opencodeAgentLabel()) + " " + fg(opencodeDim, "·") + " " + fg(opencodeText, opencodeModel) + " " + fg(opencodeDim, opencodeProvider)
	edgeEnd := g.mainEnd
	if !m.oc.session {
		edgeEnd = col + opencodeStartWidth
	}
	return append(rows, bare, agent, pad+fg(opencodeBlue, "╹")+fg(234, rule("▀", edgeEnd-col-1)))
}

// opencodeStartWidth is the start screen's composer width.
const opencodeStartWidth = 75

// opencodePopup draws the slash popup of the composer's text over the
// rows above the composer's first row (row top): "┃ /new  New session",
// closed by a "┃" at column end; names take nameWidth columns.
func (m *model) opencodePopup(rows []string, top, col, end, nameWidth int) {
	entries, ok := opencodePopups[string(m.input)]
	if !ok || m.oc.completed {
		return
	}
	for i, e := range entries {
		r := top - len(entries) + i
		if r < 0 {
			continue
		}
		s := strings.Repeat(" ", col) + fg(opencodeBlue, "┃") + " " + fmt.Sprintf("%-*s", nameWidth, e[0]) + e[1]
		rows[r] = s + strings.Repeat(" ", max(end-ansi.StringWidth(s), 1)) + fg(opencodeBlue, "┃")
	}
}

// opencodeStateRow is the last row of the main column: the working bar
// and what Esc does while a turn works (the error and the retry while
// one is retried), else the directory; the usage and "ctrl+p commands"
// at the right.
func (m *model) opencodeStateRow(now time.Time, g opencodeGeom) string {
	right := m.opencodeUsage() + "  " + fg(opencodeText, "ctrl+p ") + fg(opencodeDim, "commands")
	var left string
	switch {
	case m.busy():
		bar := opencodeBar[int(now.Sub(m.turn.started)/opencodeBarFrame)%len(opencodeBar)]
		bar = strings.ReplaceAll(strings.ReplaceAll(bar, "⬝", fg(opencodeFaint, "⬝")), "■", fg(opencodeBlue, "■"))
		esc := fg(opencodeText, "esc ") + fg(opencodeDim, "interrupt")
		if armed(m.oc.escAt, now, opencodeEscWindow) {
			esc = fg(opencodeText, "esc ") + fg(opencodeDim, "again to interrupt")
		}
		left = "   " + bar + "  " + esc
		if r := m.oc.retry; r.attempt > 0 {
			wait := max((r.next.Sub(now)+time.Second-1)/time.Second, 0)
			left = "   " + bar + " " + fmt.Sprintf("%s [retrying in %ds attempt #%d]", r.message, wait, r.attempt)
			right = esc
		}
	default:
		left = "   " + fg(opencodeDim, m.cfg.Cwd)
	}
	return rightAlign(left, right, g.mainEnd+2)
}

// opencodeUsage is the session's context and cost, "8.1K (1%) · $0.07",
// or the agent hint before any usage.
func (m *model) opencodeUsage() string {
	if m.oc.tokens == 0 {
		return fg(opencodeText, "tab ") + fg(opencodeDim, "agents")
	}
	return fg(opencodeDim, fmt.Sprintf("%.1fK (%d%%) · %s", float64(m.oc.tokens)/1000, m.opencodeUsed(), m.opencodeCost()))
}

func (m *model) opencodeUsed() int {
	return (m.oc.tokens*100 + opencodeContext/2) / opencodeContext
}

func (m *model) opencodeCost() string { return fmt.Sprintf("$%d.%02d", m.oc.cents/100, m.oc.cents%100) }

// opencodeSidebar puts the sidebar beside the main column: the title and
// the context at the top, the directory beside the agent row and the
// version beside the state row.
func (m *model) opencodeSidebar(rows []string, g opencodeGeom) []string {
	if g.sideCol == 0 {
		return rows
	}
	side := map[int]string{
		1: bold(fg(opencodeText, opencodeTitle)),
		3: bold(fg(opencodeText, "Context")),
		4: fg(opencodeDim, groupThousands(m.oc.tokens)+" tokens"),
		5: fg(opencodeDim, strconv.Itoa(m.opencodeUsed())+"% used"),
		6: fg(opencodeDim, m.opencodeCost()+" spent"),
		8: bold(fg(opencodeText, "LSP")),
		9: fg(opencodeDim, "LSPs are disabled"),
	}
	n := len(rows)
	side[n-4] = fg(opencodeDim, m.cfg.Cwd)
	side[n-2] = fg(opencodeGreen, "•") + " " + bold(fg(opencodeText, "Open")) + fg(opencodeText, "Code") + " " + fg(opencodeDim, opencodeVersion)
	for r, s := range side {
		if r < 0 || r >= n {
			continue
		}
		main := ansi.Truncate(rows[r], g.mainEnd, "")
		rows[r] = main + strings.Repeat(" ", max(g.sideCol-ansi.StringWidth(main), 0)) + s
	}
	return rows
}

// groupThousands writes 8114 as 8,114.
func groupThousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// opencodeStart is the start screen: the logo and the composer centred,
// the hints under it, a tip after /new, the directory and the version on
// the last row but one.
func (m *model) opencodeStart(width, height int) []string {
	rows := make([]string, height)
	top := max((height-2-12)/2, 0)
	logoCol := (width - ansi.StringWidth(opencodeLogo[1]) + 1) / 2
	for i, l := range opencodeLogo {
		rows[top+i] = strings.Repeat(" ", logoCol) + fg(opencodeDim, l)
	}
	col := max((width-opencodeStartWidth+1)/2, 0)
	composer := m.opencodeComposerRows(opencodeGeometry(width), col)
	copy(rows[top+6:], composer)
	hint := fg(opencodeText, "tab ") + fg(opencodeDim, "agents") + "  " + fg(opencodeText, "ctrl+p ") + fg(opencodeDim, "commands")
	rows[top+6+len(composer)] = strings.Repeat(" ", col+opencodeStartWidth-ansi.StringWidth(hint)) + hint
	if m.oc.tip && len(composer) == 5 {
		rows[top+15] = strings.Repeat(" ", (width-ansi.StringWidth(opencodeTip))/2+1) + fg(opencodeDim, opencodeTip)
	}
	m.opencodePopup(rows, top+6, col, col+opencodeStartWidth-1, 12)
	rows[height-2] = rightAlign("  "+fg(opencodeDim, m.cfg.Cwd), fg(opencodeDim, opencodeVersion), width)
	return rows
}

// opencodePermissionRows are the permission prompt, in place of the
// composer and the state row: its title, what it asks about (the command,
// or the file and its diff), and the choices.
func (m *model) opencodePermissionRows(g opencodeGeom) []string {
	tool := m.oc.tool
	block := func(s string) string {
		if s == "" {
			return "  " + fg(opencodeOrange, "┃")
		}
		return opencodeBarLead(opencodeOrange) + s
	}
	rows := []string{block(""), block(fg(opencodeOrange, "△") + " " + fg(opencodeText, "Permission required"))}
	if tool.name == "bash" {
		rows = append(rows, block("  "+fg(opencodeDim, opencodeShellKind)), block(""), block(fg(opencodeText, "$ "+tool.what)), block(""))
	} else {
		rows = append(rows, block("  "+fg(opencodeDim, "→ Edit "+tool.what)), block(""))
		diffCol := 2 + (g.mainEnd-2)/2 + 1
		for i := range 8 {
			row := block("")
			if i < len(tool.lines)-1 {
				row += strings.Repeat(" ", diffCol-3) + fg(opencodeGreen, strings.TrimRight(fmt.Sprintf("%d + %s", i+1, tool.lines[i]), " "))
			}
			rows = append(rows, row)
		}
	}
	var choices string
	for i, c := range []string{"Allow once", "Allow always", "Reject"} {
		if i == m.dialog.cursor {
			choices += " " + bg(opencodeOrange, " "+fg(opencodeOn, c)+" ")
			continue
		}
		choices += " " + " " + fg(opencodeDim, c) + " "
	}
	choices = block(strings.TrimPrefix(choices, " "))
	keys := fg(opencodeText, "ctrl+f ") + fg(opencodeDim, "fullscreen") + "  " + fg(opencodeText, "⇆ ") + fg(opencodeDim, "select") + "  " + fg(opencodeText, "enter ") + fg(opencodeDim, "confirm")
	return append(rows, block(""), rightAlign(choices, keys, g.mainEnd-1), block(""))
}
