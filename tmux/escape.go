package tmux

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf16"
)

// tmux 3.4 and 3.5 pass everything a command prints (display-message -p,
// list-panes -F, show-options and the rest, through a tmux process and a
// control connection alike) through vis(3) with VIS_OCTAL|VIS_CSTYLE|
// VIS_NOSLASH, and put a backslash before a '$' that starts a variable
// name. tmux 3.6 stopped doing it; capture-pane and show-buffer never did.
// What comes out:
//
//   - printable ASCII, space, tab, newline, valid UTF-8 and '\' itself:
//     as they are (so the escaping cannot be undone exactly: a literal
//     "\033" in a value reads the same as an escaped ESC);
//   - \r \b \a \v \f: as those two-character C escapes; NUL as \0, or
//     \000 when an octal digit follows;
//   - every other byte (other control bytes, DEL, bytes of broken UTF-8):
//     \ooo, three octal digits;
//   - '$' followed by a letter, '_' or '{': \$.
//
// unescapeOutput undoes exactly that. codeman keeps what it must read back
// exactly (its pane options) free of backslashes, so that it never meets
// the ambiguous case; see docs/multiplexers.md.

// escapedFieldSep is fieldSep as tmux 3.4 and 3.5 print it.
const escapedFieldSep = `\037`

// escapesOutput reports whether a tmux server of version v escapes what
// its commands print.
func escapesOutput(v Version) bool {
	return !v.Dev && v.Major == 3 && (v.Minor == 4 || v.Minor == 5)
}

// unescapeOutput returns s as it was before tmux 3.4's escaping.
func unescapeOutput(s string) string {
	i := strings.IndexByte(s, '\\')
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for ; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		if n, width := unescapeAt(s[i+1:]); width > 0 {
			b.WriteByte(n)
			i += width
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// unescapeAt reads the escape that follows a backslash at the start of
// rest: the byte it stands for and how many bytes of rest it took, or 0
// when rest starts no escape (the backslash was printed as it is).
func unescapeAt(rest string) (byte, int) {
	switch rest[0] {
	case 'r':
		return '\r', 1
	case 'b':
		return '\b', 1
	case 'a':
		return '\a', 1
	case 'v':
		return '\v', 1
	case 'f':
		return '\f', 1
	case '$':
		if len(rest) > 1 && startsName(rest[1]) {
			return '$', 1
		}
		return 0, 0
	}
	if len(rest) >= 3 && rest[0] <= '3' && isOctal(rest[0]) && isOctal(rest[1]) && isOctal(rest[2]) {
		return (rest[0]-'0')<<6 | (rest[1]-'0')<<3 | (rest[2] - '0'), 3
	}
	if rest[0] == '0' && (len(rest) == 1 || !isOctal(rest[1])) {
		return 0, 1
	}
	return 0, 0
}

// startsName reports whether c may follow a '$' that tmux 3.4 escapes.
func startsName(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '{'
}

// splitFields splits one line of a format made with fieldSep into n
// fields. It tells a raw reply from an escaped one by itself: with raw
// separators the fields are as printed; with only escaped ones (tmux 3.4
// and 3.5) each field is unescaped. ok is false when neither gives n
// fields, which is also how a stray separator in a field shows.
func splitFields(line string, n int) (fields []string, ok bool) {
	if strings.Count(line, fieldSep) == n-1 {
		return strings.Split(line, fieldSep), true
	}
	if strings.Contains(line, fieldSep) || strings.Count(line, escapedFieldSep) != n-1 {
		return nil, false
	}
	fields = strings.Split(line, escapedFieldSep)
	for i, f := range fields {
		fields[i] = unescapeOutput(f)
	}
	return fields, true
}

// ReadFields expands formats for target (a pane, window or session) in one
// display-message and returns their values, on every tmux release: the
// values of tmux 3.4 and 3.5 are unescaped.
func ReadFields(ctx context.Context, r Runner, target string, formats ...string) ([]string, error) {
	out, err := r.Run(ctx, "display-message", "-p", "-t", target, strings.Join(formats, fieldSep))
	if err != nil {
		return nil, err
	}
	line := strings.TrimSuffix(out, "\n")
	f, ok := splitFields(line, len(formats))
	if !ok {
		return nil, &FieldsError{Line: line, Want: len(formats)}
	}
	return f, nil
}

// FieldsError says that a reply did not split into the fields asked for.
type FieldsError struct {
	Line string
	Want int
}

func (e *FieldsError) Error() string {
	return fmt.Sprintf("read %d fields from %q: a value holds tmux's field separator, or the reply is not one line", e.Want, e.Line)
}

// unescapeFor unescapes out, which r printed, when r's server escapes
// output. Without a backslash in out there is nothing to undo, so most
// reads cost no second command.
func unescapeFor(ctx context.Context, r Runner, out string) (string, error) {
	if !strings.Contains(out, `\`) {
		return out, nil
	}
	v, err := runnerVersion(ctx, r)
	if err != nil {
		return "", err
	}
	if escapesOutput(v) {
		return unescapeOutput(out), nil
	}
	return out, nil
}

// ListValue encodes values as a JSON list for a pane option that codeman
// reads back: everything but printable ASCII, and also '\' and '$', is
// written as a \uXXXX escape, so the text has no byte that tmux 3.4 and
// 3.5 escape when they print it and no backslash their escaping could be
// confused with. encoding/json reads it.
func ListValue(values []string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, v := range values {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('"')
		for _, r := range v {
			if r >= 0x20 && r < 0x7f && r != '"' && r != '\\' && r != '$' {
				b.WriteRune(r)
				continue
			}
			if r > 0xffff {
				r1, r2 := utf16.EncodeRune(r)
				fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
				continue
			}
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		b.WriteByte('"')
	}
	b.WriteByte(']')
	return b.String()
}
