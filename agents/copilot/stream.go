package copilot

import (
	"unicode/utf8"

	"github.com/codeman-dev/codeman/respawn"
)

// stream reads one pane's raw Copilot output. While a turn runs Copilot
// redraws the footer's spinner every 100-150 ms (○ ◎ ◉ ● ◉ ◎) and
// shimmers the word "Working" a few letters at a time, so the word itself
// seldom comes whole: a chunk that draws ◎ or ◉ is the stream's evidence
// of work (● and ○ also begin transcript rows). A turn's end is the idle
// footer drawn again ("← open sidebar · …") after work was seen. A chunk
// that only advances a tool's elapsed-time counter ("6s"), which ticks
// every second while a permission prompt waits, is cosmetic. It
// allocates nothing once made and is not safe for concurrent use.
type stream struct {
	mode    mode
	partial [utf8.UTFMax]byte // the bytes of a rune split between chunks
	npart   int
	need    int // the length of the rune being read
	idle    matcher
	working bool // the spinner was drawn since the idle footer or Reset
}

func newStream() *stream { return &stream{idle: matcher{pattern: idleFooter}} }

// idleFooter is in the idle footer, and in no working one.
const idleFooter = "open sidebar"

// The parser's modes: text, or inside an escape sequence.
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

// Feed reads one chunk of output.
func (s *stream) Feed(chunk []byte) respawn.ChunkFacts {
	f := respawn.ChunkFacts{Tokens: -1}
	counter, digits := true, false // only a counter's digits and units so far
	for _, b := range chunk {
		r, ok := s.feed(b)
		if !ok {
			continue
		}
		if r == ' ' || r == '\b' || r < 0x20 {
			s.idle.feed(r)
			continue
		}
		f.Visible++
		switch {
		case r == '◎' || r == '◉':
			f.Working, s.working = true, true
		case r >= '0' && r <= '9':
			digits = true
		case r != 's' && r != 'm':
			counter = false
		}
		if s.idle.feed(r) && s.working {
			f.Completion, s.working = true, false
		}
	}
	f.Cosmetic = counter && digits && f.Visible <= maxCounter && !f.Working
	return f
}

// maxCounter is the most runes a tool's elapsed-time counter draws at once
// ("59m", "120s").
const maxCounter = 4

// feed reads one byte and returns the text rune it completes, if any.
func (s *stream) feed(b byte) (rune, bool) {
	switch s.mode {
	case modeEsc:
		switch b {
		case '[':
			s.mode = modeCSI
		case ']', 'P', '_', '^', 'X':
			s.mode = modeString
		default:
			s.mode = modeText
		}
		return 0, false
	case modeCSI:
		if b >= 0x40 && b <= 0x7e {
			s.mode = modeText
		}
		return 0, false
	case modeString:
		switch b {
		case bel:
			s.mode = modeText
		case esc:
			s.mode = modeStringEsc
		}
		return 0, false
	case modeStringEsc:
		s.mode = modeString
		if b == '\\' {
			s.mode = modeText
		}
		return 0, false
	}
	if s.npart > 0 {
		return s.continueRune(b)
	}
	switch {
	case b == esc:
		s.mode = modeEsc
		return 0, false
	case b < utf8.RuneSelf:
		return rune(b), true
	}
	s.need = runeLen(b)
	if s.need == 0 {
		return utf8.RuneError, true
	}
	s.partial[0], s.npart = b, 1
	return 0, false
}

// continueRune adds b to the rune being read.
func (s *stream) continueRune(b byte) (rune, bool) {
	if b&0xc0 != 0x80 {
		// Not a continuation: the rune was cut short; read b afresh.
		s.npart = 0
		return s.feed(b)
	}
	s.partial[s.npart] = b
	s.npart++
	if s.npart < s.need {
		return 0, false
	}
	r, _ := utf8.DecodeRune(s.partial[:s.npart])
	s.npart = 0
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

// Reset forgets the work seen, after codeman typed into the pane. An
// escape sequence or a rune being read stays being read: the byte stream
// goes on.
func (s *stream) Reset() {
	s.working = false
	s.idle.pos = 0
}

// matcher finds an ASCII pattern in a stream of runes.
type matcher struct {
	pattern string
	pos     int
}

// feed reads one rune and reports whether it completed the pattern. The
// pattern's letters never repeat its start, so a mismatch restarts it.
func (m *matcher) feed(r rune) bool {
	switch {
	case r == rune(m.pattern[m.pos]):
		m.pos++
	case r == rune(m.pattern[0]):
		m.pos = 1
	default:
		m.pos = 0
	}
	if m.pos == len(m.pattern) {
		m.pos = 0
		return true
	}
	return false
}
