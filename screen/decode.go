package screen

import (
	"bytes"
	"strings"

	"github.com/mattn/go-runewidth"
)

// rowDecoder turns one hardcopy row into text and says how many cells of
// the window the row covers.
type rowDecoder func(row []byte) (text string, cells int)

// decoderFor picks the decoder for hardcopies written by screen version v.
func decoderFor(v Version) rowDecoder {
	if v.ExactHardcopy() {
		return decodeUTF8Row
	}
	return decodeLegacyRow
}

// decodeUTF8Row reads a row written by screen 5, which encodes each
// character in the window's encoding (UTF-8 for Claude Code) and leaves
// out the filler cell after a wide character.
func decodeUTF8Row(row []byte) (string, int) {
	text := strings.ToValidUTF8(string(row), "\uFFFD")
	return text, runewidth.StringWidth(text)
}

// splitRows calls fn with each row of a hardcopy, without its newline and
// trailing spaces. screen already drops trailing spaces; trimming again
// keeps rows comparable with tmux's capture-pane.
func splitRows(b []byte, fn func(i int, row []byte)) {
	for i := 0; len(b) > 0; i++ {
		row, rest, _ := bytes.Cut(b, []byte{'\n'})
		fn(i, bytes.TrimRight(row, " "))
		b = rest
	}
}

// countRows returns how many rows splitRows would report.
func countRows(b []byte) int {
	n := bytes.Count(b, []byte{'\n'})
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}
