package respawn

// claudeReader is the agent the package's own tests drive the core with:
// Claude Code's reader, since their screens and output are Claude Code's.
// It lives in agents/claude, which imports respawn, so these tests cannot
// import it; claude_test.go, an external test of this directory that can,
// hands it over with UseClaude before any test runs.
var claudeReader Agent

// UseClaude sets the reader the package's own tests drive the core with.
func UseClaude(reader Agent) { claudeReader = reader }
