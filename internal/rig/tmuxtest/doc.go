// Package tmuxtest runs isolated tmux servers for tests: each has its own
// -L socket, an empty config (-f /dev/null) unless the test gives one,
// sessions of a fixed 200x50 size, and an environment without the TMUX and
// TMUX_PANE of a developer's session. When the test ends the server is
// killed, after the screen of every pane is logged if the test failed;
// a server that kill-server cannot reach, its socket file removed, is
// killed by pid.
// Tests that need it are skipped, naming tmux, when tmux is missing, and
// under -short.
//
//	srv := tmuxtest.NewServer(t)
//	pane := srv.NewSession("work", "sh", "-c", "echo ready; exec cat")
//	srv.WaitFor(pane, func(s string) bool { return strings.Contains(s, "ready") }, "the ready line", 5*time.Second)
//
// Every test that starts a tmux server uses it: the backend's own tests,
// the daemon's, the plugin's, the simulated session's, and
// internal/rig/clitest, which runs a real CLI (Claude Code, Codex) on a
// server with a config of its own (NewServerWith).
//
// It imports only the leaf helpers internal/childenv and internal/rig/wait
// of codeman, so that package tmux's own tests can use it.
package tmuxtest
