// Keys of the original controller that config.toml does not offer
// (configuration that does nothing is not offered):
//
//   - idle_timeout (idleTimeoutMs): only resume() read it, and the presets
//     used it as a label. Resume re-arms the detection timers here, and a
//     preset's idle time became its completion_confirm (presets.go).
//   - adaptive_timing_enabled, adaptive_min_confirm, adaptive_max_confirm:
//     the adaptive value was computed from cycle samples but no timer ever
//     used it.
//   - confidence_weight_completion/_silence/_tokens/_no_working: they only
//     weighted a number shown in the original's UI; decisions here
//     carry their evidence and reasons instead of a score.
//   - min_idle_confidence: declared and never read.
//   - track_cycle_metrics: the metrics fed only the health score and the
//     unused adaptive timing; cycles are counted in the decision log.
//   - skip_clear_when_low_context, skip_clear_threshold_percent: they
//     compared the last "N tokens" text seen, usually the spinner's per-turn
//     count rather than the context size, against an assumed 200k-token
//     window, and so skipped /clear at random. send_clear is
//     the switch that means what it says.

package respawn

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"
)

// File is config.toml: the [respawn] defaults, the user's profiles over
// them, the backend tables and the user's screen patterns.
type File struct {
	Respawn Config
	// Profiles are the user's [profile.NAME] tables, resolved at parse
	// time: [respawn], then the built-in preset of that name if any, then
	// the table.
	Profiles map[string]Config
	Screen   ScreenConfig
	Tmux     TmuxConfig
	Checks   ChecksConfig
	Patterns []PatternSpec
	Path     string // the file read, or that would have been read
}

// ScreenConfig is the [screen] table.
type ScreenConfig struct {
	// PollInterval is how often a window's hardcopy is read, 200ms..10s.
	// Default 1s.
	PollInterval time.Duration
	// SendPause and EnterRetries are as in [tmux], for screen windows.
	SendPause    time.Duration
	EnterRetries int
}

// SendTiming returns how text is typed into a screen window: a hardcopy
// is read at most every 200ms, so the screen is looked at no faster.
func (s ScreenConfig) SendTiming() SendTiming {
	t := DefaultSendTiming()
	t.Pause, t.EnterRetries = s.SendPause, s.EnterRetries
	return t
}

// TmuxConfig is the [tmux] table.
type TmuxConfig struct {
	// SendPause is the pause between typed text and its Enter, 0..5s.
	// Default 100ms.
	SendPause time.Duration
	// EnterRetries is how often Enter is pressed again when the screen did
	// not change, 0..10. Default 3.
	EnterRetries int
}

// SendTiming returns how text is typed into a tmux pane.
func (t TmuxConfig) SendTiming() SendTiming {
	st := DefaultSendTiming()
	st.Pause, st.EnterRetries = t.SendPause, t.EnterRetries
	return st
}

// ChecksConfig is the [checks] table.
type ChecksConfig struct {
	// ClaudePath is the claude binary AI checks run; "" searches PATH.
	ClaudePath string
	// MaxConcurrent bounds the AI checks running at once in the daemon,
	// 1..16. Default 2.
	MaxConcurrent int
}

// Defaults of the backend tables.
const (
	DefaultScreenPollInterval  = 1 * time.Second
	DefaultTmuxSendPause       = DefaultSendPause
	DefaultTmuxEnterRetries    = DefaultEnterRetries
	DefaultMaxConcurrentChecks = 2
)

// validProfileName keeps profile names to TOML's bare-key characters, so
// they need no quoting in the file, on a command line or in a tmux option.
var validProfileName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]+$`) })

// DefaultFile returns the configuration used when there is no file.
func DefaultFile() *File {
	return &File{
		Respawn:  DefaultConfig(),
		Profiles: map[string]Config{},
		Screen:   ScreenConfig{PollInterval: DefaultScreenPollInterval, SendPause: DefaultSendPause, EnterRetries: DefaultEnterRetries},
		Tmux:     TmuxConfig{SendPause: DefaultTmuxSendPause, EnterRetries: DefaultTmuxEnterRetries},
		Checks:   ChecksConfig{MaxConcurrent: DefaultMaxConcurrentChecks},
	}
}

// DefaultConfigPath returns $XDG_CONFIG_HOME/codeman/config.toml, with
// XDG's fallback to ~/.config on every system (macOS included), as tmux
// users expect. The environment is read on each call.
func DefaultConfigPath() string {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if !filepath.IsAbs(dir) { // the XDG spec says to ignore relative paths
		home, _ := os.UserHomeDir() // without $HOME the path is relative to the working directory
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "codeman", "config.toml")
}

// LoadFile reads and validates a config file; "" reads DefaultConfigPath.
// A missing file gives the defaults with Path set.
func LoadFile(path string) (*File, error) {
	if path == "" {
		path = DefaultConfigPath()
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		f := DefaultFile()
		f.Path = path
		return f, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	return ParseFile(path, data)
}

// ParseFile parses and validates config.toml text; name is used in
// errors and as Path. Problems come back as *ConfigError, several joined
// in line order when the file has more than one.
func ParseFile(name string, data []byte) (*File, error) {
	var raw map[string]any
	if _, err := toml.Decode(string(data), &raw); err != nil {
		return nil, syntaxError(name, err)
	}
	d := &fileDecoder{name: name, lines: scanKeyLines(string(data))}
	f := DefaultFile()
	f.Path = name
	profiles := d.decodeFile(raw, f)
	if len(d.errs) == 0 {
		d.resolve(f, profiles)
	}
	if err := d.err(); err != nil {
		return nil, err
	}
	return f, nil
}

// Profile returns the configuration of a profile: "" is [respawn];
// otherwise [respawn] overlaid by the built-in preset of that name, if
// any, overlaid by the user's [profile.NAME], if any.
func (f *File) Profile(name string) (Config, error) {
	if name == "" {
		return f.Respawn, nil
	}
	if c, ok := f.Profiles[name]; ok {
		return c, nil
	}
	if preset, ok := builtinPresets[name]; ok {
		c := f.Respawn
		preset(&c)
		return c, nil
	}
	return Config{}, fmt.Errorf("unknown profile %q (known: %s)", name, strings.Join(f.ProfileNames(), ", "))
}

// ProfileNames returns the built-in presets and the user's profiles,
// sorted.
func (f *File) ProfileNames() []string {
	names := PresetNames()
	for name := range f.Profiles {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// ConfigError is a problem in a config file, with the key and line it is
// on. Line 0 means the line is unknown; Key is "" for syntax errors.
type ConfigError struct {
	File string
	Line int
	Key  string // dotted path: "respawn.completion_confirm", "pattern[0].regexp"
	Err  error
}

func (e *ConfigError) Error() string {
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

func (e *ConfigError) Unwrap() error { return e.Err }

// tomlSyntaxError shows a parser error without its "toml: line N" prefix,
// which ConfigError already gives.
type tomlSyntaxError struct{ toml.ParseError }

func (e tomlSyntaxError) Error() string { return e.Message }
func (e tomlSyntaxError) Unwrap() error { return e.ParseError }

// syntaxError turns a parser error into a ConfigError at the parser's line.
func syntaxError(name string, err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return &ConfigError{File: name, Line: pe.Position.Line, Err: tomlSyntaxError{pe}}
	}
	return &ConfigError{File: name, Err: err}
}

// fileDecoder turns the decoded TOML of one file into a File and collects
// its problems.
type fileDecoder struct {
	name  string
	lines keyLines
	errs  []*ConfigError
}

// fail records a problem with a key, at the key's line.
func (d *fileDecoder) fail(key string, err error) {
	d.errs = append(d.errs, &ConfigError{File: d.name, Line: d.lines[key], Key: key, Err: err})
}

// invalid records a validation problem of the table at path. The line is
// the key's, else the related key's, else the table's.
func (d *fileDecoder) invalid(path string, p *keyProblem) {
	key, msg := path+"."+p.key, p.reason
	line := d.lines[key]
	if other := path + "." + p.other; line == 0 && p.other != "" && d.lines[other] != 0 {
		key, line, msg = other, d.lines[other], p.Error()
	}
	if line == 0 {
		line = d.lines[path]
	}
	d.errs = append(d.errs, &ConfigError{File: d.name, Line: line, Key: key, Err: errors.New(msg)})
}

// err returns the problems in line order (unknown lines last).
func (d *fileDecoder) err() error {
	slices.SortStableFunc(d.errs, func(a, b *ConfigError) int {
		if (a.Line == 0) != (b.Line == 0) {
			return cmp.Compare(b.Line, a.Line) // the known line first
		}
		return cmp.Or(cmp.Compare(a.Line, b.Line), strings.Compare(a.Key, b.Key))
	})
	switch len(d.errs) {
	case 0:
		return nil
	case 1:
		return d.errs[0]
	}
	errs := make([]error, len(d.errs))
	for i, e := range d.errs {
		errs[i] = e
	}
	return errors.Join(errs...)
}

// topLevelKeys are the tables config.toml may hold.
var topLevelKeys = []string{"checks", "pattern", "profile", "respawn", "screen", "tmux"}

// decodeFile reads every table into f and returns the settings of each
// user profile, to be laid over [respawn] once it is complete.
func (d *fileDecoder) decodeFile(raw map[string]any, f *File) map[string][]func(*Config) {
	var profiles map[string][]func(*Config)
	for _, key := range sortedKeys(raw) {
		v := raw[key]
		switch key {
		case "respawn":
			applyAll(&f.Respawn, decodeTable(d, key, "", d.table(key, v), configFields))
		case "profile":
			profiles = d.decodeProfiles(v)
		case "screen":
			applyAll(&f.Screen, decodeTable(d, key, "", d.table(key, v), screenFields))
		case "tmux":
			applyAll(&f.Tmux, decodeTable(d, key, "", d.table(key, v), tmuxFields))
		case "checks":
			applyAll(&f.Checks, decodeTable(d, key, "", d.table(key, v), checksFields))
		case "pattern":
			f.Patterns = d.decodePatterns(v)
		default:
			d.fail(key, errors.New(topLevelHint(key)))
		}
	}
	return profiles
}

// topLevelHint explains an unknown top-level key, the common case being a
// [respawn] key written before any table header.
func topLevelHint(key string) string {
	if slices.Contains(fieldNames(configFields), key) || strings.HasPrefix(key, "ai_") {
		return "unknown key (it belongs in [respawn])"
	}
	return "unknown key" + didYouMean(key, topLevelKeys)
}

// didYouMean suggests the known key closest to a mistyped one, or "".
func didYouMean(key string, known []string) string {
	if near := nearestKey(key, known); near != "" {
		return fmt.Sprintf(" (did you mean %q?)", near)
	}
	return ""
}

// table returns v as a table, recording a problem when it is not one.
func (d *fileDecoder) table(key string, v any) map[string]any {
	t, ok := v.(map[string]any)
	if !ok {
		d.fail(key, fmt.Errorf("expected a table, got %s", describeTOML(v)))
	}
	return t
}

// decodeProfiles reads the [profile.NAME] tables.
func (d *fileDecoder) decodeProfiles(v any) map[string][]func(*Config) {
	profiles := map[string][]func(*Config){}
	all := d.table("profile", v)
	for _, name := range sortedKeys(all) {
		path := "profile." + name
		if !validProfileName().MatchString(name) {
			d.fail(path, errors.New("profile names may use only letters, digits, '_' and '-'"))
			continue
		}
		profiles[name] = decodeTable(d, path, "", d.table(path, all[name]), configFields)
	}
	return profiles
}

// decodePatterns reads the [[pattern]] tables (or an inline array of
// tables). A pattern's scope defaults to "screen".
func (d *fileDecoder) decodePatterns(v any) []PatternSpec {
	var tables []any
	switch t := v.(type) {
	case []map[string]any:
		for _, m := range t {
			tables = append(tables, m)
		}
	case []any:
		tables = t
	default:
		d.fail("pattern", fmt.Errorf("expected [[pattern]] tables, got %s", describeTOML(v)))
	}
	var specs []PatternSpec
	for i, elem := range tables {
		path := fmt.Sprintf("pattern[%d]", i)
		spec := PatternSpec{Line: d.lines[path]}
		applyAll(&spec, decodeTable(d, path, "", d.table(path, elem), patternFields))
		if spec.Scope == "" {
			spec.Scope = "screen"
		}
		specs = append(specs, spec)
	}
	return specs
}

// decodeTable checks the keys of one table (path is its own key path,
// prefix the dotted sub-table being read) and returns a setter for each,
// so profiles can be laid over [respawn] later.
func decodeTable[T any](d *fileDecoder, path, prefix string, raw map[string]any, fields []keyField[T]) []func(*T) {
	var sets []func(*T)
	for _, k := range sortedKeys(raw) {
		name, v := prefix+k, raw[k]
		key := path + "." + name
		i := slices.IndexFunc(fields, func(f keyField[T]) bool { return f.name == name })
		sub, isTable := v.(map[string]any)
		switch {
		case i >= 0:
			f := fields[i]
			var probe T
			if err := setFromTOML(f.ptr(&probe), v); err != nil {
				d.fail(key, err)
				continue
			}
			sets = append(sets, func(t *T) { _ = setFromTOML(f.ptr(t), v) }) // checked on probe above
		case !hasSubTable(fields, name):
			d.fail(key, errors.New("unknown key"+didYouMean(k, tableKeys(fields, prefix))))
		case isTable:
			sets = append(sets, decodeTable(d, path, name+".", sub, fields)...)
		default:
			d.fail(key, fmt.Errorf("expected a table, got %s", describeTOML(v)))
		}
	}
	return sets
}

// hasSubTable reports whether name is a sub-table of fields.
func hasSubTable[T any](fields []keyField[T], name string) bool {
	return slices.ContainsFunc(fields, func(f keyField[T]) bool { return strings.HasPrefix(f.name, name+".") })
}

// tableKeys returns the keys and sub-tables directly under prefix.
func tableKeys[T any](fields []keyField[T], prefix string) []string {
	var keys []string
	for _, f := range fields {
		if rest, ok := strings.CutPrefix(f.name, prefix); ok {
			rest, _, _ = strings.Cut(rest, ".")
			if !slices.Contains(keys, rest) {
				keys = append(keys, rest)
			}
		}
	}
	return keys
}

func applyAll[T any](v *T, sets []func(*T)) {
	for _, set := range sets {
		set(v)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// resolve lays each user profile over [respawn] and its preset, then
// validates every table. Profiles are checked only when [respawn] is
// valid, so one mistake there is reported once.
func (d *fileDecoder) resolve(f *File, profiles map[string][]func(*Config)) {
	p := f.Respawn.problem()
	if p != nil {
		d.invalid("respawn", p)
	}
	respawnOK := p == nil
	for _, name := range sortedKeys(profiles) {
		c := f.Respawn
		if preset, ok := builtinPresets[name]; ok {
			preset(&c)
		}
		applyAll(&c, profiles[name])
		if p := c.problem(); p != nil && respawnOK {
			d.invalid("profile."+name, p)
		}
		f.Profiles[name] = c
	}
	if p := f.Screen.problem(); p != nil {
		d.invalid("screen", p)
	}
	if p := f.Tmux.problem(); p != nil {
		d.invalid("tmux", p)
	}
	if p := f.Checks.problem(); p != nil {
		d.invalid("checks", p)
	}
	d.validatePatterns(f.Patterns)
}

// validatePatterns checks each pattern's keys and that names are unique,
// then compiles them with the built-in table, as the daemon will, for the
// rules that span keys (a stream pattern's kind, a regexp matching an
// empty row, a built-in pattern's name).
func (d *fileDecoder) validatePatterns(specs []PatternSpec) {
	seen := map[string]int{}
	failed := false
	for i, spec := range specs {
		path := fmt.Sprintf("pattern[%d]", i)
		p := patternProblem(spec)
		if j, dup := seen[spec.Name]; p == nil && dup {
			p = &keyProblem{key: "name", reason: fmt.Sprintf("must be unique, but pattern[%d] is also named %q", j, spec.Name)}
		}
		if p != nil {
			d.invalid(path, p)
			failed = true
			continue
		}
		seen[spec.Name] = i
	}
	if failed {
		return
	}
	if _, err := CompilePatterns(specs); err != nil {
		key, line := "pattern", d.lines["pattern"]
		var pe *PatternError
		if errors.As(err, &pe) {
			i := slices.IndexFunc(specs, func(s PatternSpec) bool { return s.Name == pe.Name })
			key, line, err = fmt.Sprintf("pattern[%d]", i), pe.Line, pe.Err
		}
		d.errs = append(d.errs, &ConfigError{File: d.name, Line: line, Key: key, Err: err})
	}
}

// keyLines maps the path of every key and table in a TOML text to the line
// that defines it: "respawn.completion_confirm", "pattern[1].regexp".
// BurntSushi/toml keeps no positions for keys, so errors look their lines
// up here; a key missing from the map has line 0, unknown.
type keyLines map[string]int

// lineScanner walks TOML text that has already parsed, so it only needs to
// follow valid syntax: table headers, keys, and values that may span lines
// (multi-line strings, arrays, inline tables).
type lineScanner struct {
	text   string
	pos    int
	line   int
	lines  keyLines
	arrays map[string]int // [[array]] path -> tables seen so far
	table  string         // path of the current table
}

func scanKeyLines(text string) keyLines {
	s := &lineScanner{text: text, line: 1, lines: keyLines{}, arrays: map[string]int{}}
	for s.skipSpace(true); s.pos < len(s.text); s.skipSpace(true) {
		if s.peek() == '[' {
			s.header()
		} else {
			s.keyValue(s.table)
		}
		s.skipLine()
	}
	return s.lines
}

func (s *lineScanner) peek() byte {
	if s.pos >= len(s.text) {
		return 0
	}
	return s.text[s.pos]
}

// record keeps the first line a path appears on.
func (s *lineScanner) record(path string, line int) {
	if _, ok := s.lines[path]; !ok {
		s.lines[path] = line
	}
}

// skipSpace skips blanks, and with newlines also line ends and comments.
func (s *lineScanner) skipSpace(newlines bool) {
	for s.pos < len(s.text) {
		switch c := s.text[s.pos]; {
		case c == ' ' || c == '\t' || c == '\r':
			s.pos++
		case newlines && c == '\n':
			s.pos++
			s.line++
		case newlines && c == '#':
			for s.pos < len(s.text) && s.text[s.pos] != '\n' {
				s.pos++
			}
		default:
			return
		}
	}
}

// skipLine skips the rest of the line and its newline.
func (s *lineScanner) skipLine() {
	for s.pos < len(s.text) && s.text[s.pos] != '\n' {
		s.pos++
	}
	if s.pos < len(s.text) {
		s.pos++
		s.line++
	}
}

// header reads [table] or [[array]] and makes it the current table.
func (s *lineScanner) header() {
	array := strings.HasPrefix(s.text[s.pos:], "[[")
	s.pos++
	if array {
		s.pos++
	}
	parts := s.keyParts()
	path := ""
	for i, part := range parts {
		path = joinKeyPath(path, part)
		if n, ok := s.arrays[path]; ok && (!array || i < len(parts)-1) {
			path = fmt.Sprintf("%s[%d]", path, n-1) // a table inside the latest array element
		} else if array && i == len(parts)-1 {
			s.arrays[path] = n + 1
			s.record(path, s.line)
			path = fmt.Sprintf("%s[%d]", path, n)
		}
		s.record(path, s.line)
	}
	s.table = path
}

// keyValue reads `key = value` under prefix.
func (s *lineScanner) keyValue(prefix string) {
	line := s.line
	parts := s.keyParts()
	s.skipSpace(false)
	if len(parts) == 0 || s.peek() != '=' {
		return
	}
	s.pos++
	path := prefix
	for _, part := range parts {
		path = joinKeyPath(path, part)
		s.record(path, line)
	}
	s.skipSpace(false)
	s.value(path)
}

// keyParts reads a dotted key of bare and quoted parts.
func (s *lineScanner) keyParts() []string {
	var parts []string
	for {
		s.skipSpace(false)
		part, ok := s.keyPart()
		if !ok {
			return parts
		}
		parts = append(parts, part)
		s.skipSpace(false)
		if s.peek() != '.' {
			return parts
		}
		s.pos++
	}
}

func (s *lineScanner) keyPart() (string, bool) {
	start := s.pos
	switch s.peek() {
	case '"', '\'':
		s.skipString()
		quoted := s.text[start:s.pos]
		if unquoted, err := strconv.Unquote(quoted); err == nil && quoted[0] == '"' {
			return unquoted, true
		}
		return strings.Trim(quoted, `"'`), true // a literal key, or an escape Go does not share
	}
	for s.pos < len(s.text) && isBareKeyChar(s.text[s.pos]) {
		s.pos++
	}
	return s.text[start:s.pos], s.pos > start
}

func isBareKeyChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

func joinKeyPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// value skips one value; the keys of inline tables are recorded under path.
func (s *lineScanner) value(path string) {
	s.record(path, s.line)
	switch s.peek() {
	case '"', '\'':
		s.skipString()
	case '[':
		s.array(path)
	case '{':
		s.inlineTable(path)
	default: // numbers, booleans and dates end at a separator
		for s.pos < len(s.text) && !strings.ContainsRune(",]}#\n", rune(s.text[s.pos])) {
			s.pos++
		}
	}
}

func (s *lineScanner) array(path string) {
	s.pos++
	for i := 0; ; i++ {
		s.skipSpace(true)
		if c := s.peek(); c == ']' || c == 0 {
			s.pos++
			return
		}
		start := s.pos
		s.value(fmt.Sprintf("%s[%d]", path, i))
		s.skipSpace(true)
		if s.peek() == ',' {
			s.pos++
		}
		if s.pos == start {
			s.pos++ // not valid TOML; keep moving
		}
	}
}

func (s *lineScanner) inlineTable(path string) {
	s.pos++
	for {
		s.skipSpace(true) // TOML 1.1 lets inline tables span lines
		switch s.peek() {
		case '}', 0:
			s.pos++
			return
		case ',':
			s.pos++
			continue
		}
		start := s.pos
		s.keyValue(path)
		if s.pos == start {
			s.pos++ // not valid TOML; keep moving
		}
	}
}

// skipString skips a basic or literal string, single- or multi-line,
// counting the lines it spans.
func (s *lineScanner) skipString() {
	quote := s.text[s.pos]
	delim := strings.Repeat(string(quote), 3)
	multiline := strings.HasPrefix(s.text[s.pos:], delim)
	if multiline {
		s.pos += 3
	} else {
		s.pos++
	}
	for s.pos < len(s.text) {
		c := s.text[s.pos]
		switch {
		case c == '\\' && quote == '"':
			s.pos++
			if next := s.peek(); next == '"' || next == '\\' {
				s.pos++
			}
		case c == '\n' && !multiline:
			return
		case c == '\n':
			s.pos++
			s.line++
		case c == quote && !multiline:
			s.pos++
			return
		case strings.HasPrefix(s.text[s.pos:], delim):
			for s.peek() == quote { // up to two quotes before the delimiter belong to the string
				s.pos++
			}
			return
		default:
			s.pos++
		}
	}
}
