// Package safetext makes text that an agent or a pane put on screen safe
// to show a person: in a terminal, a notification, a message line.
//
// Such text is hostile. A permission prompt's command, a question, a file
// name or a program's argv[0] can carry terminal escapes (an OSC 52 sets
// the reader's clipboard, \e[2J clears the screen), bidi overrides that
// show a command reordered, and zero-width characters that hide what is
// there. Nothing here drops such a character silently: each is shown as a
// Go escape (\x1b, \u202e), so the person sees that it is there and the
// text cannot act on their terminal.
package safetext

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Line returns s as one line: newlines and tabs become spaces, and every
// other character that could act on a terminal or hide itself is shown as
// an escape.
func Line(s string) string { return clean(s, false) }

// Text is Line for text of several lines: newlines and tabs stay.
func Text(s string) string { return clean(s, true) }

// Safe reports whether s shows as it reads: Text(s) == s.
func Safe(s string) bool {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				return false
			}
		}
		if r != '\n' && r != '\t' && hidden(r) {
			return false
		}
	}
	return true
}

func clean(s string, lines bool) string {
	switch {
	case !lines && strings.ContainsAny(s, "\n\t"):
		s = strings.NewReplacer("\r\n", " ", "\n", " ", "\t", " ").Replace(s)
	case lines && strings.Contains(s, "\r\n"):
		s = strings.ReplaceAll(s, "\r\n", "\n")
	case Safe(s):
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x`)
			b.WriteString(hex2(s[i]))
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case hidden(r):
			b.WriteString(escape(r))
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// hidden reports whether r acts on a terminal or does not show as itself:
// C0 and C1 controls, DEL, format characters (bidi controls, zero-width
// spaces and joiners, the byte-order mark, tag characters), the line and
// paragraph separators, and private-use and unassigned code points.
func hidden(r rune) bool {
	switch {
	case r < 0x20 || r == 0x7f:
		return true
	case r < 0x80:
		return false
	}
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) ||
		unicode.In(r, unicode.Zl, unicode.Zp, unicode.Co, unicode.Cs) ||
		!unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Zs)
}

func escape(r rune) string {
	switch {
	case r < 0x100:
		return `\x` + hex2(byte(r))
	case r < 0x10000:
		return `\u` + pad(strconv.FormatInt(int64(r), 16), 4)
	}
	return `\U` + pad(strconv.FormatInt(int64(r), 16), 8)
}

func hex2(c byte) string { return pad(strconv.FormatInt(int64(c), 16), 2) }

func pad(s string, n int) string { return strings.Repeat("0", n-len(s)) + s }
