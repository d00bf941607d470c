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
	return f
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
