package hooks

import (
	"fmt"
	"strings"
)

// HookTimeout is the timeout of codeman's hook entries in seconds, the unit
// Claude Code reads (the original's 10000 meant ms but was read as s). The
// handler itself gives up after 2s.
const HookTimeout = 5

// Entry names one hook entry of codeman's in a settings file: the event and
// the matcher of its group ("" when the group has none). Timeout is what
// Install writes as the hook's timeout; it does not tell entries apart.
type Entry struct {
	Event   string
	Matcher string
	Timeout int // seconds; 0 means HookTimeout
}

func (e Entry) timeout() int {
	if e.Timeout > 0 {
		return e.Timeout
	}
	return HookTimeout
}

func (e Entry) String() string {
	if e.Matcher == "" {
		return e.Event
	}
	return e.Event + " " + e.Matcher
}

// EntryList names entries for a person, in order, each once with how
// many times it comes when more than once: "Stop (3), SessionEnd".
func EntryList(entries []Entry) string {
	var names []string
	count := map[string]int{}
	for _, e := range entries {
		if count[e.String()] == 0 {
			names = append(names, e.String())
		}
		count[e.String()]++
	}
	for i, n := range names {
		if c := count[n]; c > 1 {
			names[i] = fmt.Sprintf("%s (%d)", n, c)
		}
	}
	return strings.Join(names, ", ")
}

// matcherKey folds the spellings Claude Code treats alike: a missing
// matcher, "" and "*" all match everything.
func matcherKey(m string) string {
	if m == "" {
		return "*"
	}
	return m
}

func (e Entry) same(o Entry) bool {
	return e.Event == o.Event && matcherKey(e.Matcher) == matcherKey(o.Matcher)
}

// shellQuote quotes s for sh when it holds anything but plain path
// characters; Claude Code runs hook commands through a shell.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// shellUnquote undoes shellQuote, and plain double quotes.
func shellUnquote(s string) string {
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		return strings.ReplaceAll(s[1:len(s)-1], `'\''`, "'")
	}
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return s[1 : len(s)-1]
	}
	return s
}
