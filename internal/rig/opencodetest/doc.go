// Package opencodetest runs the real OpenCode offline for tests: in a pane
// of a private tmux server (or a window of a GNU screen session in it),
// with a throwaway HOME, against a fakeapi.Server on loopback through
// OpenCode's built-in anthropic provider with a baseURL (docs/opencode.md,
// "Running it offline").
//
// It owns what is particular to OpenCode: the config in
// OPENCODE_CONFIG_CONTENT, the config dir's dependencies seeded from the
// install (without them the start waits two minutes on the registry),
// codeman's own plugin in ~/.config/opencode/plugins with a handler that
// logs what it forwards, the screen predicates.
// The pane itself is an internal/rig/clitest Pane, which does the
// session's teardown, key input, waiting on the rendered screen and the
// log of events:
//
//	s := opencodetest.NewSession(t, opencodetest.Options{RecordEvents: true})
//	s.API().Handle("hello", fakeapi.Reply{Text: "Hi."})
//	s.Type("hello")
//	s.WaitFor(opencodetest.Replied("Hi."), "the reply", 20*time.Second)
//	s.WaitForEvent(opencodetest.Hook("session.idle", start), "session.idle", 5*time.Second)
//
// OpenCode sees only the private server's minimal environment plus what
// the session sets and Options.Env. Every HTTP(S) proxy variable points at
// a closed loopback port, except for loopback itself, and the
// OPENCODE_DISABLE_* variables turn off updates, the models fetch, LSP
// downloads and sharing.
//
// The CLI comes from FindOpenCode: $CODEMAN_E2E_OPENCODE, else the pinned
// version that scripts/install-opencode.sh puts in the user's cache dir.
// NewSession skips the test when the CLI or tmux is missing and under
// -short. Everything waits on conditions with deadlines, and a failed wait
// dumps the pane.
//
// opencodetest is test support: it imports fakeapi, internal/rig/clitest
// and agents/opencode/opencodehooks (codeman's plugin) and nothing else of
// codeman, and only tests may import it.
package opencodetest
