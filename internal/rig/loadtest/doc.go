// Package loadtest measures the codeman daemon from outside, the way it
// runs for a user: the real codeman binary, its daemon as its own process
// on private paths, and many tmux panes that print Claude Code's working
// screen on an isolated tmux server.
//
// It owns the load generator (Printer: a Claude Code screen in a long turn,
// the spinner row redrawn ten times a second, every input byte logged), the
// /proc readings (CPU ticks, VmRSS, VmHWM) and the statistics of the
// report. The measurements themselves are TestLoad in load_test.go; they
// run only when asked for, because they take minutes:
//
//	go test -run TestLoad -v -timeout 30m ./internal/rig/loadtest -load
//
// The CPU measurement watches 50, 100 and 200 working panes with one daemon
// and holds it to a budget per pane (cpu_test.go). BenchmarkAttach
// (attach_bench_test.go) times `codeman attach` end to end on the same rig:
//
//	go test -run '^$' -bench Attach -benchtime 30x ./internal/rig/loadtest
//
// BENCHMARKS.md ("Daemon under load", "Attach latency") has the flags and
// the figures.
//
// The harness is Linux only: it reads /proc and sets termios with Linux
// ioctls. It drives codeman through its binary and its socket API, so it
// imports daemon (the API client and types), respawn (decisions, patterns)
// and the test helpers under internal/; no package imports it.
package loadtest
