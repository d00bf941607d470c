// Package codextest runs the real OpenAI Codex CLI offline for tests: in a
// pane of a private tmux server, with a throwaway HOME and CODEX_HOME,
// against a fakeopenai.Server on loopback (docs/codex.md).
//
// It owns what is particular to Codex: config.toml with a custom model
// provider, the trusted project dir, trusted hooks and the notify program,
// the environment, the screen predicates. The pane itself is an
// internal/rig/clitest Pane, which does the session's teardown, key input,
// waiting on the rendered screen, the log of Codex's hook calls and notify
// runs, and recording the pane's raw output as an asciicast v2 file for
// fixtures:
//
//	s := codextest.NewSession(t, codextest.Options{RecordHooks: true})
//	s.API().Handle("hello", fakeopenai.Reply{Text: "Hi."})
//	s.Type("hello")
//	s.WaitFor(clitest.Contains("Hi."), "the reply", 10*time.Second)
//
// Codex, and so every hook it runs, sees only the private server's minimal
// environment (HOME, TMPDIR, PATH, TMUX, TMUX_PANE, ...) plus what the
// session sets and Options.Env. Every HTTP(S) proxy variable points at a
// closed loopback port, except for loopback itself, so that nothing reaches
// the network by accident.
//
// The CLI comes from FindCodex: $CODEMAN_E2E_CODEX, else the pinned
// version that scripts/install-codex.sh puts in the user's cache dir.
// NewSession skips the test when the CLI or tmux is missing and under
// -short. Everything waits on conditions with deadlines, and a failed wait
// dumps the pane.
//
// codextest is test support: it imports fakeopenai, internal/rig/clitest
// and agents/codex/codexhooks (the trust keys and hashes) and nothing else
// of codeman, and only tests may import it.
package codextest
