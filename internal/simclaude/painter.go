package simclaude

import (
	"bytes"
	"fmt"
	"io"

	"github.com/charmbracelet/x/ansi"
)

// Terminal modes the program sets on start and clears on exit.
const (
	enterScreen = "\x1b[?1049h\x1b[?25l\x1b[?2004h" // alternate screen, hide cursor, bracketed paste
	leaveScreen = "\x1b[0m\x1b[?2004l\x1b[?25h\x1b[?1049l"
)

// painter writes rows to the terminal with cursor positioning, rewriting
// only the rows that differ from what it wrote last.
type painter struct {
	w      io.Writer
	width  int
	height int
	prev   []string // rows on screen; nil forces a full repaint
	buf    bytes.Buffer
}

func newPainter(w io.Writer, width, height int) *painter {
	return &painter{w: w, width: width, height: height}
}

// resize forgets the screen, so that the next draw repaints everything.
func (p *painter) resize(width, height int) {
	p.width, p.height = width, height
	p.prev = nil
}

// draw brings the terminal to rows.
func (p *painter) draw(rows []string) error {
	p.buf.Reset()
	full := p.prev == nil
	if full {
		p.prev = make([]string, p.height)
		p.buf.WriteString("\x1b[0m\x1b[2J")
	}
	for y := range p.height {
		row := ""
		if y < len(rows) {
			row = ansi.Truncate(rows[y], p.width, "")
		}
		if row == p.prev[y] && !full {
			continue
		}
		p.prev[y] = row
		fmt.Fprintf(&p.buf, "\x1b[%d;1H\x1b[0m%s\x1b[0m", y+1, row)
		// A full row leaves the cursor in the pending-wrap state, where
		// erasing to the end of the line would erase its last character.
		if ansi.StringWidth(row) < p.width {
			p.buf.WriteString("\x1b[K")
		}
	}
	if p.buf.Len() == 0 {
		return nil
	}
	if _, err := p.w.Write(p.buf.Bytes()); err != nil {
		return fmt.Errorf("write screen: %w", err)
	}
	return nil
}
