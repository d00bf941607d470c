package config

import (
	_ "embed"
	"maps"
	"slices"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/codeman-dev/codeman/respawn"
)

// presetsTOML holds the built-in profiles, one table each with keys of
// [respawn]; its comment says where they come from.
//
//go:embed presets.toml
var presetsTOML string

// presetNoOutputMargin is how far no_output_timeout stays above a preset's
// completion_confirm.
const presetNoOutputMargin = 20 * time.Second

// presets parses presets.toml into its tables, kept undecoded to be laid
// over any [respawn]. Each call parses anew: PrimitiveDecode writes to the
// MetaData, and the file is small. The tests check it as a user's profiles
// are checked.
func presets() (toml.MetaData, map[string]toml.Primitive) {
	var tables map[string]toml.Primitive
	md, err := toml.Decode(presetsTOML, &tables)
	if err != nil {
		panic("config: presets.toml: " + err.Error())
	}
	return md, tables
}

// PresetNames returns the names of the built-in presets, sorted.
func PresetNames() []string {
	_, tables := presets()
	return slices.Sorted(maps.Keys(tables))
}

// applyPreset lays the built-in preset name over c, then keeps
// no_output_timeout presetNoOutputMargin above completion_confirm, so the
// no-output fallback cannot fire before a completion line could be
// confirmed. It reports whether there is such a preset.
func applyPreset(name string, c *respawn.Config) bool {
	md, tables := presets()
	table, ok := tables[name]
	if !ok {
		return false
	}
	if err := md.PrimitiveDecode(table, c); err != nil {
		panic("config: presets.toml: " + err.Error())
	}
	c.NoOutputTimeout = max(c.NoOutputTimeout, c.CompletionConfirm+presetNoOutputMargin)
	return true
}
