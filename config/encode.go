package config

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Encode prints the effective configuration of a profile ("" for
// [respawn]) as TOML with every key: [respawn] and its two sub-tables,
// [screen], [tmux], [checks], [notify] (with the profile's notify keys),
// then the [[pattern]] tables. Parsing the output gives the same
// configuration.
func (f *File) Encode(w io.Writer, profile string) error {
	cfg, err := f.Profile(profile)
	if err != nil {
		return err
	}
	n := f.Notify
	if n.NotifyPane, err = f.notifyPane(profile); err != nil {
		return err
	}
	var b bytes.Buffer
	if profile != "" {
		fmt.Fprintf(&b, "# The effective configuration of profile %q.\n", profile)
	}
	writeTable(&b, "respawn", reflect.ValueOf(cfg))
	writeTable(&b, "screen", reflect.ValueOf(f.Screen))
	writeTable(&b, "tmux", reflect.ValueOf(f.Tmux))
	writeTable(&b, "checks", reflect.ValueOf(f.Checks))
	writeTable(&b, "notify", reflect.ValueOf(n))
	for _, p := range f.Patterns {
		fmt.Fprintf(&b, "\n[[pattern]]\nname = %s\nkind = %s\nscope = %s\nregexp = %s\n",
			quote(p.Name), quote(p.Kind), quote(p.Scope), quoteRegexp(p.Regexp))
	}
	_, err = w.Write(bytes.TrimPrefix(b.Bytes(), []byte("\n")))
	return err
}

// writeTable prints the table v under header: its keys in field order,
// then its sub-tables.
func writeTable(b *bytes.Buffer, header string, v reflect.Value) {
	fmt.Fprintf(b, "\n[%s]\n", header)
	var subs []int
	writeKeys(b, v, &subs)
	for _, i := range subs {
		writeTable(b, header+"."+tomlName(v.Type().Field(i)), v.Field(i))
	}
}

// writeKeys prints the keys of v, those of its embedded structs in their
// place, and adds the indexes of its sub-tables to subs.
func writeKeys(b *bytes.Buffer, v reflect.Value, subs *[]int) {
	for i := range v.NumField() {
		switch f := v.Type().Field(i); {
		case embedded(f):
			writeKeys(b, v.Field(i), nil) // NotifyPane: keys only
		case f.Type.Kind() == reflect.Struct:
			*subs = append(*subs, i)
		default:
			fmt.Fprintf(b, "%s = %s\n", tomlName(f), formatValue(v.Field(i)))
		}
	}
}

// formatValue prints the value of a key as TOML.
func formatValue(v reflect.Value) string {
	switch {
	case v.Type() == durationType:
		return quote(formatDuration(time.Duration(v.Int())))
	case v.Kind() == reflect.String:
		return quote(v.String())
	case v.Kind() == reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case v.Kind() == reflect.Int:
		return strconv.FormatInt(v.Int(), 10)
	case v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.String:
		quoted := make([]string, v.Len())
		for i := range quoted {
			quoted[i] = quote(v.Index(i).String())
		}
		return "[" + strings.Join(quoted, ", ") + "]"
	default:
		panic(fmt.Sprintf("config key of unsupported type %s", v.Type()))
	}
}

// quote quotes s as a TOML basic string, or as a multi-line basic string
// when it holds newlines so that prompts stay readable.
func quote(s string) string {
	var b strings.Builder
	multiline := strings.Contains(s, "\n")
	if multiline {
		b.WriteString("\"\"\"\n") // TOML drops a newline right after the opening quotes
	} else {
		b.WriteByte('"')
	}
	for i, r := range s {
		switch {
		case r == '"' && multiline && i+1 < len(s) && s[i+1] != '"':
			b.WriteRune(r) // a lone quote cannot end a multi-line string
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n' && multiline, r == '\t':
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	if multiline {
		b.WriteString(`"""`)
	} else {
		b.WriteByte('"')
	}
	return b.String()
}

// quoteRegexp prefers a literal string for a regular expression, so its
// backslashes print as written; it falls back to a basic string.
func quoteRegexp(s string) string {
	for _, r := range s {
		if r == '\'' || r < 0x20 || r == 0x7f || r == utf8.RuneError {
			return quote(s)
		}
	}
	return "'" + s + "'"
}
