package config

import (
	"fmt"
	"strings"
)

// Error is a problem in a config file, with the key and line it is on.
// Line 0 means the line is unknown; Key is "" for syntax errors.
type Error struct {
	File string
	Line int
	Key  string // dotted path: "respawn.completion_confirm", "pattern[0].regexp"
	Err  error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	if e.Key != "" {
		fmt.Fprintf(&b, "key %q: ", e.Key)
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }
