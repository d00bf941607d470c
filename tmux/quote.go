package tmux

import (
	"fmt"
	"strings"
)

// tmux reads its arguments under two sets of rules: argv words given to
// the tmux binary, and command lines written to a control client. Each
// rule has one helper here; quote_test.go checks tricky inputs against a
// real server.

// argvWord protects one argv word handed to the tmux binary. tmux splits
// its command line into commands at every word that ends in ';'
// (cmd-parse.y cmd_parse_from_arguments), so "hello;" would lose its ';'
// and start a new command; a word ending in "\;" stands for the same word
// ending in ';'. Nothing else in an argv word is special: no quotes, no $,
// no formats unless the command itself expands them.
func argvWord(s string) string {
	if strings.HasSuffix(s, ";") {
		return s[:len(s)-1] + `\;`
	}
	return s
}

// argvWords applies argvWord to every word of one command.
func argvWords(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = argvWord(a)
	}
	return out
}

// controlWord quotes one word for a control-mode command line, which tmux
// parses like a config file line (cmd-parse.y yylex_token). Plain words
// go bare. Anything else goes in double quotes, where tmux still expands
// $VAR and a leading ~ and honours backslash escapes, so \, ", $ and ~
// are escaped, and a newline or other control byte (which would end the
// line, and an empty line detaches the client) becomes a backslash escape.
func controlWord(s string) string {
	if bareControlWord(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' || c == '"' || c == '$' || c == '~':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\%03o`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// bareControlWord reports whether s may go unquoted on a control-mode
// command line. A bare word that starts with '%' is a %if-style condition
// to tmux unless the rest is all digits ("%3" is fine, "%3:continue" is
// not).
func bareControlWord(s string) bool {
	if s == "" || strings.IndexFunc(s, needsControlQuote) >= 0 {
		return false
	}
	return s[0] != '%' || strings.Trim(s[1:], "0123456789") == ""
}

// needsControlQuote reports whether r may not appear in a bare word of a
// control-mode command line.
func needsControlQuote(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return false
	}
	return !strings.ContainsRune("%@:.,=/+-_", r)
}

// controlLine builds the control-mode command line for one command. The
// result never contains a newline and is never empty.
func controlLine(args []string) (string, error) {
	if len(args) == 0 || args[0] == "" {
		return "", fmt.Errorf("build control command: no command given")
	}
	words := make([]string, len(args))
	for i, a := range args {
		words[i] = controlWord(a)
	}
	return strings.Join(words, " "), nil
}
