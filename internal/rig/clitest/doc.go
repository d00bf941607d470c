// Package clitest is what tests of a real CLI running in a tmux pane
// share: the session's throwaway files and private tmux server, the pane's
// recorder and asciicast writer with hook markers, key input, waits on the
// screen, the log of the CLI's hook calls and notify runs, and teardown.
//
// internal/rig/claudetest (Claude Code), internal/rig/codextest (the
// Codex CLI) and internal/rig/copilottest (the GitHub Copilot CLI) build
// their sessions on a Pane: each finds its pinned CLI,
// seeds the CLI's config under the pane's HOME, and starts it with the
// environment it needs to run offline against a fake API:
//
//	path := cli.Require(t) // cli, a clitest.CLI, skips without the binary and under -short
//	p := clitest.NewPane(t, clitest.Config{Pkg: "claudetest", Program: "claude"})
//	script, err := p.RecordEvents() // run as "<script> hook" by every hook
//	...write the config into p.Home()...
//	p.Start(clitest.Launch{Env: env, Argv: []string{path}, Ready: ready, Timeout: 30 * time.Second})
//	p.Type("hello")
//	p.WaitFor(func(s string) bool { return strings.Contains(s, "Hi.") }, "the reply", 10*time.Second)
//
// Everything waits on conditions with deadlines, and a failed wait dumps
// the pane and the fake API's requests.
//
// With Launch.Screen the CLI runs in a window of a GNU screen session
// instead, whose display the pane holds as a person's terminal would: the
// same waits, keys and captures, and Address names the window.
//
// clitest is test support: it imports internal/rig/tmuxtest, the fake APIs,
// internal/childenv and internal/rig/wait and nothing else of codeman, and
// only tests may import it.
package clitest
