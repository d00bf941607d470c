package termtext_test

import (
	"testing"
	"unicode/utf8"

	"github.com/codeman-dev/codeman/internal/termtext"
)

func text(p *termtext.Parser, chunks ...string) string {
	var out []rune
	for _, c := range chunks {
		for i := 0; i < len(c); i++ {
			if r, ok := p.Feed(c[i]); ok {
				out = append(out, r)
			}
		}
	}
	return string(out)
}

// Escape sequences of every kind are skipped, even split between chunks,
// and runes split between chunks come whole.
func TestParser(t *testing.T) {
	for _, tc := range []struct {
		name   string
		chunks []string
		want   string
	}{
		{"Plain", []string{"hello"}, "hello"},
		{"CSI", []string{"\x1b[1;34mblue\x1b[m"}, "blue"},
		{"OSCBel", []string{"\x1b]0;title\x07after"}, "after"},
		{"OSCST", []string{"\x1b]9;4;1;50\x1b\\after"}, "after"},
		{"DCS", []string{"\x1bP>|tmux\x1b\\x"}, "x"},
		{"TwoByteEscape", []string{"\x1b7a\x1b8"}, "a"},
		{"SplitEscape", []string{"\x1b[3", "8;5;2", "00mX"}, "X"},
		{"SplitRune", []string{"a\xe2\x97", "\x8eb"}, "a◎b"},
		{"Controls", []string{"\r\n\b"}, "\r\n\b"},
		{"CutRune", []string{"\xe2\x97x"}, "x"},
		{"BadLead", []string{"\xffx"}, string(utf8.RuneError) + "x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p termtext.Parser
			if got := text(&p, tc.chunks...); got != tc.want {
				t.Errorf("text = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestParser_NoAllocations(t *testing.T) {
	var p termtext.Parser
	chunk := []byte("\x1b[?25l\r\n \x1b[94m◉\x1b[m \x1b[34mWork\x1b[m")
	if n := testing.AllocsPerRun(100, func() {
		for _, b := range chunk {
			p.Feed(b)
		}
	}); n != 0 {
		t.Errorf("%v allocations per chunk, want 0", n)
	}
}
