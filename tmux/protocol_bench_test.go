package tmux

import (
	"bytes"
	"testing"
)

// benchOutput is a realistic %output payload: Claude's TUI redrawing rows
// with SGR sequences, box drawing and CR/LF, escaped as tmux escapes it.
func benchOutput() []byte {
	row := "\x1b[2K\x1b[38;5;174m✻\x1b[39m Cogitating… \x1b[2m(12s · ↓ 1.2k tokens · esc to interrupt)\x1b[22m\r\n" +
		"\x1b[2m│\x1b[22m \x1b[1m❯\x1b[22m\u00a0write a brief progress summary to CLAUDE.md \\ path\\to\\file\r\n"
	return encodeOutput(bytes.Repeat([]byte(row), 16))
}

func BenchmarkAppendDecoded(b *testing.B) {
	src := benchOutput()
	dst := make([]byte, 0, len(src))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		dst = AppendDecoded(dst[:0], src)
	}
}

func BenchmarkParser_Output(b *testing.B) {
	line := append([]byte("%output %3 "), benchOutput()...)
	var p Parser
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Parse(line); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParser_OutputReused is Parser_Output as the control connection
// parses: output decoded into one reused buffer.
func BenchmarkParser_OutputReused(b *testing.B) {
	line := append([]byte("%output %3 "), benchOutput()...)
	p := Parser{reuse: true}
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Parse(line); err != nil {
			b.Fatal(err)
		}
	}
}
