// Package claude reads Claude Code (2.1.328 and 2.1.332, docs/claude-code.md)
// for a respawn controller: its pattern table (Patterns: DefaultPatterns,
// or CompilePatterns with the config file's [[pattern]]s) is the
// respawn.Agent that classifies Claude Code's full-screen TUI, reads its
// output stream (StreamDetector) and names its commands, and
// FindUsageLimit reads the reset time of its usage limits. It only reads
// and names; the controller core decides, as it does for Codex.
//
// The detection design (which rows each kind of pattern is tried on, and
// why the stream only times what the screen says) is in patterns.go.
// Every built-in pattern has a real screen in testdata/screens that it must
// match; testdata/replay holds whole recorded sessions.
package claude
