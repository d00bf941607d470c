// Package copilottest runs the real GitHub Copilot CLI offline for tests:
// in a pane of a private tmux server (or a window of a GNU screen session
// in it), with a throwaway HOME and COPILOT_HOME, against a
// fakeopenai.Server on loopback through Copilot's bring-your-own-provider
// mode (docs/copilot.md, "Running it offline").
//
// It owns what is particular to Copilot: the provider environment, the
// project folder trusted in advance in config.json (or left untrusted, so
// that a test sees the trust dialog), the hook recorder in
// $COPILOT_HOME/hooks/rec.json, the shared unpack cache, the screen
// predicates. The pane itself is an internal/rig/clitest Pane, which does
// the session's teardown, key input, waiting on the rendered screen and
// the log of hook calls:
//
//	s := copilottest.NewSession(t, copilottest.Options{RecordHooks: true})
//	s.API().Handle("hello", fakeopenai.Reply{Text: "Hi."})
//	s.Type("hello")
//	s.WaitFor(copilottest.Replied("Hi."), "the reply", 10*time.Second)
//	s.WaitForEvent(copilottest.Hook("agentStop", start), "agentStop", 5*time.Second)
//
// Copilot sees only the private server's minimal environment plus what the
// session sets and Options.Env. Every HTTP(S) proxy variable points at a
// closed loopback port, except for loopback itself, and COPILOT_OFFLINE
// turns off sign-in, telemetry, web tools and updates.
//
// The CLI comes from FindCopilot: $CODEMAN_E2E_COPILOT, else the pinned
// version that scripts/install-copilot.sh puts in the user's cache dir.
// Every session unpacks it into the install's cache dir (CacheHome), so the
// 235 MB unpack is paid once, not per start. NewSession skips the test when
// the CLI or tmux is missing and under -short. Everything waits on
// conditions with deadlines, and a failed wait dumps the pane.
//
// copilottest is test support: it imports fakeopenai and
// internal/rig/clitest and nothing else of codeman, and only tests may
// import it.
package copilottest
