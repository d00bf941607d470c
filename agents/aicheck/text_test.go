package aicheck

import (
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"
)

func TestCleanText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"Plain", "✻ Worked for 3s\n❯\u00a0", "✻ Worked for 3s\n❯\u00a0"},
		{"SGR", "\x1b[38;5;246m✻ Baked for 1m 2s\x1b[0m", "✻ Baked for 1m 2s"},
		{"PrivateCSI", "\x1b[?25l\x1b[?2004hready\x1b[2K", "ready"},
		{"OSCTitleBEL", "\x1b]0;✳ Claude Code\x07text", "text"},
		{"OSCHyperlinkST", "\x1b]8;;https://x.dev\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"DCS", "a\x1bP1$r0m\x1b\\b", "ab"},
		{"Charset", "\x1b(Bline\x1b7\x1b8", "line"},
		{"LoneEscape", "cut\x1b", "cut"},
		{"CRLF", "one\r\ntwo\rthree", "one\ntwo\nthree"},
		{"Controls", "bell\x07 back\x08 del\x7f tab\tkept", "bell back del tab\tkept"},
		{"InvalidUTF8", "a\xffb\xe2\x9c", "a\uFFFDb\uFFFD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cleanText(tt.in, maxTextChars); got != tt.want {
				t.Errorf("cleanText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestCleanText_CutsByCharacters(t *testing.T) {
	if got := cleanText("abc✻❯日本", 4); got != "✻❯日本" {
		t.Errorf("got %q, want the last 4 characters", got)
	}
	if got := cleanText("\x1b[1mab\x1b[0mcd", 3); got != "bcd" {
		t.Errorf("got %q, want the last 3 characters after stripping", got)
	}
	if got := cleanText("abc", 0); got != "" {
		t.Errorf("got %q with max 0", got)
	}
}

func TestLastChars_Property(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.String().Draw(t, "s")
		n := rapid.IntRange(0, 40).Draw(t, "n")
		got := lastChars(s, n)
		if !utf8.ValidString(got) || !strings.HasSuffix(s, got) {
			t.Fatalf("lastChars(%q, %d) = %q: not a valid suffix", s, n, got)
		}
		if want := min(n, utf8.RuneCountInString(s)); utf8.RuneCountInString(got) != want {
			t.Fatalf("lastChars(%q, %d) = %q: %d characters, want %d", s, n, got, utf8.RuneCountInString(got), want)
		}
	})
}

func TestCleanText_Property(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := string(rapid.SliceOf(rapid.Byte()).Draw(t, "bytes"))
		n := rapid.IntRange(0, 40).Draw(t, "n")
		got := cleanText(in, n)
		if !utf8.ValidString(got) || utf8.RuneCountInString(got) > n {
			t.Fatalf("cleanText(%q, %d) = %q: invalid or too long", in, n, got)
		}
		if i := strings.IndexFunc(got, func(r rune) bool { return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f }); i >= 0 {
			t.Fatalf("cleanText(%q, %d) = %q keeps a control character at %d", in, n, got, i)
		}
	})
}
