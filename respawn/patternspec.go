package respawn

// PatternSpec is a screen pattern as written in the config file's
// [[pattern]] tables. CompilePatterns turns specs into the detector's table.
type PatternSpec struct {
	Name   string // unique; names a user pattern in errors and decisions
	Kind   string // working, completion, plan_menu, question, permission, dialog, api_error, usage_limit
	Scope  string // "screen" (rendered rows, the default) or "stream" (ANSI-stripped output)
	Regexp string // RE2 syntax, matched against one row (screen) or the rolling window (stream)
	Line   int    // line in the config file, for errors; 0 when unknown
}
