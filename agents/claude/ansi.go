package claude

import (
	"encoding/binary"
	"math/bits"
)

// ansiStripper turns a terminal byte stream into plain text, one chunk at a
// time. It keeps its parser state between calls, so an escape sequence
// split across two chunks is removed whole and never leaks.
//
// It understands what a VT-style parser does: CSI sequences (including
// private modes such as ESC[?2004h), OSC strings ended by BEL or ST,
// DCS/SOS/PM/APC strings ended by ST, and two-byte ESC sequences. CAN and
// SUB abort a sequence.
//
// Cursor movement becomes a separator so that words drawn on different rows
// stay apart: a move to another row (CUP, CUU, CUD, VPA, LF, CR, IND, RI)
// emits '\n'; a move along the same row (CUF, CHA, or CUP to the current
// row) emits ' '. Runs of separators collapse into one.
type ansiStripper struct {
	state    stripState
	csiOther bool // the CSI has a private marker or an intermediate byte: not a cursor move
	csiArgs  int  // number of ';' or ':' seen in the CSI
	csiArg   int  // first numeric parameter of the CSI, capped at maxCSIArg
	row      int  // cursor row after the last absolute move, valid when rowKnown
	rowKnown bool
	last     byte // last byte written, for collapsing separators
}

type stripState uint8

const (
	stripGround   stripState = iota
	stripEscape              // after ESC
	stripEscInter            // ESC and intermediate bytes, until the final byte
	stripCSI                 // ESC [ parameters, until the final byte
	stripOSC                 // ESC ] string, until BEL or ST
	stripString              // ESC P, X, ^ or _ string, until ST
)

const (
	esc = 0x1b
	can = 0x18 // cancels a sequence
	sub = 0x1a // cancels a sequence

	maxCSIArg = 9999
)

// StripANSI returns s without terminal escape sequences and control
// characters, with cursor moves turned into separators as the stream
// detector sees them.
func StripANSI(s string) string {
	var st ansiStripper
	st.last = '\n'
	out := make([]byte, len(s))
	_, n := st.strip(out, []byte(s))
	return string(out[:n])
}

// strip reads src and writes plain text to dst. It reads at most len(dst)
// bytes, since every byte read writes at most one, and returns how many
// bytes it read and wrote.
func (s *ansiStripper) strip(dst, src []byte) (read, wrote int) {
	if len(src) > len(dst) {
		src = src[:len(dst)]
	}
	m, i := 0, 0
	for i < len(src) {
		switch s.state {
		case stripGround:
			m, i = s.ground(dst, m, src, i)
			continue
		case stripCSI:
			if i = s.csiParams(src, i); i == len(src) {
				continue
			}
		}
		var reprocess bool
		if m, reprocess = s.inSequence(dst, m, src[i]); !reprocess {
			i++
		}
	}
	if m > 0 {
		s.last = dst[m-1]
	}
	return len(src), m
}

// ground reads text and whole CSI sequences from src[i:] until the end or
// until a sequence is left unfinished, and returns the new m and i.
func (s *ansiStripper) ground(dst []byte, m int, src []byte, i int) (int, int) {
	for i < len(src) {
		var n int
		if i+8 <= len(src) && m+8 <= len(dst) {
			// Most runs between two escapes are a glyph or a word: they
			// are found and copied in one word. The bytes stored past
			// the run are overwritten later or unused.
			x := binary.LittleEndian.Uint64(src[i:])
			binary.LittleEndian.PutUint64(dst[m:], x)
			if c := controlBytes(x); c != 0 {
				n = bits.TrailingZeros64(c) / 8
			} else {
				n = 8 + textRun(src[i+8:])
				copy(dst[m+8:], src[i+8:i+n])
			}
		} else {
			n = textRun(src[i:])
			copy(dst[m:], src[i:i+n])
		}
		m += n
		if i += n; i == len(src) {
			break
		}
		if j := wholeCSI(src, i); j > i {
			if final := src[j-1]; final != 'm' {
				m = s.cursor(dst, m, final, csiArg(src[i+2:j]))
			}
			i = j
			continue
		}
		m = s.control(dst, m, src[i])
		i++
		if s.state != stripGround {
			break
		}
	}
	return m, i
}

// Byte masks for reading eight bytes at a time.
const (
	eachByte = 0x0101010101010101
	highBits = 0x8080808080808080
)

// textRun returns how many bytes at the start of b are text: no C0
// control and no DEL.
func textRun(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if controlBytes(binary.LittleEndian.Uint64(b[i:])) != 0 {
			break
		}
	}
	for i < len(b) && b[i] >= 0x20 && b[i] != 0x7f {
		i++
	}
	return i
}

// controlBytes sets the high bit of the bytes of x below 0x20 or equal to
// 0x7f (the "has less" and "has zero" word tricks), and of no byte below
// the first of them: a borrow only marks bytes above a true one, so the
// lowest mark is exact.
func controlBytes(x uint64) uint64 {
	del := x ^ (eachByte * 0x7f)
	return ((x-eachByte*0x20)&^x | (del-eachByte)&^del) & highBits
}

// wholeCSI returns the end of the plain CSI sequence (ESC [, digits and
// separators, a final byte) at src[i], which is most of what a TUI writes,
// or i when the sequence is cut off or not plain, for the byte-wise parser
// to take.
func wholeCSI(src []byte, i int) int {
	if i+2 >= len(src) || src[i] != esc || src[i+1] != '[' {
		return i
	}
	j := i + 2
	for j < len(src) && src[j]-'0' <= ';'-'0' { // digits, ':' and ';'
		j++
	}
	if j == len(src) || src[j] < 0x40 || src[j] > 0x7e {
		return i
	}
	return j + 1
}

// csiArg returns the first parameter of a CSI sequence, capped at
// maxCSIArg: the only one a cursor move reads.
func csiArg(params []byte) int {
	arg := 0
	for _, c := range params {
		if c-'0' > 9 {
			break
		}
		if arg < maxCSIArg {
			arg = arg*10 + int(c-'0')
		}
	}
	return arg
}

// csiParams reads the digits and separators of a CSI sequence from
// src[i:], the bulk of every SGR colour code, and returns where it stopped.
func (s *ansiStripper) csiParams(src []byte, i int) int {
	for ; i < len(src); i++ {
		switch b := src[i]; {
		case b >= '0' && b <= '9':
			if s.csiArgs == 0 && s.csiArg < maxCSIArg {
				s.csiArg = s.csiArg*10 + int(b-'0')
			}
		case b == ';' || b == ':':
			s.csiArgs++
		default:
			return i
		}
	}
	return i
}

// control handles a C0 control byte or DEL in the ground state.
func (s *ansiStripper) control(dst []byte, m int, b byte) int {
	switch b {
	case esc:
		s.state = stripEscape
	case '\n', '\v', '\f':
		s.moveRows(1)
		return s.sep(dst, m, '\n')
	case '\r':
		// A carriage return starts the row again: what follows overwrites
		// it, so it is a different piece of text.
		return s.sep(dst, m, '\n')
	case '\t':
		return s.sep(dst, m, ' ')
	}
	return m
}

// inSequence handles one byte inside an escape sequence. It reports
// reprocess when the byte ended the sequence without belonging to it and
// must be read again in the ground state.
func (s *ansiStripper) inSequence(dst []byte, m int, b byte) (int, bool) {
	switch {
	case b == esc:
		// ESC inside any sequence starts a new one; inside a string it is
		// the first byte of ST (ESC \).
		s.state = stripEscape
		return m, false
	case b == can || b == sub:
		s.state = stripGround
		return m, false
	}
	switch s.state {
	case stripEscape:
		return s.escape(dst, m, b)
	case stripEscInter:
		switch {
		case b >= 0x20 && b <= 0x2f:
		case b >= 0x30 && b <= 0x7e:
			s.state = stripGround
		case b >= 0x80:
			s.state = stripGround
			return m, true
		}
	case stripCSI:
		return s.csi(dst, m, b)
	case stripOSC:
		if b == 0x07 {
			s.state = stripGround
		}
	case stripString:
		// Only ST ends these strings; the ESC case above catches it.
	}
	return m, false
}

// escape handles the byte after ESC.
func (s *ansiStripper) escape(dst []byte, m int, b byte) (int, bool) {
	switch {
	case b < 0x20 || b == 0x7f:
		return m, false // controls inside a sequence are ignored
	case b >= 0x80:
		s.state = stripGround
		return m, true
	case b <= 0x2f:
		s.state = stripEscInter
		return m, false
	}
	s.state = stripGround
	switch b {
	case '[':
		s.state = stripCSI
		s.csiOther, s.csiArgs, s.csiArg = false, 0, 0
	case ']':
		s.state = stripOSC
	case 'P', 'X', '^', '_':
		s.state = stripString
	case 'D', 'E': // IND, NEL: next row
		s.moveRows(1)
		return s.sep(dst, m, '\n'), false
	case 'M': // RI: previous row
		s.moveRows(-1)
		return s.sep(dst, m, '\n'), false
	case '8', 'c': // restore cursor, reset: the row is no longer known
		s.rowKnown = false
	}
	return m, false
}

// csi handles one byte of a CSI sequence other than its parameters.
func (s *ansiStripper) csi(dst []byte, m int, b byte) (int, bool) {
	switch {
	case b >= 0x3c && b <= 0x3f, b >= 0x20 && b <= 0x2f:
		s.csiOther = true
	case b >= 0x40 && b <= 0x7e:
		s.state = stripGround
		if !s.csiOther {
			return s.cursor(dst, m, b, s.csiArg), false
		}
	case b >= 0x80:
		s.state = stripGround
		return m, true
	}
	return m, false
}

// cursor applies the final byte of a plain CSI sequence: cursor moves
// become separators, everything else (SGR, erase, modes) disappears.
func (s *ansiStripper) cursor(dst []byte, m int, final byte, arg int) int {
	n := max(arg, 1)
	switch final {
	case 'H', 'f', 'd': // CUP, HVP, VPA: absolute row
		sameRow := s.rowKnown && s.row == n
		s.row, s.rowKnown = n, true
		if sameRow {
			return s.sep(dst, m, ' ')
		}
		return s.sep(dst, m, '\n')
	case 'B', 'E', 'e': // CUD, CNL, VPR
		s.moveRows(n)
		return s.sep(dst, m, '\n')
	case 'A', 'F': // CUU, CPL
		s.moveRows(-n)
		return s.sep(dst, m, '\n')
	case 'C', 'D', 'G', '`', 'a': // along the row
		return s.sep(dst, m, ' ')
	}
	return m
}

func (s *ansiStripper) moveRows(n int) {
	if s.rowKnown {
		s.row += n
	}
}

// sep writes a separator unless one was just written.
func (s *ansiStripper) sep(dst []byte, m int, c byte) int {
	prev := s.last
	if m > 0 {
		prev = dst[m-1]
	}
	if prev == '\n' || prev == c {
		return m
	}
	dst[m] = c
	return m + 1
}

// visibleRunes counts the runes of stripped text b that are neither space
// nor control, and returns how many bytes at its end begin a rune whose
// other bytes have not arrived. Stripped text holds no C0 control but '\n'.
func visibleRunes(b []byte) (count, rest int) {
	rest = cutRune(b)
	b = b[:len(b)-rest]
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		// Eight bytes minus continuation bytes (10xxxxxx), spaces and
		// newlines (the only bytes below 0x21 here; with every high bit
		// set first, no byte borrows from the next): every other byte
		// starts a rune.
		h := x | highBits
		blank := ^(h - eachByte*0x21) &^ x & highBits
		if x&highBits == 0 {
			count += 8 - bits.OnesCount64(blank)
			continue
		}
		continuation := x &^ (x << 1) & highBits
		count += 8 - bits.OnesCount64(continuation|blank)
		var next byte
		if i+8 < len(b) {
			next = b[i+8]
		}
		for leads := maybeInvisible(x, next); leads != 0; leads &= leads - 1 {
			if k := i + bits.TrailingZeros64(leads)/8; invisibleRune(b[k:min(k+3, len(b))]) {
				count--
			}
		}
	}
	for k := i; k < len(b); k++ {
		if c := b[k]; c != ' ' && c != '\n' && (c < 0x80 || c >= 0xc0) && !invisibleRune(b[k:min(k+3, len(b))]) {
			count++
		}
	}
	return count, rest
}

// maybeInvisible marks (by the high bit of each byte) the bytes of x that
// may begin a C1 control or a Unicode space other than ' ': C0..C3 and
// E0..E3 leads but E2 (invisibleRune sorts out C2, E1 and E3 from the
// rest), and E2 followed by 80 or 81. next is the byte after x, 0 at the
// end of the text. Such runes are rare, so the mark is usually zero.
func maybeInvisible(x uint64, next byte) uint64 {
	e2 := zeroBytes(x ^ eachByte*0xe2)
	following := x>>8 | uint64(next)<<56 // the byte after each byte
	return zeroBytes(x&(eachByte*0xdc)^eachByte*0xc0)&^e2 | e2&zeroBytes((following|eachByte)^eachByte*0x81)
}

// zeroBytes sets the high bit of every zero byte of x, and no other bit.
func zeroBytes(x uint64) uint64 {
	const low7 = eachByte * 0x7f
	return ^((x&low7 + low7) | x | low7)
}

// cutRune returns how many bytes at the end of b begin a multi-byte rune
// whose other bytes have not arrived.
func cutRune(b []byte) int {
	for k := len(b) - 1; k >= max(0, len(b)-3); k-- {
		c := b[k]
		if c < 0x80 {
			return 0
		}
		if c < 0xc0 {
			continue // a continuation byte: the lead is further back
		}
		size := 2
		if c >= 0xf0 {
			size = 4
		} else if c >= 0xe0 {
			size = 3
		}
		if k+size > len(b) {
			return len(b) - k
		}
		return 0
	}
	return 0
}

// invisibleRune reports whether r begins with the encoding of a C1
// control or a Unicode space other than ' ', without decoding it.
func invisibleRune(r []byte) bool {
	if len(r) < 2 {
		return false
	}
	if r[0] == 0xc2 { // U+0080..U+009F C1 controls, U+00A0 NO-BREAK SPACE
		return r[1] >= 0x80 && r[1] <= 0xa0
	}
	if len(r) < 3 {
		return false
	}
	switch r[0] {
	case 0xe1: // U+1680 OGHAM SPACE MARK
		return r[1] == 0x9a && r[2] == 0x80
	case 0xe2: // U+2000..U+200A, U+2028, U+2029, U+202F, U+205F
		return r[1] == 0x80 && (r[2] >= 0x80 && r[2] <= 0x8a || r[2] == 0xa8 || r[2] == 0xa9 || r[2] == 0xaf) ||
			r[1] == 0x81 && r[2] == 0x9f
	case 0xe3: // U+3000 IDEOGRAPHIC SPACE
		return r[1] == 0x80 && r[2] == 0x80
	}
	return false
}
