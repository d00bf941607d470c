//go:build linux

package loadtest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
	"github.com/codeman-dev/codeman/internal/rig/wait"
)

// rig is the real codeman binary, its daemon as a separate process on
// private paths, and an isolated tmux server for the panes it watches.
type rig struct {
	t       testing.TB
	tmux    *tmuxtest.Server
	codeman string
	dir     string   // short temp dir: run/, state/, config/
	env     []string // for codeman processes: no TMUX, private XDG dirs
	daemon  *exec.Cmd
	exited  chan error
	client  *api.Client
}

// newRig starts an isolated tmux server and writes config.toml; the
// daemon starts with startDaemon.
func newRig(t testing.TB, codeman, config string) *rig {
	t.Helper()
	srv := tmuxtest.NewServer(t)
	dir, err := os.MkdirTemp("", "cml") // short: the socket path must fit sun_path
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	r := &rig{t: t, tmux: srv, codeman: codeman, dir: dir}
	for _, sub := range []string{"run", "state", "config/codeman"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "config/codeman/config.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	r.env = append(srv.Env(),
		"XDG_RUNTIME_DIR="+filepath.Join(dir, "run"),
		"XDG_STATE_HOME="+filepath.Join(dir, "state"),
		"XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
		"HOME="+dir,
	)
	return r
}

// getenv reads the rig's environment, for api.DefaultPaths.
func (r *rig) getenv(key string) string {
	for i := len(r.env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(r.env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

// startDaemon runs `codeman daemon` as its own process and waits until
// its API answers.
func (r *rig) startDaemon() {
	r.t.Helper()
	paths, err := api.DefaultPaths(r.getenv)
	if err != nil {
		r.t.Fatal(err)
	}
	out, err := os.Create(filepath.Join(r.dir, "daemon.out"))
	if err != nil {
		r.t.Fatal(err)
	}
	defer out.Close()
	cmd := exec.Command(r.codeman, "daemon")
	cmd.Env, cmd.Stdout, cmd.Stderr = r.env, out, out
	if *envFlag != "" {
		cmd.Env = append(slices.Clone(r.env), strings.Split(*envFlag, ",")...)
	}
	if err := cmd.Start(); err != nil {
		r.t.Fatalf("start codeman daemon: %v", err)
	}
	r.daemon, r.exited = cmd, make(chan error, 1)
	go func() { r.exited <- cmd.Wait() }()
	r.t.Cleanup(r.stopDaemon)
	wait.For(r.t, "the daemon to answer on "+paths.Socket, 10*time.Second, func() bool {
		_, err := r.daemonClient().Health(context.Background())
		return err == nil
	})
}

// daemonClient is a client of the daemon on the rig's socket.
func (r *rig) daemonClient() *api.Client {
	r.t.Helper()
	if r.client == nil {
		paths, err := api.DefaultPaths(r.getenv)
		if err != nil {
			r.t.Fatal(err)
		}
		r.client = api.NewClient(paths.Socket)
	}
	return r.client
}

// stopDaemon ends the daemon with SIGTERM, as a user's service manager
// would, and kills it when it does not stop in time.
func (r *rig) stopDaemon() {
	if r.daemon == nil {
		return
	}
	_ = r.daemon.Process.Signal(syscall.SIGTERM) // it may have exited already
	select {
	case <-r.exited:
	case <-time.After(10 * time.Second):
		r.t.Errorf("codeman daemon (pid %d) still runs 10s after SIGTERM; killing it", r.daemon.Process.Pid)
		_ = r.daemon.Process.Kill()
		<-r.exited
	}
	r.daemon = nil
}

func (r *rig) daemonPID() int { return r.daemon.Process.Pid }

// attach runs `codeman attach ADDR`, the command a user runs.
func (r *rig) attach(addr string) {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, r.codeman, "attach", addr)
	cmd.Env = r.env
	if out, err := cmd.CombinedOutput(); err != nil {
		r.t.Fatalf("codeman attach %s: %v\n%s", addr, err, out)
	}
}

// address is the canonical address of a pane on the rig's server.
func (r *rig) address(paneID string) string { return "tmux:" + r.tmux.Socket() + ":" + paneID }

// newPanes starts n panes running argv(i), in sessions named prefix0,
// prefix1, ... of perSession windows each (one full-size pane per window),
// and returns their ids.
func (r *rig) newPanes(prefix string, n, perSession int, argv func(i int) []string) []string {
	r.t.Helper()
	ids := make([]string, 0, n)
	for i := range n {
		session := fmt.Sprintf("%s%d", prefix, i/perSession)
		if i%perSession == 0 {
			ids = append(ids, r.tmux.NewSession(session, argv(i)...))
			continue
		}
		out := r.tmux.Tmux(append([]string{"new-window", "-d", "-t", session, "-P", "-F", "#{pane_id}", "--"}, argv(i)...)...)
		ids = append(ids, strings.TrimSpace(out))
	}
	return ids
}

// panePIDs returns the pid of each pane's program.
func (r *rig) panePIDs(ids []string) []int {
	r.t.Helper()
	pids := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(r.tmux.Tmux("list-panes", "-a", "-F", "#{pane_id} #{pane_pid}")), "\n") {
		var id string
		var pid int
		if _, err := fmt.Sscan(line, &id, &pid); err == nil {
			pids[id] = pid
		}
	}
	out := make([]int, len(ids))
	for i, id := range ids {
		if out[i] = pids[id]; out[i] == 0 {
			r.t.Fatalf("list-panes does not list pane %s", id)
		}
	}
	return out
}

// serverPID is the tmux server's pid.
func (r *rig) serverPID() int {
	r.t.Helper()
	var pid int
	if _, err := fmt.Sscan(r.tmux.Tmux("display-message", "-p", "#{pid}"), &pid); err != nil {
		r.t.Fatalf("read tmux server pid: %v", err)
	}
	return pid
}

// waitScreens waits until every pane's screen contains want.
func (r *rig) waitScreens(ids []string, want string, timeout time.Duration) {
	r.t.Helper()
	for _, id := range ids {
		r.tmux.WaitFor(id, func(s string) bool { return strings.Contains(s, want) }, fmt.Sprintf("%q", want), timeout)
	}
}

// buildCodeman builds cmd/codeman into dir with the go build flags given,
// or returns the binary -load.codeman names.
func buildCodeman(t testing.TB, dir string, flags ...string) string {
	t.Helper()
	if *codemanFlag != "" {
		return *codemanFlag
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not installed: the load test builds cmd/codeman with the go command")
	}
	exe := filepath.Join(dir, "codeman")
	args := append(append([]string{"build", "-o", exe}, flags...), "github.com/codeman-dev/codeman/cmd/codeman")
	cmd := exec.Command(goBin, args...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/codeman: %v\n%s", err, out)
	}
	return exe
}
