package codex

import (
	"bytes"

	"github.com/codeman-dev/codeman/respawn"
)

// stream reads one pane's raw Codex output. Codex announces each change
// of its state with "ESC ] 7501 ; state=<state>:app=codex" ended by ST or
// BEL: working when a turn (or /new) starts, done when a turn finished,
// idle, error and blocked (an approval) otherwise. That is the stream's
// strong evidence; the status row's "esc to interrupt", drawn as a turn
// starts, backs it up. It allocates nothing once made and is not safe for
// concurrent use.
type stream struct {
	p parser
	// working: the newest state was working, or the status row was drawn
	// since the newest other state.
	working bool
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
			s.working = true
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
	f.Working = s.working
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
