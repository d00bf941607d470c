package respawn

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// keyField is one key of a config table: its name in the file (dotted for
// a sub-table) and a pointer to its field in T. The pointer's type says how
// the value is read and written: *string, *bool, *int or *time.Duration.
// One table per struct drives decoding, --set and printing alike.
type keyField[T any] struct {
	name string
	ptr  func(*T) any
}

// configFields lists the keys of [respawn] in the order they are printed.
var configFields = append([]keyField[Config]{
	{"update_prompt", func(c *Config) any { return &c.UpdatePrompt }},
	{"inter_step_delay", func(c *Config) any { return &c.InterStepDelay }},
	{"send_clear", func(c *Config) any { return &c.SendClear }},
	{"send_init", func(c *Config) any { return &c.SendInit }},
	{"kickstart_prompt", func(c *Config) any { return &c.KickstartPrompt }},
	{"completion_confirm", func(c *Config) any { return &c.CompletionConfirm }},
	{"no_output_timeout", func(c *Config) any { return &c.NoOutputTimeout }},
	{"auto_accept_prompts", func(c *Config) any { return &c.AutoAcceptPrompts }},
	{"auto_accept_delay", func(c *Config) any { return &c.AutoAcceptDelay }},
	{"stuck_detection", func(c *Config) any { return &c.StuckDetection }},
	{"stuck_warning", func(c *Config) any { return &c.StuckWarning }},
	{"stuck_recovery", func(c *Config) any { return &c.StuckRecovery }},
	{"max_stuck_recoveries", func(c *Config) any { return &c.MaxStuckRecoveries }},
	{"duration", func(c *Config) any { return &c.Duration }},
	{"resume_prompt", func(c *Config) any { return &c.ResumePrompt }},
	{"usage_limit_margin", func(c *Config) any { return &c.UsageLimitMargin }},
	{"api_error_backoff", func(c *Config) any { return &c.APIErrorBackoff }},
},
	append(
		checkFields("ai_idle_check", func(c *Config) *CheckConfig { return &c.AIIdleCheck }),
		checkFields("ai_plan_check", func(c *Config) *CheckConfig { return &c.AIPlanCheck })...,
	)...,
)

// checkFields lists the keys of one AI check's sub-table of [respawn].
func checkFields(table string, check func(*Config) *CheckConfig) []keyField[Config] {
	return []keyField[Config]{
		{table + ".enabled", func(c *Config) any { return &check(c).Enabled }},
		{table + ".model", func(c *Config) any { return &check(c).Model }},
		{table + ".max_context", func(c *Config) any { return &check(c).MaxContext }},
		{table + ".timeout", func(c *Config) any { return &check(c).Timeout }},
		{table + ".cooldown", func(c *Config) any { return &check(c).Cooldown }},
	}
}

var screenFields = []keyField[ScreenConfig]{
	{"poll_interval", func(s *ScreenConfig) any { return &s.PollInterval }},
	{"send_pause", func(s *ScreenConfig) any { return &s.SendPause }},
	{"enter_retries", func(s *ScreenConfig) any { return &s.EnterRetries }},
}

var tmuxFields = []keyField[TmuxConfig]{
	{"send_pause", func(t *TmuxConfig) any { return &t.SendPause }},
	{"enter_retries", func(t *TmuxConfig) any { return &t.EnterRetries }},
}

var checksFields = []keyField[ChecksConfig]{
	{"claude_path", func(c *ChecksConfig) any { return &c.ClaudePath }},
	{"max_concurrent", func(c *ChecksConfig) any { return &c.MaxConcurrent }},
}

var patternFields = []keyField[PatternSpec]{
	{"name", func(p *PatternSpec) any { return &p.Name }},
	{"kind", func(p *PatternSpec) any { return &p.Kind }},
	{"scope", func(p *PatternSpec) any { return &p.Scope }},
	{"regexp", func(p *PatternSpec) any { return &p.Regexp }},
}

// Set sets one key from its text form, as in `--set key=value`. The key is
// named as in the file, dotted for a sub-table (ai_idle_check.model).
// Durations read "1m30s", booleans true or false. Set checks the syntax
// only; call Validate once every key is set.
func (c *Config) Set(key, value string) error {
	for _, f := range configFields {
		if f.name != key {
			continue
		}
		if err := setFromText(f.ptr(c), value); err != nil {
			return fmt.Errorf("key %q: %w", key, err)
		}
		return nil
	}
	return fmt.Errorf("unknown key %q%s", key, unknownKeyHint(key, fieldNames(configFields)))
}

// fieldNames returns the names of a table's keys.
func fieldNames[T any](fields []keyField[T]) []string {
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.name
	}
	return names
}

// unknownKeyHint suggests the known key closest to a mistyped one, or
// lists them all when none is close.
func unknownKeyHint(key string, known []string) string {
	if near := nearestKey(key, known); near != "" {
		return fmt.Sprintf(" (did you mean %q?)", near)
	}
	return " (known keys: " + strings.Join(known, ", ") + ")"
}

// setFromText parses value into the field ptr points to.
func setFromText(ptr any, value string) error {
	switch p := ptr.(type) {
	case *string:
		*p = value
	case *bool:
		b, err := strconv.ParseBool(value)
		if err != nil {
			return fmt.Errorf("expected true or false, got %q", value)
		}
		*p = b
	case *int:
		n, err := strconv.Atoi(value)
		if err != nil {
			return fmt.Errorf("expected an integer, got %q", value)
		}
		*p = n
	case *time.Duration:
		d, err := parseConfigDuration(value)
		if err != nil {
			return err
		}
		*p = d
	default:
		panic(fmt.Sprintf("config field of unsupported type %T", ptr))
	}
	return nil
}

// setFromTOML stores a decoded TOML value into the field ptr points to,
// checking that the TOML type fits: durations must be strings, so that a
// bare 10 is not taken for 10 nanoseconds.
func setFromTOML(ptr any, raw any) error {
	switch p := ptr.(type) {
	case *string:
		s, ok := raw.(string)
		if !ok {
			return fmt.Errorf("expected a string, got %s", describeTOML(raw))
		}
		// A file saved with CRLF line ends keeps \r in multi-line strings;
		// TOML lets parsers normalize them, and a typed \r would submit
		// half a prompt.
		*p = strings.ReplaceAll(s, "\r\n", "\n")
	case *bool:
		b, ok := raw.(bool)
		if !ok {
			return fmt.Errorf("expected true or false, got %s", describeTOML(raw))
		}
		*p = b
	case *int:
		n, ok := raw.(int64)
		if !ok || int64(int(n)) != n {
			return fmt.Errorf("expected an integer, got %s", describeTOML(raw))
		}
		*p = int(n)
	case *time.Duration:
		s, ok := raw.(string)
		if !ok {
			return fmt.Errorf("expected a duration string such as \"10s\", got %s", describeTOML(raw))
		}
		d, err := parseConfigDuration(s)
		if err != nil {
			return err
		}
		*p = d
	default:
		panic(fmt.Sprintf("config field of unsupported type %T", ptr))
	}
	return nil
}

// describeTOML names a decoded TOML value's type, and shows scalars.
func describeTOML(raw any) string {
	switch v := raw.(type) {
	case string:
		return fmt.Sprintf("string %q", v)
	case bool:
		return fmt.Sprintf("boolean %t", v)
	case int64:
		return fmt.Sprintf("integer %d", v)
	case float64:
		return fmt.Sprintf("float %v", v)
	case map[string]any:
		return "a table"
	case []map[string]any, []any:
		return "an array"
	default:
		return fmt.Sprintf("%v", v)
	}
}

// parseConfigDuration reads a duration such as "1m30s". Its errors name
// the text and the reason without time's own prefix.
func parseConfigDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err == nil {
		return d, nil
	}
	reason := `expected a number and a unit, such as "10s" or "1m30s"`
	switch msg := err.Error(); {
	case strings.Contains(msg, "missing unit"):
		reason = "missing unit"
	case strings.Contains(msg, "unknown unit"):
		reason = "unknown unit (use ms, s, m or h)"
	}
	return 0, fmt.Errorf("invalid duration %q: %s", s, reason)
}

// formatConfigDuration prints a duration as the file writes it: "10m"
// rather than "10m0s".
func formatConfigDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-2]
	}
	return s
}

// formatTOML prints the field ptr points to as a TOML value.
func formatTOML(ptr any) string {
	switch p := ptr.(type) {
	case *string:
		return quoteTOML(*p)
	case *bool:
		return strconv.FormatBool(*p)
	case *int:
		return strconv.Itoa(*p)
	case *time.Duration:
		return quoteTOML(formatConfigDuration(*p))
	default:
		panic(fmt.Sprintf("config field of unsupported type %T", ptr))
	}
}

// quoteTOML quotes s as a TOML basic string, or as a multi-line basic
// string when it holds newlines so that prompts stay readable.
func quoteTOML(s string) string {
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

// quoteTOMLRegexp prefers a literal string for a regular expression, so its
// backslashes print as written; it falls back to a basic string.
func quoteTOMLRegexp(s string) string {
	for _, r := range s {
		if r == '\'' || r < 0x20 || r == 0x7f || r == utf8.RuneError {
			return quoteTOML(s)
		}
	}
	return "'" + s + "'"
}

// Encode prints the effective configuration of a profile ("" for
// [respawn]) as TOML with every key: [respawn] and its two sub-tables,
// [screen], [tmux], [checks], then the [[pattern]] tables. Parsing the
// output gives the same configuration.
func (f *File) Encode(w io.Writer, profile string) error {
	cfg, err := f.Profile(profile)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if profile != "" {
		fmt.Fprintf(&b, "# The effective configuration of profile %q.\n", profile)
	}
	writeTOMLTable(&b, "respawn", configFields, &cfg, "")
	writeTOMLTable(&b, "respawn.ai_idle_check", configFields, &cfg, "ai_idle_check.")
	writeTOMLTable(&b, "respawn.ai_plan_check", configFields, &cfg, "ai_plan_check.")
	writeTOMLTable(&b, "screen", screenFields, &f.Screen, "")
	writeTOMLTable(&b, "tmux", tmuxFields, &f.Tmux, "")
	writeTOMLTable(&b, "checks", checksFields, &f.Checks, "")
	for _, p := range f.Patterns {
		fmt.Fprintf(&b, "\n[[pattern]]\nname = %s\nkind = %s\nscope = %s\nregexp = %s\n",
			quoteTOML(p.Name), quoteTOML(p.Kind), quoteTOML(p.Scope), quoteTOMLRegexp(p.Regexp))
	}
	_, err = w.Write(bytes.TrimPrefix(b.Bytes(), []byte("\n")))
	return err
}

// writeTOMLTable prints one table: the fields whose names start with
// prefix and have no further dot.
func writeTOMLTable[T any](b *bytes.Buffer, header string, fields []keyField[T], v *T, prefix string) {
	fmt.Fprintf(b, "\n[%s]\n", header)
	for _, f := range fields {
		name, ok := strings.CutPrefix(f.name, prefix)
		if !ok || strings.Contains(name, ".") {
			continue
		}
		fmt.Fprintf(b, "%s = %s\n", name, formatTOML(f.ptr(v)))
	}
}

// nearestKey returns the known key within a small edit distance of key,
// for "did you mean" hints; "" when none is close.
func nearestKey(key string, known []string) string {
	best, bestDist := "", 3
	candidates := append([]string(nil), known...)
	sort.Strings(candidates) // ties go to the first name alphabetically
	for _, k := range candidates {
		if d := editDistance(key, k); d < bestDist {
			best, bestDist = k, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between two keys.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
