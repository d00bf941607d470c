//go:build linux

package loadtest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/codeman-dev/codeman/internal/simclaude"
)

// Printer defaults.
const (
	// DefaultRedraw is how often the status row is redrawn: 100ms, ten
	// times a second, twice as often as Claude Code's own spinner.
	DefaultRedraw = 100 * time.Millisecond
	// DefaultVerb is the spinner's gerund.
	DefaultVerb = "Enchanting"
)

// spinnerGlyphs cycle one per redraw, forward and back, as Claude's do.
var spinnerGlyphs = []string{"·", "✢", "*", "✶", "✻", "✽", "✽", "✻", "✶", "*", "✢", "·"}

// xterm-256 colours of the real screens (capture-pane -e).
const (
	colorLogo   = 174 // logo, spinner glyph and verb
	colorDim    = 246 // tip, footer, token counter
	colorBorder = 244 // prompt box rules
	colorEcho   = 237 // background of the prompt echo
)

// Printer lays out Claude Code 2.1.328's alternate screen in the middle of
// a long turn: header, a transcript with a prompt, a reply and a finished
// Bash call, the status row, the tip, the prompt box with "❯" + U+00A0 and
// the busy footer "esc to interrupt". Only the status row changes.
type Printer struct {
	Width, Height int
	Verb          string
}

// rows of the bottom block, counted from the last row (1-based offsets).
const (
	footerFromBottom = 0 // "  ⏸ manual mode on · esc to interrupt"
	statusFromBottom = 6 // the spinner row, above tip, notice and the box
)

// Frame is the whole screen: alternate screen on, cursor hidden, bracketed
// paste on (as Claude sets it), then every row placed with CUP.
func (p Printer) Frame(elapsed time.Duration) []byte {
	var b bytes.Buffer
	b.WriteString("\x1b[?1049h\x1b[?25l\x1b[?2004h\x1b[0m\x1b[2J")
	for i, row := range p.rows(elapsed) {
		writeRow(&b, i+1, row, p.Width)
	}
	return b.Bytes()
}

// StatusUpdate redraws only the status row, the way a TUI moves the cursor
// to a row, rewrites it and parks the cursor in the prompt box.
func (p Printer) StatusUpdate(elapsed time.Duration) []byte {
	var b bytes.Buffer
	writeRow(&b, p.Height-statusFromBottom, p.statusRow(elapsed), p.Width)
	fmt.Fprintf(&b, "\x1b[%d;3H", p.Height-2)
	return b.Bytes()
}

func writeRow(b *bytes.Buffer, y int, row string, width int) {
	fmt.Fprintf(b, "\x1b[%d;1H%s", y, row)
	if visibleWidth(row) < width {
		b.WriteString("\x1b[K") // a full row would erase its own last cell
	}
}

// rows is the screen top to bottom; the transcript is cut from the top
// when the pane is short.
func (p Printer) rows(elapsed time.Duration) []string {
	top := []string{
		"",
		fg(colorLogo, " ▐\x1b[48;5;16m▛███▛█\x1b[49m") + "   \x1b[1mClaude Code\x1b[22m " + fg(colorDim, "v2.1.328"),
		fg(colorLogo, "▝▜\x1b[48;5;16m█████\x1b[49m█▀") + "  " + fg(colorDim, "Opus 5.5 · API Usage Billing"),
		fg(colorLogo, " ▝▝   ▝▝ ") + "  " + fg(colorDim, "~/proj"),
		"",
		"\x1b[48;5;" + strconv.Itoa(colorEcho) + "m❯ refactor the storage layer and keep the tests green \x1b[49m",
		"",
		"● I'll start by running the test suite to see where things stand.",
		"",
		"\x1b[38;5;114m●\x1b[39m \x1b[1mBash\x1b[22m(go test ./...)",
		"  ⎿  ok   example.com/proj/store   0.412s",
		"     ok   example.com/proj/api     0.118s",
	}
	rule := fg(colorBorder, strings.Repeat("─", p.Width))
	bottom := []string{
		"",
		p.statusRow(elapsed),
		fg(colorDim, "  ⎿ \u00a0Tip: Use /theme to change the color theme"),
		"",
		rule,
		"❯\u00a0\x1b[7m \x1b[27m",
		rule,
		"  " + fg(colorDim, "⏸ manual mode on · esc to interrupt"),
	}
	if len(top)+len(bottom) > p.Height {
		top = top[min(len(top), len(top)+len(bottom)-p.Height):]
	}
	rows := append(top, make([]string, max(p.Height-len(top)-len(bottom), 0))...)
	return append(rows, bottom...)
}

// statusRow is "✢ Enchanting… (12s · ↓ 340 tokens)" in Claude's colours.
func (p Printer) statusRow(elapsed time.Duration) string {
	glyph, rest := spinnerParts(p.verb(), elapsed)
	verb, counter, _ := strings.Cut(rest, " (")
	return fg(colorLogo, glyph) + " " + fg(colorLogo, verb) + " " + fg(colorDim, "("+counter)
}

// StatusText is the status row as capture-pane shows it.
func (p Printer) StatusText(elapsed time.Duration) string {
	glyph, rest := spinnerParts(p.verb(), elapsed)
	return glyph + " " + rest
}

func (p Printer) verb() string {
	if p.Verb == "" {
		return DefaultVerb
	}
	return p.Verb
}

// spinnerParts returns the glyph of the redraw at elapsed and the rest of
// the status row: "Enchanting… (12s · ↓ 340 tokens)". The counter grows
// about 30 tokens a second.
func spinnerParts(verb string, elapsed time.Duration) (string, string) {
	frame := int(elapsed / DefaultRedraw)
	tokens := 2 + int(elapsed*30/time.Second)
	return spinnerGlyphs[frame%len(spinnerGlyphs)],
		fmt.Sprintf("%s… (%s · ↓ %s tokens)", verb, simclaude.FormatDuration(elapsed), simclaude.FormatTokens(tokens))
}

func fg(color int, s string) string {
	return "\x1b[38;5;" + strconv.Itoa(color) + "m" + s + "\x1b[39m"
}

// visibleWidth counts the cells of a row: runes outside escape sequences.
// Every character the printer draws is one cell wide.
func visibleWidth(s string) int {
	n, esc := 0, false
	for _, r := range s {
		switch {
		case esc:
			esc = !(r >= '@' && r <= '~' && r != '[')
		case r == 0x1b:
			esc = true
		case r >= ' ':
			n++
		}
	}
	return n
}

// Draw writes the frame, then the status row every redraw until ctx ends
// or a write fails (the pane is gone). started is when the turn began.
func (p Printer) Draw(ctx context.Context, w io.Writer, started time.Time, redraw time.Duration) error {
	if _, err := w.Write(p.Frame(time.Since(started))); err != nil {
		return fmt.Errorf("draw screen: %w", err)
	}
	tick := time.NewTicker(redraw)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
			if _, err := w.Write(p.StatusUpdate(time.Since(started))); err != nil {
				return fmt.Errorf("draw status row: %w", err)
			}
		}
	}
}
