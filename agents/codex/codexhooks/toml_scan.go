package codexhooks

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
)

// A line scanner for config.toml, enough to find the tables and keys of a
// valid document and the bytes each spans, so that codeman edits its own
// hook state as text and leaves every other byte (comments, order, layout)
// as it was. The document is checked with a real TOML parser before and
// after; the scanner only has to be right for valid TOML.

// tomlSection is a [table] or [[array]] header and its body up to the next
// header; the first section is the root, with no header.
type tomlSection struct {
	keys      []string
	array     bool
	header    bool
	start     int // the header line's first byte
	bodyStart int // the first byte after the header line
	end       int // the next header line's first byte, or the end
	entries   []tomlEntry
}

// tomlEntry is one key = value, which may span lines.
type tomlEntry struct {
	keys             []string // the section's keys, then the entry's own
	start, end       int      // from its line's first byte to after the newline ending it
	valStart, valEnd int      // its value, without trailing spaces or comment
}

var errScan = errors.New("unexpected TOML syntax")

type tomlScanner struct {
	data []byte
	i    int
}

// scanTOML splits data into sections and entries.
func scanTOML(data []byte) ([]tomlSection, error) {
	s := &tomlScanner{data: data}
	if bytes.HasPrefix(data, bom) {
		s.i = len(bom)
	}
	secs := []tomlSection{{}}
	for s.i < len(data) {
		lineStart := s.i
		s.skipSpace()
		if s.i >= len(data) {
			break
		}
		switch c := data[s.i]; c {
		case '\n', '\r':
			s.i++
		case '#':
			s.skipLine()
		case '[':
			secs[len(secs)-1].end = lineStart
			sec, err := s.header(lineStart)
			if err != nil {
				return nil, err
			}
			secs = append(secs, sec)
		default:
			cur := &secs[len(secs)-1]
			e, err := s.entry(lineStart, cur.keys)
			if err != nil {
				return nil, err
			}
			cur.entries = append(cur.entries, e)
		}
	}
	secs[len(secs)-1].end = len(data)
	return secs, nil
}

func (s *tomlScanner) header(lineStart int) (tomlSection, error) {
	sec := tomlSection{header: true, start: lineStart}
	s.i++
	if s.peek() == '[' {
		sec.array = true
		s.i++
	}
	keys, err := s.keys(']')
	if err != nil {
		return sec, err
	}
	s.i++
	if sec.array {
		if s.peek() != ']' {
			return sec, s.fail()
		}
		s.i++
	}
	sec.keys = keys
	s.skipLine()
	sec.bodyStart = s.i
	return sec, nil
}

func (s *tomlScanner) entry(lineStart int, section []string) (tomlEntry, error) {
	keys, err := s.keys('=')
	if err != nil {
		return tomlEntry{}, err
	}
	s.i++
	s.skipSpace()
	e := tomlEntry{keys: append(append([]string(nil), section...), keys...), start: lineStart, valStart: s.i}
	if e.valEnd, err = s.value(); err != nil {
		return e, err
	}
	s.skipLine()
	e.end = s.i
	return e, nil
}

// keys reads a dotted key up to stop, which it leaves unread.
func (s *tomlScanner) keys(stop byte) ([]string, error) {
	var keys []string
	for {
		s.skipSpace()
		k, err := s.key()
		if err != nil {
			return nil, err
		}
		keys = append(keys, k)
		s.skipSpace()
		switch s.peek() {
		case '.':
			s.i++
		case stop:
			return keys, nil
		default:
			return nil, s.fail()
		}
	}
}

func (s *tomlScanner) key() (string, error) {
	start := s.i
	switch s.peek() {
	case '"':
		end, err := s.skipString()
		if err != nil {
			return "", err
		}
		s.i = end
		k, err := strconv.Unquote(string(s.data[start:end]))
		if err != nil {
			// An escape TOML has and Go lacks (\e, \x): no key of codeman's.
			return string(s.data[start:end]), nil
		}
		return k, nil
	case '\'':
		end, err := s.skipString()
		if err != nil {
			return "", err
		}
		s.i = end
		return string(s.data[start+1 : end-1]), nil
	}
	for s.i < len(s.data) && isBareKey(s.data[s.i]) {
		s.i++
	}
	if s.i == start {
		return "", s.fail()
	}
	return string(s.data[start:s.i]), nil
}

func isBareKey(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// value skips a value, across lines inside brackets and braces, and
// returns where it ends; it stops at the comment or newline after it.
func (s *tomlScanner) value() (int, error) {
	depth, end := 0, s.i
	for s.i < len(s.data) {
		switch c := s.data[s.i]; c {
		case '"', '\'':
			var err error
			if s.i, err = s.skipString(); err != nil {
				return 0, err
			}
		case '#':
			if depth == 0 {
				return end, nil
			}
			for s.i < len(s.data) && s.data[s.i] != '\n' {
				s.i++
			}
			continue
		case '\n':
			if depth == 0 {
				return end, nil
			}
			s.i++
			continue
		case ' ', '\t', '\r':
			s.i++
			continue
		case '[', '{':
			depth++
			s.i++
		case ']', '}':
			depth--
			s.i++
		default:
			s.i++
		}
		end = s.i
	}
	return end, nil
}

// skipString skips the string at s.i (any of TOML's four kinds) and
// returns the offset after it.
func (s *tomlScanner) skipString() (int, error) {
	q := s.data[s.i]
	escapes := q == '"'
	triple := string([]byte{q, q, q})
	j := s.i
	if len(s.data)-j >= 3 && string(s.data[j:j+3]) == triple {
		for j += 3; j < len(s.data); j++ {
			switch {
			case escapes && s.data[j] == '\\':
				j++
			case len(s.data)-j >= 3 && string(s.data[j:j+3]) == triple:
				j += 3
				// Up to two more quotes belong to the content.
				for n := 0; n < 2 && j < len(s.data) && s.data[j] == q; n++ {
					j++
				}
				return j, nil
			}
		}
		return 0, s.fail()
	}
	for j++; j < len(s.data); j++ {
		switch c := s.data[j]; {
		case escapes && c == '\\':
			j++
		case c == q:
			return j + 1, nil
		case c == '\n':
			return 0, s.fail()
		}
	}
	return 0, s.fail()
}

func (s *tomlScanner) peek() byte {
	if s.i < len(s.data) {
		return s.data[s.i]
	}
	return 0
}

func (s *tomlScanner) skipSpace() {
	for s.i < len(s.data) && (s.data[s.i] == ' ' || s.data[s.i] == '\t') {
		s.i++
	}
}

// skipLine moves past the next newline (or to the end).
func (s *tomlScanner) skipLine() {
	for s.i < len(s.data) && s.data[s.i] != '\n' {
		s.i++
	}
	if s.i < len(s.data) {
		s.i++
	}
}

func (s *tomlScanner) fail() error {
	return fmt.Errorf("%w at byte %d", errScan, s.i)
}
