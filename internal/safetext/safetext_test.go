package safetext

import (
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"
)

func TestLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"rm -rf build", "rm -rf build"},
		{"naïve café ✔️ 日本語", "naïve café ✔️ 日本語"},
		{"two\nlines\tand a tab", "two lines and a tab"},
		{"crlf\r\nend", "crlf end"},
		{"clip \x1b]52;c;ZWNobyBoaQ==\a done", `clip \x1b]52;c;ZWNobyBoaQ==\x07 done`},
		{"\x1b[2Jcleared", `\x1b[2Jcleared`},
		{"C1 \u009b31m", `C1 \x9b31m`},
		{"carriage\rreturn", `carriage\x0dreturn`},
		{"del\x7f", `del\x7f`},
		{"rm -rf /tmp/\u202egpj.sh", `rm -rf /tmp/\u202egpj.sh`},
		{"zero\u200bwidth\ufeff", `zero\u200bwidth\ufeff`},
		{"tag\U000e0041", `tag\U000e0041`},
		{"line\u2028sep", `line\u2028sep`},
		{"private\ue000", `private\ue000`},
		{"bad \xff\xfe bytes", `bad \xff\xfe bytes`},
		{"", ""},
	} {
		if got := Line(tc.in); got != tc.want {
			t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestText_KeepsLines(t *testing.T) {
	if got, want := Text("one\r\n\ttwo\x1b[1m\n"), "one\n\ttwo\\x1b[1m\n"; got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}
}

// Whatever comes in, what goes out cannot act on a terminal, and text
// that was safe already comes out as it went in.
func TestClean_Properties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.OneOf(rapid.String(), rapid.StringOf(rapid.SampledFrom(tricky)), rapid.StringOfN(rapid.Rune(), 0, 40, -1),
			rapid.Map(rapid.SliceOf(rapid.Byte()), func(b []byte) string { return string(b) })).Draw(t, "s")
		line, text := Line(s), Text(s)
		if !Safe(line) || !Safe(text) {
			t.Fatalf("unsafe output: Line %q, Text %q", line, text)
		}
		if strings.ContainsAny(line, "\n\t") {
			t.Fatalf("Line(%q) = %q keeps a line break", s, line)
		}
		if Text(text) != text || Line(line) != line {
			t.Fatalf("cleaning twice changed the text: %q", s)
		}
		if Safe(s) && !strings.Contains(s, "\r\n") && Text(s) != s {
			t.Fatalf("safe %q changed to %q", s, Text(s))
		}
	})
}

// tricky are the characters that matter here, drawn often.
var tricky = []rune{'a', ' ', '\\', 'é', '✔', '\ufe0f', '\n', '\r', '\t', '\x1b', '\a', '\x7f', '\u009b', '\u202e', '\u200b', '\ufeff', '\u2028', '\ue000', '\U000e0041', utf8.RuneError}
