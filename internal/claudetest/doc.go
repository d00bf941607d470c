// Package claudetest runs the real Claude Code CLI offline for tests: in a
// pane of a private tmux server, with a throwaway HOME, against a
// fakeapi.Server on loopback (reference/claude-code-tui.md §1–2).
//
// It owns the session's setup and teardown, key input, waiting on the
// rendered screen, a log of Claude's hook calls, and recording the pane's
// raw output as an asciicast v2 file for replay fixtures:
//
//	s := claudetest.NewSession(t, claudetest.Options{RecordHooks: true})
//	s.API().Handle("hello", fakeapi.Reply{Text: "Hi."})
//	s.Type("hello")
//	s.WaitFor(claudetest.Contains("Hi."), "the reply", 10*time.Second)
//
// The session's pane has the canonical address Address(); end-to-end tests
// point codeman at it and install codeman's hooks through Options.Settings.
//
// The CLI comes from FindClaude: $CODEMAN_E2E_CLAUDE, else the pinned
// version that scripts/install-claude.sh puts in the user's cache dir.
// NewSession skips the test when the CLI or tmux is missing and under
// -short. Everything waits on conditions with deadlines, and a failed wait
// dumps the pane.
//
// claudetest is test support: it imports fakeapi and nothing else of
// codeman, and only tests may import it.
package claudetest
