// Package config owns codeman's configuration file,
// $XDG_CONFIG_HOME/codeman/config.toml: its format (File: the [respawn]
// base, the [profile.NAME] tables, [screen], [tmux], [checks], [notify]
// and the user's [[pattern]] tables), reading it (Load, Parse, DefaultPath),
// profiles and the built-in presets (presets.toml, embedded), --set
// values (Set, File.Effective), printing the effective configuration
// (File.Encode, `codeman config print`) and validation, whose errors name
// the file, the line and the key, with "did you mean" for a mistyped key.
//
// It imports respawn, whose Config is what a profile resolves to and whose
// PatternSpec a [[pattern]] table becomes, and notify, whose
// Options and Policy [notify] becomes (File.NotifyOptions,
// File.NotifyPolicy); nothing else of codeman, and neither imports
// config. The toml tags of File and of the types below it are the format:
// Parse checks a file against them and the TOML library
// (github.com/BurntSushi/toml) decodes it over the defaults, a profile
// being a toml.Primitive laid over [respawn] and its preset, and its
// notify sub-table over [notify]. The
// library gives the line of a syntax error; the lines of keys come from the
// library too (see parser.line), except inside [[pattern]] tables, which
// are told apart by a scan of the text (parser.patternStarts).
//
// [notify] holds the daemon's channels and rate limit, one set for all
// panes, and the keys of NotifyPane, which say when a pane's holds
// notify. A profile overrides only those, in [profile.NAME.notify], and a
// channel key there is refused with a pointer to [notify]: every pane's
// notifications go the same ways, and their timing, bell and on/off
// follow the pane's profile.
//
// # Keys of the original controller that are not offered
//
// Configuration that does nothing is not offered:
//
//   - idle_timeout (idleTimeoutMs): only resume() read it, and the presets
//     used it as a label. Resume re-arms the detection timers here, and a
//     preset's idle time became its completion_confirm (presets.toml).
//   - adaptive_timing_enabled, adaptive_min_confirm, adaptive_max_confirm:
//     the adaptive value was computed from cycle samples but no timer ever
//     used it.
//   - confidence_weight_completion/_silence/_tokens/_no_working: they only
//     weighted a number shown in the original's UI; decisions here carry
//     their evidence and reasons instead of a score.
//   - min_idle_confidence: declared and never read.
//   - track_cycle_metrics: the metrics fed only the health score and the
//     unused adaptive timing; cycles are counted in the decision log.
//   - skip_clear_when_low_context, skip_clear_threshold_percent: they
//     compared the last "N tokens" text seen, usually the spinner's
//     per-turn count rather than the context size, against an assumed
//     200k-token window, and so skipped /clear at random. send_clear is the
//     switch that means what it says.
package config
