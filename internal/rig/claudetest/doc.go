// Package claudetest runs the real Claude Code CLI offline for tests: in a
// pane of a private tmux server, with a throwaway HOME, against a
// fakeapi.Server on loopback (docs/claude-code.md).
//
// It owns what is particular to Claude: the seeded ~/.claude.json and
// settings.json, the hook entries of the hook recorder, the environment,
// the screen predicates. The pane itself is an internal/rig/clitest Pane,
// which does the session's teardown, key input, waiting on the rendered
// screen, the log of Claude's hook calls, and recording the pane's raw
// output as an asciicast v2 file for replay fixtures:
//
//	s := claudetest.NewSession(t, claudetest.Options{RecordHooks: true})
//	s.API().Handle("hello", fakeapi.Reply{Text: "Hi."})
//	s.Type("hello")
//	s.WaitFor(clitest.Contains("Hi."), "the reply", 10*time.Second)
//
// End-to-end tests point codeman at the pane's canonical address
// (Address, tmux:<socket>:<pane id>), run codeman's commands with PaneEnv
// as if typed inside the pane, and install `codeman hook` through
// Options.Settings (merged with the hook recorder's entries). Claude, and
// so every hook it runs, sees only the private server's minimal
// environment (HOME, TMPDIR, PATH, TMUX, TMUX_PANE, ...) plus Options.Env:
// pass XDG_RUNTIME_DIR and the like there.
//
// The CLI comes from FindClaude: $CODEMAN_E2E_CLAUDE, else the pinned
// version that scripts/install-claude.sh puts in the user's cache dir.
// NewSession skips the test when the CLI or tmux is missing and under
// -short. Everything waits on conditions with deadlines, and a failed wait
// dumps the pane.
//
// claudetest is test support: it imports fakeapi and internal/rig/clitest
// and nothing else of codeman, and only tests may import it.
package claudetest
