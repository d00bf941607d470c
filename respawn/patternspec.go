package respawn

// PatternSpec is a screen pattern as written in the config file's
// [[pattern]] tables (the toml tags are its keys). Each agent builds its
// reader from the specs (agents.Info.New): Claude Code's pattern table
// takes them after its own (agents/claude.CompilePatterns), an agent
// without a table goes without them.
type PatternSpec struct {
	Name   string `toml:"name"`   // unique; names a user pattern in errors and decisions
	Kind   string `toml:"kind"`   // working, completion, plan_menu, question, permission, dialog, api_error, usage_limit
	Scope  string `toml:"scope"`  // "screen" (rendered rows, the default) or "stream" (ANSI-stripped output)
	Regexp string `toml:"regexp"` // RE2 syntax, matched against one row (screen) or the rolling window (stream)
	Line   int    `toml:"-"`      // line in the config file, for errors; 0 when unknown
}
