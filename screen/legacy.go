package screen

import (
	"strings"
	"unicode/utf8"
)

// Screen 4.x hardcopies are lossy: a window cell keeps a character's low
// byte in its image row and the other bits elsewhere, and hardcopy writes
// the image row alone. So "❯" (U+276F) arrives as "o", "─" (U+2500) as a
// NUL byte, "✻" (U+273B) as ";" and "…" (U+2026) as "&", while ASCII and
// Latin-1 ("·", "é", the NO-BREAK SPACE) arrive whole. A wide character
// is its low byte and a 0xFF filler cell.
//
// decodeLegacyRow undoes this for the characters Claude Code draws and
// codeman's screen patterns look for. A byte no Latin-1 text character
// has (C0 and C1 controls) can only be a lost character and is mapped to
// the likeliest Claude Code glyph; a byte that is also ordinary text is
// mapped only where Claude Code's layout leaves no doubt (a row's first
// column, a rule made of one glyph). TestLegacyDecode_ClaudeScreens runs
// every real screen through the loss and this repair and checks that the
// detector reads the same facts. Of the Codex CLI's glyphs only the
// composer's "›" (U+203A, as ":") is repaired: without it Codex never
// looks idle.

// lostGlyphs maps a C0 or C1 byte to the Claude Code glyph with that low
// byte. Where several glyphs share a byte, the one that matters for
// detection wins: arrows (token counter, pickers) over logo blocks.
var lostGlyphs = [256]rune{
	0x00: '─', // U+2500, rules of the prompt box
	0x02: '│', // U+2502
	0x10: '☐', // U+2610, picker checkboxes
	0x12: '☒', // U+2612
	0x13: '–', // U+2013
	0x14: '—', // U+2014; ✔ (U+2714) in a picker's tab row, see legacyRune
	0x18: '‘', // U+2018
	0x19: '’', // U+2019, "You’ve hit your limit"
	0x1C: '“', // U+201C
	0x1D: '”', // U+201D
	0x80: '▀', // U+2580, logo blocks
	0x84: '▄', // U+2584
	0x88: '█', // U+2588
	0x8C: '▌', // U+258C
	0x8E: '▎', // U+258E
	0x90: '←', // U+2190 (and ▐ U+2590 of the logo)
	0x91: '↑', // U+2191 (and ░ U+2591)
	0x92: '→', // U+2192
	0x93: '↓', // U+2193 (and ▓ U+2593)
	0x94: '▔', // U+2594
	0x96: '▖', // U+2596
	0x97: '▗', // U+2597
	0x98: '▘', // U+2598
	0x99: '▙', // U+2599
	0x9B: '▛', // U+259B
	0x9C: '▜', // U+259C
	0x9D: '▝', // U+259D
	0x9F: '▟', // U+259F
}

// blockArt maps the C1 bytes that lostGlyphs reads as arrows to the block
// elements of the same low byte, for cells inside a run of lost glyphs
// (the logo and the welcome art).
var blockArt = [256]rune{
	0x90: '▐', // U+2590
	0x91: '░', // U+2591
	0x93: '▓', // U+2593
}

// spinnerBytes maps the low bytes of Claude Code's spinner glyphs (other
// than "·" and "*", which survive) to the glyphs.
var spinnerBytes = [256]rune{
	';': '✻', // U+273B
	'"': '✢', // U+2722
	'6': '✶', // U+2736
	'=': '✽', // U+273D
	'3': '✳', // U+2733
}

// leadGlyphs maps the low bytes of glyphs that stand first on a row,
// before a space, and are ASCII or a common Latin-1 character elsewhere.
var leadGlyphs = [256]rune{
	'o':  '❯', // U+276F, prompt box input row, prompt echo, menu selector
	':':  '›', // U+203A, the Codex CLI's composer, prompt echo, menu selector
	0xA0: '⚠', // U+26A0, usage-limit notice; a NO-BREAK SPACE elsewhere
}

// wordGlyphs maps the low bytes of glyphs that stand alone between spaces
// and are rare Latin-1 letters or signs when they do not stand for a glyph.
var wordGlyphs = [256]rune{
	0xCF: '●', // U+25CF, transcript bullet
	0xBF: '⎿', // U+23BF, tool result hint
	0xF8: '⏸', // U+23F8, footer mode
	0xF5: '⏵', // U+23F5, footer mode, written twice: ⏵⏵
	0xD0: '◐', // U+25D0, effort indicator and old spinner
	0xD1: '◑', // U+25D1
	0xD2: '◒', // U+25D2
	0xD3: '◓', // U+25D3
	0xEF: '◯', // U+25EF, background agent
}

// boxCorners maps the low bytes of rounded box corners to the corner,
// when a lost "─" (0x00) is next to them on the side the box goes on.
var boxCorners = [256]struct {
	r     rune
	right bool // the rule continues to the right of the corner
}{
	'm': {'╭', true}, 'p': {'╰', true}, // U+256D, U+2570
	'n': {'╮', false}, 'o': {'╯', false}, // U+256E, U+256F
}

const legacyFiller = 0xFF // the cell after a wide character

// decodeLegacyRow reads a screen 4.x hardcopy row. Every byte is one cell.
func decodeLegacyRow(row []byte) (string, int) {
	lead := 0
	for lead < len(row) && row[lead] == ' ' {
		lead++
	}
	if isDashedRule(row[lead:]) {
		// "╌╌╌" (U+254C) arrives as "LLL".
		return string(row[:lead]) + strings.Repeat("╌", len(row)-lead), len(row)
	}
	var b strings.Builder
	b.Grow(len(row) * 2)
	for i := range row {
		if r := legacyRune(row, i, lead); r >= 0 {
			b.WriteRune(r)
		}
	}
	return b.String(), len(row)
}

// legacyRune returns the character in cell i, or -1 for a filler cell.
func legacyRune(row []byte, i, lead int) rune {
	c := row[i]
	switch {
	case c == legacyFiller:
		return -1
	case c == 0x14 && (row[0] == 0x90 || between(row, i, '[', ']')):
		return '✔' // U+2714: an answered tab (the tab row starts with ←) or a ticked box
	case blockArt[c] != 0 && (isC1(row, i-1) || isC1(row, i+1)):
		return blockArt[c] // logo blocks come in runs; arrows stand alone
	case c < 0x20 || (c >= 0x7F && c < 0xA0):
		if r := lostGlyphs[c]; r != 0 {
			return r
		}
		return utf8.RuneError
	case c == '&' && i > 0 && isLetterLatin1(row[i-1]) && endsWord(row, i+1):
		return '…' // "Sublimating…", "Thinking…"
	}
	if r := boxCorners[c]; r.r != 0 && nextTo(row, i, 0x00, r.right) {
		return r.r
	}
	if r := wordGlyphs[c]; r != 0 && standsAlone(row, i) {
		return r
	}
	if i != lead || !followedBySpace(row, i) {
		return rune(c)
	}
	if r := leadGlyphs[c]; r != 0 {
		return r
	}
	if r := spinnerBytes[c]; r != 0 && i == 0 && i+2 < len(row) && isStatusStart(row[i+2]) {
		// "✻ Baked for 3s", "✶ Sublimating…", "✻ 429 ... retrying in 4s":
		// column 0, a space, then a capital or a digit.
		return r
	}
	return rune(c)
}

// isDashedRule reports a row made of "L" only, at least three.
func isDashedRule(row []byte) bool {
	if len(row) < 3 {
		return false
	}
	for _, c := range row {
		if c != 'L' {
			return false
		}
	}
	return true
}

// standsAlone reports whether cell i is a word of its own: a space or the
// row's edge on both sides. A run of one byte counts as one word (⏵⏵).
func standsAlone(row []byte, i int) bool {
	j := i
	for j > 0 && row[j-1] == row[i] {
		j--
	}
	k := i
	for k+1 < len(row) && row[k+1] == row[i] {
		k++
	}
	return (j == 0 || row[j-1] == ' ') && followedBySpace(row, k)
}

// between reports whether cell i sits between open and close: "[✔]".
func between(row []byte, i int, open, close byte) bool {
	return i > 0 && i+1 < len(row) && row[i-1] == open && row[i+1] == close
}

// nextTo reports whether the cell right of i (or left of it) holds c.
func nextTo(row []byte, i int, c byte, right bool) bool {
	if right {
		return i+1 < len(row) && row[i+1] == c
	}
	return i > 0 && row[i-1] == c
}

// isC1 reports whether cell i exists and holds a C1 byte.
func isC1(row []byte, i int) bool { return i >= 0 && i < len(row) && row[i] >= 0x80 && row[i] < 0xA0 }

func isStatusStart(c byte) bool { return isUpperASCII(c) || (c >= '0' && c <= '9') }

// followedBySpace reports whether cell i ends its row or a space or
// NO-BREAK SPACE follows it.
func followedBySpace(row []byte, i int) bool {
	return i+1 == len(row) || row[i+1] == ' ' || row[i+1] == 0xA0
}

func endsWord(row []byte, i int) bool {
	return i == len(row) || row[i] == ' ' || row[i] == '(' || row[i] == 0xA0
}

func isUpperASCII(c byte) bool { return c >= 'A' && c <= 'Z' }

// isLetterLatin1 reports an ASCII or Latin-1 letter.
func isLetterLatin1(c byte) bool {
	return (c|0x20 >= 'a' && c|0x20 <= 'z') || (c >= 0xC0 && c != 0xD7 && c != 0xF7 && c != legacyFiller)
}
