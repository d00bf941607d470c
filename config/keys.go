package config

import (
	"fmt"
	"reflect"
	"strings"
	"time"
)

// The keys of the file are the toml tags of File and of the types of its
// fields: reading, --set and printing all go by them, so a field added to
// respawn.Config with a tag is a key everywhere. Values are strings,
// booleans, integers and durations, which the file writes as strings.

var durationType = reflect.TypeFor[time.Duration]()

// tomlName returns the key of a struct field, "" for a field that is none.
func tomlName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
	if name == "-" {
		return ""
	}
	return name
}

// field returns the field of struct type t whose key is key, looking into
// embedded structs as the TOML library does; its Index leads there from t.
func field(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		if embedded(f) {
			if sub, ok := field(f.Type, key); ok {
				sub.Index = append([]int{i}, sub.Index...)
				return sub, true
			}
			continue
		}
		if key != "" && tomlName(f) == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// embedded reports whether f is an untagged embedded struct, whose keys
// the TOML library takes as its parent's.
func embedded(f reflect.StructField) bool {
	return f.Anonymous && f.Type.Kind() == reflect.Struct && f.Tag.Get("toml") == ""
}

// keyNames returns the keys of struct type t, in field order.
func keyNames(t reflect.Type) []string {
	var names []string
	for i := range t.NumField() {
		if f := t.Field(i); embedded(f) {
			names = append(names, keyNames(f.Type)...)
		} else if name := tomlName(f); name != "" {
			names = append(names, name)
		}
	}
	return names
}

// settableKeys returns the keys of t with those of its sub-tables, dotted
// (ai_idle_check.model), in field order.
func settableKeys(t reflect.Type) []string {
	var keys []string
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Type.Kind() != reflect.Struct {
			keys = append(keys, tomlName(f))
			continue
		}
		for _, sub := range settableKeys(f.Type) {
			keys = append(keys, tomlName(f)+"."+sub)
		}
	}
	return keys
}

// checkScalar returns why the decoded TOML value v cannot be the value of
// a key of type t, nil when it can: durations must be strings, so that a
// bare 10 is not taken for 10 nanoseconds.
func checkScalar(v any, t reflect.Type) error {
	s, isString := v.(string)
	_, isBool := v.(bool)
	_, isInt := v.(int64)
	switch {
	case t == durationType && isString:
		_, err := parseDuration(s)
		return err
	case t == durationType:
		return fmt.Errorf(`expected a duration string such as "10s", got %s`, describe(v))
	case t.Kind() == reflect.String && !isString:
		return fmt.Errorf("expected a string, got %s", describe(v))
	case t.Kind() == reflect.Bool && !isBool:
		return fmt.Errorf("expected true or false, got %s", describe(v))
	case t.Kind() == reflect.Int && !isInt:
		return fmt.Errorf("expected an integer, got %s", describe(v))
	}
	return nil
}

// describe names a decoded TOML value's type, and shows scalars.
func describe(v any) string {
	switch v := v.(type) {
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

// parseDuration reads a duration such as "1m30s". Its errors name the
// text and the reason without time's own prefix.
func parseDuration(s string) (time.Duration, error) {
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

// formatDuration prints a duration as the file writes it: "10m" rather
// than "10m0s".
func formatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-2]
	}
	return s
}
