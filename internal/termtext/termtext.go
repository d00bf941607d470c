// Package termtext reads the text in a terminal's byte stream: it skips
// escape sequences (CSI, OSC and the other strings, two-byte escapes) and
// decodes UTF-8 runes across chunk boundaries, one byte at a time, with
// no allocation. The agents' stream readers look for their marks in what
// it returns.
package termtext

import "unicode/utf8"

// Parser is the reader's state between bytes. The zero value is ready.
type Parser struct {
	mode    mode
	partial [utf8.UTFMax]byte // the bytes of a rune split between chunks
	npart   int
	need    int // the length of the rune being read
}

type mode uint8

const (
	modeText      mode = iota
	modeEsc            // after ESC
	modeCSI            // ESC [ … final byte
	modeString         // OSC, DCS, APC, PM, SOS … BEL or ST
	modeStringEsc      // ESC inside a string: ST if '\' follows
)

const (
	esc = 0x1b
	bel = 0x07
)

// Feed reads one byte and returns the text rune it completes, if any: a
// control byte outside an escape sequence is returned as itself, a byte
// that starts no rune as utf8.RuneError.
func (p *Parser) Feed(b byte) (rune, bool) {
	switch p.mode {
	case modeEsc:
		switch b {
		case '[':
			p.mode = modeCSI
		case ']', 'P', '_', '^', 'X':
			p.mode = modeString
		default:
			p.mode = modeText
		}
		return 0, false
	case modeCSI:
		if b >= 0x40 && b <= 0x7e {
			p.mode = modeText
		}
		return 0, false
	case modeString:
		switch b {
		case bel:
			p.mode = modeText
		case esc:
			p.mode = modeStringEsc
		}
		return 0, false
	case modeStringEsc:
		p.mode = modeString
		if b == '\\' {
			p.mode = modeText
		}
		return 0, false
	}
	if p.npart > 0 {
		return p.continueRune(b)
	}
	switch {
	case b == esc:
		p.mode = modeEsc
		return 0, false
	case b < utf8.RuneSelf:
		return rune(b), true
	}
	p.need = runeLen(b)
	if p.need == 0 {
		return utf8.RuneError, true
	}
	p.partial[0], p.npart = b, 1
	return 0, false
}

// continueRune adds b to the rune being read.
func (p *Parser) continueRune(b byte) (rune, bool) {
	if b&0xc0 != 0x80 {
		// Not a continuation: the rune was cut short; read b afresh.
		p.npart = 0
		return p.Feed(b)
	}
	p.partial[p.npart] = b
	p.npart++
	if p.npart < p.need {
		return 0, false
	}
	r, _ := utf8.DecodeRune(p.partial[:p.npart])
	p.npart = 0
	return r, true
}

// runeLen is the length of the UTF-8 sequence lead starts, 0 for a byte
// that starts none.
func runeLen(lead byte) int {
	switch {
	case lead&0xe0 == 0xc0:
		return 2
	case lead&0xf0 == 0xe0:
		return 3
	case lead&0xf8 == 0xf0:
		return 4
	}
	return 0
}
