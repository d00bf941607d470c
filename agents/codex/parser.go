package codex

import "bytes"

// parser is a small terminal byte-stream reader: it drops escape
// sequences, keeps the start of each OSC string to read Codex's state
// notice, counts the printable runes of the text between them and watches
// that text for the status row's "esc to interrupt". It keeps its state
// between chunks, so a sequence, a rune or the phrase split across two
// chunks is read whole.
type parser struct {
	mode  parseMode
	osc   [oscKept]byte // the start of the OSC string being read
	oscN  int           // bytes of it seen, may pass oscKept
	rune  [4]byte       // a multi-byte rune being read
	runeN int           // bytes of it seen
	runeW int           // its length
	// last is the text's last byte, blanks and cursor moves along a row
	// collapsed to one space and row changes to '\n'; non-ASCII runes are
	// 0x80. A newline before any text keeps a leading blank out.
	last byte
	// busy is how much of busyPhrase the text ends with.
	busy int
}

// newParser returns a parser at the start of a line.
func newParser() parser { return parser{last: '\n'} }

type parseMode uint8

const (
	modeText   parseMode = iota
	modeEscape           // after ESC
	modeInter            // ESC and intermediate bytes, until the final byte
	modeCSI              // ESC [, until the final byte
	modeOSC              // ESC ], until BEL or ST
	modeString           // ESC P, X, ^ or _, until ST
)

// oscKept is how much of an OSC string is kept: the state notice
// "7501;state=blocked:app=codex:kind=permission" is read up to its state.
const oscKept = 32

// event is what one byte completed.
type event uint8

const (
	eventNone    event = iota
	eventVisible       // a printable rune other than a blank
	eventBusy          // the same, which ended "esc to interrupt"
	eventState         // an OSC string ended; state() reads it
)

const (
	esc = 0x1b
	bel = 0x07
)

var (
	busyPhrase = []byte("esc to interrupt")
	busyFail   = failures(busyPhrase)
	statePre   = []byte("7501;state=")
)

// failures is the Knuth-Morris-Pratt table of a phrase: for each length k
// matched, the longest proper prefix of phrase[:k] that also ends it.
func failures(phrase []byte) []int {
	f := make([]int, len(phrase)+1)
	for k, j := 1, 0; k < len(phrase); k++ {
		for j > 0 && phrase[k] != phrase[j] {
			j = f[j]
		}
		if phrase[k] == phrase[j] {
			j++
		}
		f[k+1] = j
	}
	return f
}

// feed reads one byte.
func (p *parser) feed(b byte) event {
	if b == esc {
		// ESC starts a sequence anywhere; in a string it begins ST.
		ended := p.mode == modeOSC
		p.mode = modeEscape
		if ended {
			return eventState
		}
		return eventNone
	}
	switch p.mode {
	case modeText:
		return p.textByte(b)
	case modeEscape:
		return p.escape(b)
	case modeInter:
		if b >= 0x30 && b <= 0x7e {
			p.mode = modeText
		}
	case modeCSI:
		if b >= 0x40 && b <= 0x7e {
			p.mode = modeText
			p.cursor(b)
		}
	case modeOSC:
		if b == bel {
			p.mode = modeText
			return eventState
		}
		if p.oscN < oscKept {
			p.osc[p.oscN] = b
		}
		p.oscN++
	case modeString:
		// Only ST ends it; ESC is handled above.
	}
	return eventNone
}

// escape reads the byte after ESC.
func (p *parser) escape(b byte) event {
	p.mode = modeText
	switch {
	case b == '[':
		p.mode = modeCSI
	case b == ']':
		p.mode, p.oscN = modeOSC, 0
	case b == 'P' || b == 'X' || b == '^' || b == '_':
		p.mode = modeString
	case b >= 0x20 && b <= 0x2f:
		p.mode = modeInter
	case b == 'D' || b == 'E' || b == 'M': // IND, NEL, RI: another row
		p.separate('\n')
	}
	return eventNone
}

// cursor handles the final byte of a CSI sequence: a cursor move parts
// the text around it, as a row change or a blank.
func (p *parser) cursor(final byte) {
	switch final {
	case 'A', 'B', 'E', 'F', 'H', 'd', 'f':
		p.separate('\n')
	case 'C', 'G', '`', 'a':
		p.separate(' ')
	}
}

// textByte reads a byte of text.
func (p *parser) textByte(b byte) event {
	switch {
	case b < 0x20 || b == 0x7f:
		p.runeN = 0
		switch b {
		case '\n', '\r', '\v', '\f':
			p.separate('\n')
		case '\t':
			p.separate(' ')
		}
		return eventNone
	case b == ' ':
		p.runeN = 0
		p.separate(' ')
		return eventNone
	case b < 0x80:
		p.runeN = 0
		p.push(b)
		if p.busy == len(busyPhrase) {
			return eventBusy
		}
		return eventVisible
	case b >= 0xc0:
		p.rune[0], p.runeN, p.runeW = b, 1, 2
		if b >= 0xf0 {
			p.runeW = 4
		} else if b >= 0xe0 {
			p.runeW = 3
		}
		return eventNone
	}
	if p.runeN == 0 || p.runeN >= p.runeW {
		return eventNone // a stray continuation byte
	}
	p.rune[p.runeN] = b
	if p.runeN++; p.runeN < p.runeW {
		return eventNone
	}
	p.runeN = 0
	if blankRune(p.rune[:p.runeW]) {
		p.separate(' ')
		return eventNone
	}
	p.push(0x80) // a non-ASCII rune: no part of the phrase
	return eventVisible
}

// blankRune reports a C1 control, NO-BREAK SPACE or another Unicode blank.
func blankRune(r []byte) bool {
	switch {
	case r[0] == 0xc2:
		return r[1] <= 0xa0
	case len(r) == 3 && r[0] == 0xe2 && r[1] == 0x80:
		return r[2] <= 0x8a || r[2] == 0xa8 || r[2] == 0xa9 || r[2] == 0xaf
	case len(r) == 3 && r[0] == 0xe3:
		return r[1] == 0x80 && r[2] == 0x80
	}
	return false
}

// separate records a blank or a row change in the text, once per run: a
// row change wins over blanks next to it.
func (p *parser) separate(c byte) {
	if p.last == '\n' || p.last == c {
		return
	}
	if p.last == ' ' {
		p.last = c // the blank before a row change
		p.busy = 0
		return
	}
	p.push(c)
}

// push appends a byte to the text and follows busyPhrase.
func (p *parser) push(c byte) {
	p.last = c
	for p.busy > 0 && (p.busy == len(busyPhrase) || busyPhrase[p.busy] != c) {
		p.busy = busyFail[p.busy]
	}
	if busyPhrase[p.busy] == c {
		p.busy++
	}
}

// state returns the state word of the OSC string just ended, nil when it
// was no Codex state notice.
func (p *parser) state() []byte {
	n := min(p.oscN, oscKept)
	rest, ok := bytes.CutPrefix(p.osc[:n], statePre)
	if !ok {
		return nil
	}
	if i := bytes.IndexByte(rest, ':'); i >= 0 {
		return rest[:i]
	}
	if p.oscN > oscKept {
		return nil // cut off before the state's end
	}
	return rest
}
