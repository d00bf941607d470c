package opencode

import (
	"github.com/codeman-dev/codeman/internal/termtext"
	"github.com/codeman-dev/codeman/respawn"
)

// stream reads one pane's raw OpenCode output. While a turn runs OpenCode
// redraws its working bar many times a second, moving ■ cells along ⬝
// ones: a chunk that draws either is the stream's evidence of work, the
// only one it gives (the turn's end is the plugin's session.idle, or the
// screen's turn footer and the silence after it). It allocates nothing
// once made and is not safe for concurrent use.
type stream struct {
	p termtext.Parser
}

func newStream() *stream { return &stream{} }

// Feed reads one chunk of output.
func (s *stream) Feed(chunk []byte) respawn.ChunkFacts {
	f := respawn.ChunkFacts{Tokens: -1}
	for _, b := range chunk {
		r, ok := s.p.Feed(b)
		if !ok || r <= ' ' {
			continue
		}
		f.Visible++
		if r == '⬝' || r == '■' {
			f.Working = true
		}
	}
	return f
}

// Reset forgets nothing: the stream keeps no state but the parser's,
// which goes on with the byte stream.
func (s *stream) Reset() {}
