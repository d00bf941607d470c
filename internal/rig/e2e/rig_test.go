package e2e

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/daemon"
	"github.com/codeman-dev/codeman/internal/rig/wait"
	"github.com/codeman-dev/codeman/respawn"
)

// Timeouts of the rig's own waits.
const (
	daemonStartTimeout = 15 * time.Second
	daemonStopTimeout  = 10 * time.Second
	apiCallTimeout     = 5 * time.Second
)

// rig is one codeman daemon on private paths: a runtime dir for its socket
// and the hook spool, a state dir, a config dir with testConfig, and the
// hook wrapper. The daemon runs in this process (startDaemon) or as the
// real binary (startBinary).
type rig struct {
	t      *testing.T
	dir    string            // short private root
	env    map[string]string // environment of the daemon, the CLI and the hook handler
	paths  api.Paths
	config string // config.toml
	client *api.Client
	stop   func() // stops the running daemon, nil when none runs
	// screen starts the sessions in a window of a GNU screen session
	// instead of a tmux pane (clitest.Launch.Screen).
	screen bool
}

// newRig is the rig of the Claude Code scenarios: testConfig.
func newRig(t *testing.T) *rig {
	t.Helper()
	claude := requireE2E(t)
	return newRigWithConfig(t, testConfig(claude))
}

// newRigWithConfig lays out a rig whose config.toml holds config.
func newRigWithConfig(t *testing.T, config string) *rig {
	t.Helper()
	// A short root of our own: the socket path must fit sun_path (108 bytes).
	dir, err := os.MkdirTemp("", "e2e")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	r := &rig{t: t, dir: dir, env: map[string]string{
		"HOME":            filepath.Join(dir, "home"),
		"PATH":            os.Getenv("PATH"),
		"XDG_RUNTIME_DIR": filepath.Join(dir, "run"),
		"XDG_STATE_HOME":  filepath.Join(dir, "state"),
		"XDG_CONFIG_HOME": filepath.Join(dir, "config"),
		"LANG":            "C.UTF-8",
		"TZ":              "UTC",
	}}
	r.config = filepath.Join(r.env["XDG_CONFIG_HOME"], "codeman", "config.toml")
	for _, d := range []string{r.env["HOME"], r.env["XDG_RUNTIME_DIR"], filepath.Dir(r.config), filepath.Join(dir, "bin")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(r.config, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	if r.paths, err = api.DefaultPaths(r.getenv); err != nil {
		t.Fatal(err)
	}
	r.client = api.NewClient(r.paths.Socket)
	r.writeHookWrapper()
	t.Cleanup(r.stopDaemon)
	return r
}

func (r *rig) getenv(key string) string { return r.env[key] }

// environ is r.env as a process environment.
func (r *rig) environ() []string {
	env := make([]string, 0, len(r.env))
	for k, v := range r.env {
		env = append(env, k+"="+v)
	}
	sort.Strings(env)
	return env
}

// hookWrapper is the path of the script Claude runs as `codeman hook`. It
// is named codeman so that codeman's installer and status recognise the
// entries as its own.
func (r *rig) hookWrapper() string { return filepath.Join(r.dir, "bin", "codeman") }

// writeHookWrapper writes hookWrapper: it runs this test binary, which
// TestMain turns into the hook handler.
func (r *rig) writeHookWrapper() {
	exe, err := os.Executable()
	if err != nil {
		r.t.Fatal(err)
	}
	script := "#!/bin/sh\n# codeman's hook handler in the end-to-end tests: the test binary, dispatched by TestMain.\n" +
		roleVar + "=hook exec " + shellQuote(exe) + " \"$@\"\n"
	if err := os.WriteFile(r.hookWrapper(), []byte(script), 0o700); err != nil {
		r.t.Fatal(err)
	}
}

// startDaemon runs a daemon in this process until stopDaemon or the test's
// end. checker nil means the one the config describes.
func (r *rig) startDaemon(checker respawn.Checker) {
	r.t.Helper()
	logFile, err := os.OpenFile(filepath.Join(r.dir, "daemon.log"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		r.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	d := daemon.New(daemon.Options{
		Paths: r.paths, ConfigPath: r.config, Version: "e2e", Env: r.getenv, Checker: checker,
		Liveness: 500 * time.Millisecond,
		Logger:   slog.New(slog.NewTextHandler(logFile, &slog.HandlerOptions{Level: slog.LevelDebug})),
	})
	exited := make(chan struct{})
	var runErr error
	go func() {
		runErr = d.Run(ctx)
		close(exited)
	}()
	r.stop = func() {
		cancel()
		select {
		case <-exited:
			if runErr != nil {
				r.t.Errorf("daemon: %v", runErr)
			}
		case <-time.After(daemonStopTimeout):
			r.t.Errorf("daemon: still running %s after its context ended", daemonStopTimeout)
		}
		logFile.Close()
	}
	r.waitHealthy(func() error {
		select {
		case <-exited:
			return fmt.Errorf("daemon stopped: %v", runErr)
		default:
			return nil
		}
	})
}

// startBinary runs the real codeman binary as the daemon, with the rig's
// environment, and returns its process.
func (r *rig) startBinary(bin string) *exec.Cmd {
	r.t.Helper()
	out, err := os.OpenFile(filepath.Join(r.dir, "daemon.out"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		r.t.Fatal(err)
	}
	defer out.Close() // the child has its own copy
	cmd := exec.Command(bin, "daemon")
	cmd.Env, cmd.Stdout, cmd.Stderr = r.environ(), out, out
	if err := cmd.Start(); err != nil {
		r.t.Fatalf("start codeman daemon: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	r.stop = func() {
		cmd.Process.Signal(syscall.SIGTERM) // it may be gone already
		select {
		case <-exited:
		case <-time.After(daemonStopTimeout):
			r.t.Errorf("codeman daemon: still running %s after SIGTERM; killed", daemonStopTimeout)
			cmd.Process.Kill()
			<-exited
		}
	}
	r.waitHealthy(func() error {
		select {
		case err := <-exited:
			return fmt.Errorf("codeman daemon exited: %v", err)
		default:
			return nil
		}
	})
	return cmd
}

// kill9 kills the daemon process started by startBinary with SIGKILL and
// waits for it to be gone.
func (r *rig) kill9(cmd *exec.Cmd) {
	r.t.Helper()
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		r.t.Fatalf("kill -9 codeman daemon: %v", err)
	}
	// Reaped by startBinary's waiter; a pid has no event to wait on here.
	if err := wait.Until("the killed daemon to be gone", daemonStopTimeout, func() bool {
		return syscall.Kill(cmd.Process.Pid, 0) != nil
	}); err != nil {
		r.t.Logf("kill -9 codeman daemon: %v", err)
	}
	r.stop = nil
}

// stopDaemon stops the running daemon, if any.
func (r *rig) stopDaemon() {
	if r.stop != nil {
		r.stop()
		r.stop = nil
	}
}

// waitHealthy waits until the daemon answers, or alive reports that it
// stopped.
func (r *rig) waitHealthy(alive func() error) {
	r.t.Helper()
	var healthErr, dead error
	// The socket has no event to wait on.
	err := wait.Until("the daemon to answer on "+r.paths.Socket, daemonStartTimeout, func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), apiCallTimeout)
		_, healthErr = r.client.Health(ctx)
		cancel()
		if healthErr != nil {
			dead = alive()
		}
		return healthErr == nil || dead != nil
	})
	switch {
	case dead != nil:
		r.t.Fatalf("%v\n%s", dead, r.daemonLog())
	case err != nil:
		r.t.Fatalf("%v: %v\n%s", err, healthErr, r.daemonLog())
	}
}

// attach enables codeman on the session's pane with a profile ("" for
// [respawn]).
func (r *rig) attach(c *claude, profile string) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), apiCallTimeout)
	defer cancel()
	if _, err := r.client.Attach(ctx, api.AttachRequest{Pane: c.Address(), Profile: profile}); err != nil {
		c.t.Fatalf("attach %s: %v", c.Address(), err)
	}
}

// pane returns the pane's status with its whole decision log.
func (r *rig) pane(addr string) (api.PaneStatus, error) {
	ctx, cancel := context.WithTimeout(context.Background(), apiCallTimeout)
	defer cancel()
	return r.client.Pane(ctx, addr, respawn.DecisionLogSize)
}

// decisions returns the pane's decision log, failing the test when the
// daemon does not answer.
func (r *rig) decisions(c *claude) []respawn.Decision {
	c.t.Helper()
	st, err := r.pane(c.Address())
	if err != nil {
		c.t.Fatalf("status of %s: %v", c.Address(), err)
	}
	return st.Status.Decisions
}

// waitPane polls the pane's status until cond holds and returns it.
func (r *rig) waitPane(c *claude, what string, timeout time.Duration, cond func(api.PaneStatus) bool) api.PaneStatus {
	c.t.Helper()
	var st api.PaneStatus
	var statusErr error
	// The status has no event to wait on.
	if err := wait.Until(what, timeout, func() bool {
		st, statusErr = r.pane(c.Address())
		return statusErr == nil && cond(st)
	}); err != nil {
		c.t.Fatalf("%v (last error: %v)", err, statusErr)
	}
	return st
}

// describePane is the pane's status for a failure dump.
func (r *rig) describePane(addr string) string {
	st, err := r.pane(addr)
	if err != nil {
		return fmt.Sprintf("no status: %v", err)
	}
	var b strings.Builder
	s := st.Status
	fmt.Fprintf(&b, "state %s (%s), cycles %d, mode %s, hooks active %t, last hook %s, wait %q\n",
		s.State, s.Line, s.Cycles, st.Mode, st.HooksActive, st.LastHook, s.Wait)
	fmt.Fprintf(&b, "evidence %+v\nidle check %+v\n", s.Evidence, s.IdleCheck)
	for _, d := range s.Decisions {
		fmt.Fprintf(&b, "  %s %s\n", d.At.Format("15:04:05.000"), d)
	}
	return b.String()
}

// daemonLog returns the tail of the daemon's log files.
func (r *rig) daemonLog() string {
	var b strings.Builder
	// The in-process daemon's log, the binary's own, and the binary's output.
	for _, f := range []string{filepath.Join(r.dir, "daemon.log"), r.paths.Log, filepath.Join(r.dir, "daemon.out")} {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		fmt.Fprintf(&b, "--- %s (last %d of %d lines) ---\n%s\n", filepath.Base(f), min(40, len(lines)), len(lines),
			strings.Join(lines[max(0, len(lines)-40):], "\n"))
	}
	return b.String()
}

// shellQuote quotes s for sh as one word.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
