package config

import (
	"errors"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// line returns the line that defines the key at path, 0 when the file
// does not define it. The library keeps the positions of keys to itself
// and tells one only in the error of a value that refuses to be decoded,
// so the file is decoded once more into a struct that holds such a value
// at path and nothing else (made for the call with reflect.StructOf). The
// error's line is where the value ends; its offset is where it starts, on
// the key's line.
func (p *parser) line(path toml.Key) int {
	t := reflect.TypeFor[refusal]()
	for _, part := range slices.Backward(path) {
		if part == "" || strings.Contains(part, ",") {
			return 0 // not a name a toml tag can hold
		}
		tag := "toml:" + strconv.Quote(part+",") // the comma keeps "-" a name
		t = reflect.StructOf([]reflect.StructField{{Name: "K", Type: t, Tag: reflect.StructTag(tag)}})
	}
	var pe toml.ParseError
	_, err := toml.Decode(p.text, reflect.New(t).Interface())
	if !errors.As(err, &pe) || pe.Position.Line == 0 || pe.Position.Start > len(p.text) { // only the refusal gives a ParseError
		return 0
	}
	return 1 + strings.Count(p.text[:pe.Position.Start], "\n")
}

// lineOf returns the line of the key at path, whose value is v: under
// pattern[i] (patternKey), the line patternKeyLine finds; for a table that
// the file defines only through its keys ([a.b] and a.b = 1 define a,
// which has no line of its own), the first line of those keys; for a key
// no tag can name, its table's line; else line.
func (p *parser) lineOf(path toml.Key, v any) int {
	if m := patternIndex.FindStringSubmatch(path[0]); m != nil {
		i, _ := strconv.Atoi(m[1])
		return p.patternKeyLine(i, strings.Join(path[1:], "."))
	}
	if n := p.line(path); n != 0 {
		return n
	}
	first := 0
	if m, ok := v.(map[string]any); ok {
		for k, sub := range m {
			if n := p.lineOf(append(slices.Clip(path), k), sub); n != 0 && (first == 0 || n < first) {
				first = n
			}
		}
	}
	if last := path[len(path)-1]; first == 0 && len(path) > 1 && (last == "" || strings.Contains(last, ",")) {
		return p.line(path[:len(path)-1])
	}
	return first
}

// refusal is a value that refuses to be decoded, for the position the
// library's error gives.
type refusal struct{}

func (*refusal) UnmarshalTOML(any) error { return errors.New("refused") }

// The lines a [[pattern]] table or an inline table in `pattern = [...]`
// starts on, and a table header; and the name of a pattern (patternKey).
var (
	patternIndex  = regexp.MustCompile(`^pattern\[(\d+)\]$`)
	patternHeader = regexp.MustCompile(`^\s*\[\[\s*pattern\s*\]\]`)
	patternArray  = regexp.MustCompile(`^\s*pattern\s*=\s*\[\s*(\{)?`)
	inlineTable   = regexp.MustCompile(`^\s*\{`)
	arrayEnd      = regexp.MustCompile(`^\s*\]`)
	tableHeader   = regexp.MustCompile(`^\s*\[`)
)

// patternStarts returns the line each pattern starts on, nil when they
// cannot be told apart. The library knows one position per key path,
// which for the elements of an array is the last element's, so they are
// found by a scan of the lines: a [[pattern]] header, or within `pattern =
// [`, a line that opens an inline table. A multi-line string holding such
// a line could fool the scan, so it counts only when it finds as many
// patterns as the library decoded. The scan runs once per file: every
// pattern's line comes from it.
func (p *parser) patternStarts() []int {
	if p.starts == nil {
		p.starts = p.scanPatternStarts()
	}
	if len(p.starts) != p.patterns {
		return nil
	}
	return p.starts
}

func (p *parser) scanPatternStarts() []int {
	starts := []int{}
	inArray := false
	for n, line := range p.lines() {
		switch m := patternArray.FindStringSubmatch(line); {
		case patternHeader.MatchString(line):
			starts, inArray = append(starts, n+1), false
		case m != nil:
			inArray = true
			if m[1] != "" {
				starts = append(starts, n+1)
			}
		case inArray && inlineTable.MatchString(line):
			starts = append(starts, n+1)
		case inArray && (arrayEnd.MatchString(line) || tableHeader.MatchString(line)):
			inArray = false
		}
	}
	return starts
}

// lines returns the file's lines, split once.
func (p *parser) lines() []string {
	if p.split == nil {
		p.split = strings.Split(p.text, "\n")
	}
	return p.split
}

// patternLine returns the line the i-th pattern starts on, else the line
// of the pattern key.
func (p *parser) patternLine(i int) int {
	if starts := p.patternStarts(); i >= 0 && i < len(starts) {
		return starts[i]
	}
	return p.line(toml.Key{"pattern"})
}

// patternKeyLine returns the line of key in the i-th pattern: the first
// line of the pattern that sets it, before the next pattern or table;
// else the pattern's line.
func (p *parser) patternKeyLine(i int, key string) int {
	starts := p.patternStarts()
	if key == "" || i < 0 || i >= len(starts) {
		return p.patternLine(i)
	}
	sets := regexp.MustCompile(`(^|[{,])\s*["']?` + regexp.QuoteMeta(key) + `["']?\s*=`)
	lines := p.lines()
	end := len(lines)
	if i+1 < len(starts) {
		end = starts[i+1] - 1 // the starts are in line order
	}
	for n := starts[i]; n <= end; n++ {
		if n > starts[i] && tableHeader.MatchString(lines[n-1]) {
			break
		}
		if sets.MatchString(lines[n-1]) {
			return n
		}
	}
	return starts[i]
}
