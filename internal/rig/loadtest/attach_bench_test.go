//go:build linux

package loadtest

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/codeman-dev/codeman/internal/rig/wait"
)

// Targets of BenchmarkAttach, medians of `codeman attach` from the
// process's start to its exit.
const (
	warmAttachTarget = 15 * time.Millisecond
	coldAttachTarget = 60 * time.Millisecond
)

// BenchmarkAttach measures `codeman attach tmux:SOCKET:%N`, the command a
// user runs, end to end (fork, exec, the daemon's work, exit) on the rig:
// an isolated tmux server and the daemon on private paths. The pane runs
// cat, an idle program. It reports the median and p90 of the attaches
// (ms-p50, ms-p90) against the targets (warm 15 ms, cold 60 ms); setting up
// each attach and undoing it are not timed. codeman is built as the tmux
// plugin builds it: the start of the process is part of every attach.
//
//   - Warm/WatchedSession: the daemon already watches another pane of the
//     pane's session, so the attach needs no tmux process at all: every
//     command goes over that session's control connection.
//   - Warm/NewSession: the daemon watches a pane of another session on the
//     server; the pane is read over that session's control connection, and
//     a control client is started for the pane's session.
//   - Warm/FirstOnServer: the daemon runs but watches nothing on the
//     server, so a tmux process finds the pane's session first.
//   - Cold: no daemon runs; the attach starts one and waits for it.
//
// Run it with:
//
//	go test -run '^$' -bench Attach -benchtime 30x ./internal/rig/loadtest
func BenchmarkAttach(b *testing.B) {
	codeman := buildCodeman(b, b.TempDir(), pluginBuildFlags...)
	warm := func(b *testing.B) *rig {
		r := newRig(b, codeman, cpuConfig)
		r.startDaemon()
		r.attach(r.address(r.tmux.NewSession("keep", "cat")))
		return r
	}
	b.Run("Warm/WatchedSession", func(b *testing.B) {
		r := warm(b)
		r.benchAttach(b, warmAttachTarget, func(int) (string, func()) {
			id := strings.TrimSpace(r.tmux.Tmux("new-window", "-d", "-t", "keep", "-P", "-F", "#{pane_id}", "cat"))
			return id, func() { r.detach(r.address(id)); r.tmux.Tmux("kill-pane", "-t", id) }
		})
	})
	b.Run("Warm/NewSession", func(b *testing.B) {
		r := warm(b)
		r.benchAttach(b, warmAttachTarget, r.newSessionPane("n", nil))
	})
	b.Run("Warm/FirstOnServer", func(b *testing.B) {
		r := newRig(b, codeman, cpuConfig)
		r.startDaemon()
		r.benchAttach(b, warmAttachTarget, r.newSessionPane("f", nil))
	})
	b.Run("Cold", func(b *testing.B) {
		r := newRig(b, codeman, cpuConfig)
		adoptOrphans(b)
		b.Cleanup(r.stopStartedDaemon)
		r.benchAttach(b, coldAttachTarget, r.newSessionPane("c", r.stopStartedDaemon))
	})
}

// newSessionPane returns the set-up of benchAttach for a pane in a new
// session named prefix and the iteration; its undo detaches the pane, ends
// the session and calls then, when not nil.
func (r *rig) newSessionPane(prefix string, then func()) func(i int) (string, func()) {
	return func(i int) (string, func()) {
		name := fmt.Sprintf("%s%d", prefix, i)
		id := r.tmux.NewSession(name, "cat")
		return id, func() {
			r.detach(r.address(id))
			r.tmux.Tmux("kill-session", "-t", "="+name)
			if then != nil {
				then()
			}
		}
	}
}

// pluginBuildFlags are the go build flags of tmux-plugin.tmux.
var pluginBuildFlags = []string{"-trimpath", "-ldflags=-s -w", "-tags", "urfave_cli_no_docs"}

// benchAttach times b.N attaches of the panes that pane(i) sets up; undo
// ends what it set up. Only the attach is timed.
func (r *rig) benchAttach(b *testing.B, target time.Duration, pane func(i int) (id string, undo func())) {
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		id, undo := pane(i)
		b.StartTimer()
		start := time.Now()
		r.attach(r.address(id))
		times = append(times, time.Since(start))
		b.StopTimer()
		undo()
	}
	s := Summarize(times)
	b.ReportMetric(float64(s.P50)/float64(time.Millisecond), "ms-p50")
	b.ReportMetric(float64(s.P90)/float64(time.Millisecond), "ms-p90")
	if b.N > 1 {
		b.Logf("%s (target: median under %s); load average %s", s, target, LoadAverage())
	}
}

// detach runs `codeman detach ADDR`.
func (r *rig) detach(addr string) {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, r.codeman, "detach", addr)
	cmd.Env = r.env
	if out, err := cmd.CombinedOutput(); err != nil {
		r.t.Fatalf("codeman detach %s: %v\n%s", addr, err, out)
	}
}

// stopStartedDaemon ends the daemon that an attach started, if one runs:
// SIGTERM to the pid its health names, then a wait until it is gone.
func (r *rig) stopStartedDaemon() {
	r.t.Helper()
	h, err := r.daemonClient().Health(context.Background())
	if err != nil {
		return // none runs
	}
	if err := syscall.Kill(h.PID, syscall.SIGTERM); err != nil && !errors.Is(err, syscall.ESRCH) {
		r.t.Fatalf("stop the codeman daemon (pid %d): %v", h.PID, err)
	}
	wait.For(r.t, fmt.Sprintf("the codeman daemon (pid %d) to exit", h.PID), 10*time.Second, func() bool {
		return exited(h.PID)
	})
	// Reap it: the attach that started it has exited, so it is this
	// process's child (adoptOrphans).
	_, _ = syscall.Wait4(h.PID, nil, syscall.WNOHANG, nil)
}

// adoptOrphans makes this process the reaper of its orphaned descendants
// until the benchmark ends, so that the daemons the attaches start, whose
// parent exits at once, do not stay zombies when init does not reap them.
func adoptOrphans(b *testing.B) {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		b.Logf("the daemons started will be reaped by init: %v", err)
		return
	}
	b.Cleanup(func() { _ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0) })
}

// exited says whether pid is gone or a zombie: not our child, it is reaped
// by whoever adopted it.
func exited(pid int) bool {
	f, err := statFields(pid)
	return err != nil || f[0] == "Z"
}
