package aicheck

import (
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// maxTextChars bounds the pane text put into a prompt. The caller already
// cut it to the configured context (16000 and 8000 characters by default);
// this only guards against a caller that did not.
const maxTextChars = 100_000

// ansiPattern matches the escape sequences a pane capture may still carry:
// OSC (titles, hyperlinks) ended by BEL or ST, DCS/SOS/PM/APC strings, CSI
// with private parameters (`\x1b[?25l`), the two- and three-byte ESC
// sequences (charset, keypad, save cursor), and a lone ESC left by a cut.
var ansiPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(
		"\x1b\\][^\x07\x1b]*(?:\x07|\x1b\\\\)?" +
			"|\x1b[PX^_][^\x1b]*(?:\x1b\\\\)?" +
			"|\x1b\\[[0-?]*[ -/]*[@-~]" +
			"|\x1b[ -/]*[0-~]" +
			"|\x1b")
})

// controlPattern matches the C0 controls other than tab and newline, and
// DEL, which mean nothing in a picture of the screen.
var controlPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("[\x00-\x08\x0b-\x1f\x7f]") })

// cleanText makes pane text safe to embed in a prompt: valid UTF-8, no
// escape sequences or control characters, CR line ends turned into LF, and
// at most max characters, the last ones, never cut inside a UTF-8 sequence.
func cleanText(text string, max int) string {
	text = strings.ToValidUTF8(text, "\uFFFD")
	text = ansiPattern().ReplaceAllString(text, "")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	text = controlPattern().ReplaceAllString(text, "")
	return lastChars(text, max)
}

// lastChars returns the last n characters (runes) of s.
func lastChars(s string, n int) string {
	i := len(s)
	for count := 0; i > 0 && count < n; count++ {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
	}
	return s[i:]
}
