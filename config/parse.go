package config

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"

	"github.com/codeman-dev/codeman/agents/claude"
	"github.com/codeman-dev/codeman/respawn"
)

// Parse parses and validates config.toml text; name is used in errors and
// as Path. Problems come back as *Error, several joined in line order when
// the file has more than one.
//
// The library parses the text (its syntax errors carry their line), then
// the keys and values are checked against File's tags, then the library
// decodes the file over the defaults, and last the values are validated.
func Parse(name string, data []byte) (*File, error) {
	// TOML lets a parser turn CRLF into LF inside multi-line strings, where
	// a typed \r would submit half a prompt; elsewhere it changes nothing.
	p := &parser{name: name, text: strings.ReplaceAll(string(data), "\r\n", "\n")}
	var raw map[string]any
	if _, err := toml.Decode(p.text, &raw); err != nil {
		return nil, p.syntaxError(err)
	}
	p.checkTable(nil, raw, reflect.TypeFor[File]())
	f := Default()
	f.Path = name
	if len(p.errs) == 0 {
		p.decode(f)
	}
	if len(p.errs) == 0 {
		p.validate(f)
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	return f, nil
}

// parser holds one file's text and the problems found in it.
type parser struct {
	name     string
	text     string
	errs     []*Error
	patterns int      // [[pattern]] tables in the file
	starts   []int    // the lines the scan found patterns start on, once scanned
	split    []string // text's lines, once split
}

// document is what the library decodes a checked file into: the tables
// straight into a File that holds the defaults, so a key the file leaves
// out keeps its default, and the profiles undecoded, to be laid over
// [respawn] and their preset, and over [notify], once those are complete.
type document struct {
	Respawn *respawn.Config           `toml:"respawn"`
	Profile map[string]toml.Primitive `toml:"profile"`
	Screen  *Screen                   `toml:"screen"`
	Tmux    *Tmux                     `toml:"tmux"`
	Checks  *Checks                   `toml:"checks"`
	Notify  *Notify                   `toml:"notify"`
	Pattern []respawn.PatternSpec     `toml:"pattern"`
}

func (p *parser) decode(f *File) {
	doc := document{Respawn: &f.Respawn, Screen: &f.Screen, Tmux: &f.Tmux, Checks: &f.Checks, Notify: &f.Notify}
	md, err := toml.Decode(p.text, &doc)
	if len(f.Notify.Command) == 0 { // `command = []` is no command, as no key is
		f.Notify.Command = nil
	}
	for name, table := range doc.Profile {
		pt := profileTable{Config: f.Respawn, Notify: f.Notify.NotifyPane}
		applyPreset(name, &pt.Config)
		err = errors.Join(err, md.PrimitiveDecode(table, &pt)) // keys the table leaves out keep their value
		f.Profiles[name] = pt.Config
		f.ProfileNotify[name] = pt.Notify
	}
	if err != nil { // checkTable lets through nothing the library refuses
		p.errs = append(p.errs, &Error{File: p.name, Err: err})
		return
	}
	for i := range doc.Pattern {
		doc.Pattern[i].Line = p.patternLine(i)
		if doc.Pattern[i].Scope == "" {
			doc.Pattern[i].Scope = "screen"
		}
	}
	if len(doc.Pattern) > 0 { // `pattern = []` leaves none, as no key does
		f.Patterns = doc.Pattern
	}
}

// checkTable checks a table of the file, decoded as the library first
// reads it, against the type t it will be decoded into, and records in the
// file's words what the library would refuse or take wrongly: keys the
// format lacks, values of the wrong TOML type (the library takes a bare 10
// for a duration of 10ns), durations that do not parse, bad profile
// names. path is the table's key, nil for the file itself.
func (p *parser) checkTable(path toml.Key, table map[string]any, t reflect.Type) {
	for _, k := range slices.Sorted(maps.Keys(table)) {
		key := append(slices.Clip(path), k)
		f, ok := field(t, k)
		if !ok {
			p.fail(key, table[k], unknownKey(path, k, t))
			continue
		}
		p.checkValue(key, table[k], f.Type)
	}
}

// checkValue checks the value v of the key at path, of Go type t.
func (p *parser) checkValue(path toml.Key, v any, t reflect.Type) {
	switch t.Kind() {
	case reflect.Struct:
		if m, ok := v.(map[string]any); ok {
			p.checkTable(path, m, t)
		} else {
			p.fail(path, v, fmt.Errorf("expected a table, got %s", describe(v)))
		}
	case reflect.Map: // [profile.NAME], which holds a profileTable
		m, ok := v.(map[string]any)
		if !ok {
			p.fail(path, v, fmt.Errorf("expected a table, got %s", describe(v)))
			return
		}
		for _, name := range slices.Sorted(maps.Keys(m)) {
			key := append(slices.Clip(path), name)
			if !validProfileName().MatchString(name) {
				p.fail(key, m[name], errors.New("profile names may use only letters, digits, '_' and '-'"))
				continue
			}
			p.checkValue(key, m[name], reflect.TypeFor[profileTable]())
		}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.String { // command
			p.checkStrings(path, v)
		} else { // [[pattern]]
			p.checkPatterns(path, v, t.Elem())
		}
	default:
		if err := checkScalar(v, t); err != nil {
			p.fail(path, v, err)
		}
	}
}

// validProfileName keeps profile names to TOML's bare-key characters, so
// they need no quoting in the file, on a command line or in a tmux option.
var validProfileName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]+$`) })

// checkStrings checks an array of strings.
func (p *parser) checkStrings(path toml.Key, v any) {
	a, ok := v.([]any)
	if ok && !slices.ContainsFunc(a, func(e any) bool { _, isString := e.(string); return !isString }) {
		return
	}
	p.fail(path, v, fmt.Errorf(`expected an array of strings such as ["notify-send", "codeman"], got %s`, describe(v)))
}

// checkPatterns checks the [[pattern]] tables, or an inline array of
// tables, each of type t.
func (p *parser) checkPatterns(path toml.Key, v any, t reflect.Type) {
	var tables []any
	switch a := v.(type) {
	case []map[string]any:
		for _, m := range a {
			tables = append(tables, m)
		}
	case []any:
		tables = a
	default:
		p.fail(path, v, fmt.Errorf("expected [[pattern]] tables, got %s", describe(v)))
		return
	}
	p.patterns = len(tables)
	for i, table := range tables {
		if m, ok := table.(map[string]any); ok {
			p.checkTable(patternKey(i), m, t)
		} else {
			p.fail(patternKey(i), nil, fmt.Errorf("expected a table, got %s", describe(table)))
		}
	}
}

// patternKey names the i-th [[pattern]] table as errors name it,
// "pattern[1]"; lineOf finds the lines of keys under such a name.
func patternKey(i int) toml.Key { return toml.Key{fmt.Sprintf("pattern[%d]", i)} }

// unknownKey explains a key the format lacks: with the nearest known key,
// or, for a [respawn] key written before any table header, where it
// belongs.
func unknownKey(table toml.Key, key string, t reflect.Type) error {
	if len(table) == 0 && (slices.Contains(keyNames(reflect.TypeFor[respawn.Config]()), key) || strings.HasPrefix(key, "ai_")) {
		return errors.New("unknown key (it belongs in [respawn])")
	}
	if t == reflect.TypeFor[NotifyPane]() && slices.Contains(keyNames(reflect.TypeFor[Notify]()), key) {
		return errors.New("unknown key (channels and the rate limit are the daemon's: it belongs in [notify])")
	}
	return errors.New("unknown key" + didYouMean(key, keyNames(t)))
}

// validate checks the values of every table once all are decoded.
// Profiles are checked only when [respawn] (or [notify]) is valid, so one
// mistake there is reported once.
func (p *parser) validate(f *File) {
	base := problem(f.Respawn)
	p.invalid(toml.Key{"respawn"}, base)
	for name, c := range f.Profiles {
		if base == nil {
			p.invalid(toml.Key{"profile", name}, problem(c))
		}
	}
	p.invalid(toml.Key{"screen"}, f.Screen.problem())
	p.invalid(toml.Key{"tmux"}, f.Tmux.problem())
	p.invalid(toml.Key{"checks"}, f.Checks.problem())
	notifyBase := f.Notify.problem()
	p.invalid(toml.Key{"notify"}, notifyBase)
	if notifyBase == nil {
		for name, n := range f.ProfileNotify {
			p.invalid(toml.Key{"profile", name, "notify"}, n.problem())
		}
	}
	p.validatePatterns(f.Patterns)
}

// invalid records the problem, if any, of the table at path. The line is
// the key's, else the related key's, else the table's.
func (p *parser) invalid(table toml.Key, pr *keyProblem) {
	if pr == nil {
		return
	}
	key, msg := append(slices.Clip(table), strings.Split(pr.key, ".")...), pr.reason
	line := p.line(key)
	if other := append(slices.Clip(table), strings.Split(pr.other, ".")...); line == 0 && pr.other != "" && p.line(other) != 0 {
		key, line, msg = other, p.line(other), pr.Error()
	}
	if line == 0 {
		line = p.line(table)
	}
	p.errs = append(p.errs, &Error{File: p.name, Line: line, Key: strings.Join(key, "."), Err: errors.New(msg)})
}

// validatePatterns checks each pattern's keys and that names are unique,
// then compiles them with the built-in table, as the daemon will, for the
// rules that span keys (a stream pattern's kind, a regexp matching an
// empty row, a built-in pattern's name).
func (p *parser) validatePatterns(specs []respawn.PatternSpec) {
	seen := map[string]int{}
	failed := false
	for i, spec := range specs {
		pr := patternProblem(spec)
		if j, dup := seen[spec.Name]; pr == nil && dup {
			pr = &keyProblem{key: "name", reason: fmt.Sprintf("must be unique, but pattern[%d] is also named %q", j, spec.Name)}
		}
		if pr != nil {
			p.fail(append(patternKey(i), pr.key), nil, errors.New(pr.reason))
			failed = true
			continue
		}
		seen[spec.Name] = i
	}
	if failed {
		return
	}
	if _, err := claude.CompilePatterns(specs); err != nil {
		var pe *claude.PatternError
		if !errors.As(err, &pe) {
			p.fail(toml.Key{"pattern"}, nil, err)
			return
		}
		p.fail(patternKey(slices.IndexFunc(specs, func(s respawn.PatternSpec) bool { return s.Name == pe.Name })), nil, pe.Err)
	}
}

// fail records a problem with the key at path, whose value is v, at its
// line.
func (p *parser) fail(path toml.Key, v any, err error) {
	p.errs = append(p.errs, &Error{File: p.name, Line: p.lineOf(path, v), Key: strings.Join(path, "."), Err: err})
}

// syntaxError turns the library's parse error into an Error at its line.
func (p *parser) syntaxError(err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return &Error{File: p.name, Line: pe.Position.Line, Err: tomlSyntaxError{pe}}
	}
	return &Error{File: p.name, Err: err}
}

// tomlSyntaxError shows a parse error without its "toml: line N" prefix,
// which Error already gives.
type tomlSyntaxError struct{ toml.ParseError }

func (e tomlSyntaxError) Error() string { return e.Message }
func (e tomlSyntaxError) Unwrap() error { return e.ParseError }

// err returns the problems in line order (unknown lines last).
func (p *parser) err() error {
	slices.SortStableFunc(p.errs, func(a, b *Error) int {
		if (a.Line == 0) != (b.Line == 0) {
			return cmp.Compare(b.Line, a.Line) // the known line first
		}
		return cmp.Or(cmp.Compare(a.Line, b.Line), strings.Compare(a.Key, b.Key))
	})
	switch len(p.errs) {
	case 0:
		return nil
	case 1:
		return p.errs[0]
	}
	errs := make([]error, len(p.errs))
	for i, e := range p.errs {
		errs[i] = e
	}
	return errors.Join(errs...)
}
