package copilot

import (
	"github.com/codeman-dev/codeman/internal/termtext"
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
	p       termtext.Parser
	idle    matcher
	working bool // the spinner was drawn since the idle footer or Reset
}

func newStream() *stream { return &stream{idle: matcher{pattern: idleFooter}} }

// idleFooter is in the idle footer, and in no working one.
const idleFooter = "open sidebar"

// Feed reads one chunk of output.
func (s *stream) Feed(chunk []byte) respawn.ChunkFacts {
	f := respawn.ChunkFacts{Tokens: -1}
	counter, digits := true, false // only a counter's digits and units so far
	for _, b := range chunk {
		r, ok := s.p.Feed(b)
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
