package config

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/codeman-dev/codeman/respawn"
)

// Set sets one key of c from its text form, as in `--set key=value`. The
// key is named as in the file, dotted for a sub-table
// (ai_idle_check.model). Durations read "1m30s", booleans true or false.
// Set checks the syntax only; call Validate once every key is set.
func Set(c *respawn.Config, key, value string) error {
	known := settableKeys(reflect.TypeFor[respawn.Config]())
	if !slices.Contains(known, key) {
		return fmt.Errorf("unknown key %q%s", key, unknownKeyHint(key, known))
	}
	v := reflect.ValueOf(c).Elem()
	for _, part := range strings.Split(key, ".") {
		f, _ := field(v.Type(), part)
		v = v.FieldByIndex(f.Index)
	}
	if err := setText(v, value); err != nil {
		return fmt.Errorf("key %q: %w", key, err)
	}
	return nil
}

// setText parses text into the value v of a key.
func setText(v reflect.Value, text string) error {
	switch {
	case v.Type() == durationType:
		d, err := parseDuration(text)
		if err != nil {
			return err
		}
		v.SetInt(int64(d))
	case v.Kind() == reflect.String:
		v.SetString(text)
	case v.Kind() == reflect.Bool:
		b, err := strconv.ParseBool(text)
		if err != nil {
			return fmt.Errorf("expected true or false, got %q", text)
		}
		v.SetBool(b)
	case v.Kind() == reflect.Int:
		n, err := strconv.Atoi(text)
		if err != nil {
			return fmt.Errorf("expected an integer, got %q", text)
		}
		v.SetInt(int64(n))
	default:
		panic(fmt.Sprintf("config key of unsupported type %s", v.Type()))
	}
	return nil
}
