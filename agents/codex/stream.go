package codex

import (
	"bytes"

	"github.com/codeman-dev/codeman/respawn"
)

// stream reads one pane's raw Codex output. Codex announces each change
// of its state with "ESC ] 7501 ; state=<state>:app=codex" ended by ST or
// BEL: working when a turn (or /new) starts, done when a turn finished,
// idle, error and blocked (an approval) otherwise. That is the stream's
// strong evidence, and it holds until the next notice. The status row's
// "esc to interrupt" counts only in the chunk that draws it: Codex redraws
// just the cells that change, so the phrase comes once as the row
// appears, and nothing is written when the row goes (an approval prompt
// replaced it 0.7 s after state=blocked in the recordings). It allocates
// nothing once made and is not safe for concurrent use.
type stream struct {
	p       parser
	working bool // the newest state notice said working
}

func newStream() *stream { return &stream{p: newParser()} }

// Feed reads one chunk of output.
func (s *stream) Feed(chunk []byte) respawn.ChunkFacts {
	f := respawn.ChunkFacts{Tokens: -1}
	// Codex blinks the title ("[ ! ] Action Required", "[ . ] …") once a
	// second while an approval waits, for as long as it waits: such a
	// chunk is no output, or the pane would never fall silent. While a
	// turn works the title's spinner is work, the only sign of it while
	// reply text streams.
	title := s.p.mode == modeText && titleOnly(chunk)
	for _, b := range chunk {
		switch s.p.feed(b) {
		case eventVisible:
			f.Visible++
		case eventBusy:
			f.Visible++
			f.Working = true
		case eventState:
			switch st := s.p.state(); {
			case bytes.Equal(st, stateWorking):
				s.working = true
			case bytes.Equal(st, stateDone):
				s.working, f.Completion = false, true
			case len(st) > 0:
				s.working = false
			}
		}
	}
	f.Working = f.Working || s.working
	f.Cosmetic = title && !f.Working
	return f
}

// titleOnly reports whether chunk is nothing but whole window-title
// sequences (OSC 0, 1 or 2, ended by BEL or ST).
func titleOnly(chunk []byte) bool {
	if len(chunk) == 0 {
		return false
	}
	for len(chunk) > 0 {
		if len(chunk) < 4 || chunk[0] != esc || chunk[1] != ']' || chunk[2] < '0' || chunk[2] > '2' || chunk[3] != ';' {
			return false
		}
		end := bytes.IndexAny(chunk[4:], "\a\x1b")
		if end < 0 {
			return false
		}
		end += 4
		switch {
		case chunk[end] == bel:
			chunk = chunk[end+1:]
		case end+1 < len(chunk) && chunk[end+1] == '\\':
			chunk = chunk[end+2:]
		default:
			return false
		}
	}
	return true
}

// Reset forgets the state seen, after codeman typed into the pane. An
// escape sequence or a rune being read stays being read: the byte stream
// goes on.
func (s *stream) Reset() {
	s.working = false
	s.p.busy = 0
}

// The states of OSC 7501 that mean something here; every other one
// (idle, error, blocked, clear) ends work without a turn's end.
var (
	stateWorking = []byte("working")
	stateDone    = []byte("done")
)
