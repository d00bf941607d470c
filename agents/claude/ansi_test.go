package claude

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"pgregory.net/rapid"
)

var stripTests = []struct {
	name string
	in   string
	want string
}{
	{"PlainText", "hello world", "hello world"},
	{"SGR", "\x1b[38;5;174mS\x1b[38;5;216mubl\x1b[38;5;174mimating…\x1b[39m", "Sublimating…"},
	{"SGRReset", "a\x1b[mb\x1b[0mc", "abc"},
	{"PrivateMode", "\x1b[?2004h\x1b[?1049hready\x1b[?25l", "ready"},
	{"FocusReport", "a\x1b[Ib\x1b[Oc", "abc"},
	{"OSCTitleBEL", "\x1b]0;✳ Claude Code\x07idle", "idle"},
	{"OSCTitleST", "\x1b]2;title\x1b\\idle", "idle"},
	{"OSCHyperlink", "\x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\ text", "link text"},
	{"DCS", "a\x1bPtmux;\x1b\x1b]52;c;eA==\x07\x1b\\b", "ab"},
	{"APC", "a\x1b_Gi=1;AAAA\x1b\\b", "ab"},
	{"PMAndSOS", "a\x1b^private\x1b\\b\x1bXstart\x1b\\c", "abc"},
	{"TwoByteEscapes", "\x1b7a\x1b8b\x1b=c\x1b>d", "abcd"},
	{"CharsetDesignation", "\x1b(Bbox\x1b)0", "box"},
	{"CANAbortsCSI", "a\x1b[12\x18b", "ab"},
	{"SUBAbortsOSC", "a\x1b]0;title\x1ab", "ab"},
	{"EscapeRestartsSequence", "a\x1b[1\x1b[31mb", "ab"},
	{"ControlsDropped", "a\x00b\x07c\x08d\x7fe", "abcde"},
	{"CRLF", "line one\r\nline two\r\n", "line one\nline two\n"},
	{"CarriageReturnOverwrite", "50%\r75%", "50%\n75%"},
	{"Tab", "a\tb", "a b"},
	{"CUPOtherRows", "\x1b[44;1H✶ Sublimating…\x1b[45;1H  ⎿ Tip", "✶ Sublimating…\n  ⎿ Tip"},
	{"CUPSameRow", "\x1b[44;1H✶\x1b[44;3HSublimating…", "✶ Sublimating…"},
	{"CursorForward", "✶\x1b[1CThinking…", "✶ Thinking…"},
	{"CursorUpDown", "a\x1b[2Ab\x1b[Bc", "a\nb\nc"},
	{"SeparatorsCollapse", "a\r\n\r\n\x1b[5;1H\x1b[6;1Hb\x1b[C\x1b[Cc", "a\nb c"},
	{"ReverseIndex", "a\x1bMb", "a\nb"},
	{"UTF8InsideCSIAborts", "a\x1b[1é", "aé"},
	{"EightBitAfterEsc", "a\x1bé", "aé"},
}

func TestStripANSI(t *testing.T) {
	for _, tt := range stripTests {
		t.Run(tt.name, func(t *testing.T) {
			if got := StripANSI(tt.in); got != tt.want {
				t.Errorf("StripANSI(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// stripInPieces strips input cut at the given offsets, with one stripper.
func stripInPieces(in []byte, cuts ...int) []byte {
	var st ansiStripper
	st.last = '\n'
	var out []byte
	prev := 0
	for _, cut := range append(cuts, len(in)) {
		piece := in[prev:cut]
		for len(piece) > 0 {
			dst := make([]byte, len(piece))
			read, wrote := st.strip(dst, piece)
			out = append(out, dst[:wrote]...)
			piece = piece[read:]
		}
		prev = cut
	}
	return out
}

func TestAnsiStripper_SplitAnywhere(t *testing.T) {
	for _, tt := range stripTests {
		in := []byte(tt.in)
		for cut := 0; cut <= len(in); cut++ {
			if got := string(stripInPieces(in, cut)); got != tt.want {
				t.Errorf("%s cut at %d: %q, want %q", tt.name, cut, got, tt.want)
				break
			}
		}
	}
}

// TestAnsiStripper_RealCaptures strips every .ansi capture and compares it
// with the plain capture of the same screen: the same text, no escapes.
func TestAnsiStripper_RealCaptures(t *testing.T) {
	for _, name := range screenFixtureNames(t, ".ansi") {
		// Derived files have no plain twin; in capture 05 the reply's "●"
		// was drawn between taking the .txt and the .ansi.
		if strings.Contains(name, "derived") || name == "05-just-submitted.ansi" {
			continue
		}
		raw, err := os.ReadFile(filepath.Join(screenDir, name))
		if err != nil {
			t.Fatal(err)
		}
		plain, err := os.ReadFile(filepath.Join(screenDir, name[:len(name)-len(".ansi")]+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		got := squeezeBlankRows(stripInPieces(raw, len(raw)/3, len(raw)/2))
		want := squeezeBlankRows(plain)
		if !bytes.Equal(got, want) {
			at := firstDifference(got, want)
			t.Errorf("%s: stripped text differs from the plain capture at byte %d\n got %q\nwant %q",
				name, at, around(got, at), around(want, at))
		}
	}
}

// squeezeBlankRows drops trailing blanks of each row and empty rows: the
// plain capture has them where the stripper collapses separators.
func squeezeBlankRows(b []byte) []byte {
	var out [][]byte
	for _, row := range bytes.Split(b, []byte("\n")) {
		if row = bytes.TrimRight(row, " "); len(row) > 0 {
			out = append(out, row)
		}
	}
	return bytes.Join(out, []byte("\n"))
}

func firstDifference(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func around(b []byte, at int) []byte { return b[max(0, at-60):min(len(b), at+60)] }

// TestVisibleRunes_MatchesDecoding compares the word-at-a-time count with
// decoding rune by rune, on text made of the runes that matter at every
// alignment.
func TestVisibleRunes_MatchesDecoding(t *testing.T) {
	runes := []string{"a", " ", "\n", "─", "…", "—", "·", "\u00a0", "\u0085", "\u2003", "\u200a", "\u2028",
		"\u202f", "\u205f", "\u3000", "\u1680", "✻", "❯", "é", "😀", "\xe2\x80", "\xe2", "\x80"}
	rapid.Check(t, func(t *rapid.T) {
		text := []byte(strings.Join(rapid.SliceOfN(rapid.SampledFrom(runes), 0, 40).Draw(t, "runes"), ""))
		got, rest := visibleRunes(text)
		if want := decodedVisibleRunes(text[:len(text)-rest]); got != want {
			t.Fatalf("visibleRunes(%q) = %d, decoding counts %d", text, got, want)
		}
	})
}

// decodedVisibleRunes counts what visibleRunes counts, rune by rune: the
// runes that are neither space nor control.
func decodedVisibleRunes(b []byte) int {
	n := 0
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			// A stray byte: a lead byte counts, a continuation byte not.
			if b[i] >= 0xc0 {
				n++
			}
			i++
			continue
		}
		if !unicode.IsSpace(r) && !unicode.IsControl(r) {
			n++
		}
		i += size
	}
	return n
}
