package daemon

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
	"github.com/codeman-dev/codeman/internal/rig/wait"
	"github.com/codeman-dev/codeman/screen"
)

// The lifecycle test's size. Its defaults keep it to about a minute; run
// it longer with, e.g.,
//
//	go test ./daemon -run TestLifecycle -lifecycle.checks=20 -lifecycle.steps=40 -timeout 2h
var (
	lifecycleChecks = flag.Int("lifecycle.checks", 2, "lifecycle test: random sequences to run")
	lifecycleSteps  = flag.Int("lifecycle.steps", 14, "lifecycle test: steps per sequence (at least one of each action)")
)

// daemonMain runs a daemon as the test binary's role "daemon", so that a
// test can kill it with SIGKILL.
func daemonMain() int {
	paths, err := api.DefaultPaths(os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	d := New(Options{Paths: paths, ConfigPath: os.Getenv("CODEMAN_TEST_CONFIG"), Version: "test", Liveness: 200 * time.Millisecond})
	if err := d.Run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// startProcess runs the rig's daemon as a child process until killProcess.
func (r *rig) startProcess() *exec.Cmd {
	r.t.Helper()
	exe, _ := os.Executable()
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "CODEMAN_TEST_ROLE=daemon", "CODEMAN_TEST_CONFIG="+r.config)
	for k, v := range r.env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	r.client = api.NewClient(r.paths.Socket)
	r.waitFor("the daemon process to answer", 10*time.Second, func() bool {
		_, err := r.client.Health(context.Background())
		return err == nil
	})
	return cmd
}

// lifecycle is the world the random steps act on: one daemon process, two
// tmux panes and a screen window running the simulated session.
type lifecycle struct {
	r      *rig
	daemon *exec.Cmd
	panes  []string          // addresses; tmux ones first
	logs   map[string]string // address -> input log of its current program
	screen string            // the screen window's address, "" without screen

	// off says since when each pane is not enabled: no input may reach it
	// after that (plus sendGrace).
	off map[string]time.Time
}

// sendGrace covers keys a controller handed to tmux or screen just before
// it was stopped, which the program logs a moment later.
const sendGrace = 500 * time.Millisecond

func TestLifecycle(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the lifecycle test in -short mode")
	}
	if !flagSet("rapid.checks") {
		flag.Set("rapid.checks", fmt.Sprint(*lifecycleChecks))
	}
	if !flagSet("rapid.failfile") {
		flag.Set("rapid.nofailfile", "true") // the seed in the output reproduces a failure
	}
	actions := map[string]func(*lifecycle, *rapid.T){
		"attach":        (*lifecycle).attach,
		"detach":        (*lifecycle).detach,
		"toggle":        (*lifecycle).toggle,
		"kill daemon":   (*lifecycle).killDaemon,
		"restart tmux":  (*lifecycle).restartTmux,
		"reopen window": (*lifecycle).reopenWindow,
		"break config":  (*lifecycle).breakConfig,
		"fix config":    (*lifecycle).fixConfig,
		"wait":          (*lifecycle).wait,
	}
	names := slices.Sorted(maps.Keys(actions))
	rapid.Check(t, func(rt *rapid.T) {
		w := newLifecycle(t)
		defer w.close()
		// Every action in an order of rapid's, then as many drawn at
		// random: a short run still meets each one.
		steps := rapid.Permutation(names).Draw(rt, "order")
		for range *lifecycleSteps - len(steps) {
			steps = append(steps, rapid.SampledFrom(names).Draw(rt, "action"))
		}
		for _, name := range steps {
			rt.Logf("step %s", name)
			actions[name](w, rt)
			w.check(rt)
		}
	})
}

// newLifecycle makes a fresh world for one sequence: its own tmux server,
// two panes and a screen window running the simulated session, and a
// daemon process.
func newLifecycle(t *testing.T) *lifecycle {
	r := setupRig(t, tmuxtest.NewServer(t), true)
	w := &lifecycle{r: r, logs: map[string]string{}, off: map[string]time.Time{}}
	for i := range 2 {
		addr, log := r.session(fmt.Sprintf("p%d", i), "hello")
		w.panes = append(w.panes, addr)
		w.logs[addr] = log
		w.off[addr] = time.Now()
	}
	if _, err := exec.LookPath("screen"); err == nil {
		addr, log := r.screenSession("hello")
		w.screen = addr
		w.panes = append(w.panes, addr)
		w.logs[addr] = log
		w.off[addr] = time.Now()
	} else {
		t.Log("GNU screen is not installed: the lifecycle test runs without a screen window")
	}
	w.daemon = r.startProcess()
	return w
}

// close ends the world's daemon, tmux server and screen session.
func (w *lifecycle) close() {
	w.daemon.Process.Kill()
	w.daemon.Wait()
	w.r.tmux.Close()
	if w.screen != "" {
		win, _ := screen.ParseAddress(w.screen)
		exec.Command("screen", "-S", win.Session, "-X", "quit").Run()
	}
}

func flagSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func (w *lifecycle) pick(t *rapid.T) string { return rapid.SampledFrom(w.panes).Draw(t, "pane") }

// enabled reports whether the daemon lists the pane, controlled or not.
func (w *lifecycle) enabled(t *rapid.T, addr string) bool {
	_, err := w.r.client.Pane(context.Background(), addr, 0)
	if err != nil && !errors.Is(err, api.ErrNotControlled) {
		t.Fatalf("status of %s: %v", addr, err)
	}
	return err == nil
}

// settle records when a pane went off, after a step changed it.
func (w *lifecycle) settle(t *rapid.T, addr string, wasOn bool) {
	switch on := w.enabled(t, addr); {
	case on:
		delete(w.off, addr)
	case wasOn || w.off[addr].IsZero():
		w.off[addr] = time.Now()
	}
}

// concurrently runs f n times at once.
func concurrently(n int, f func()) {
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() { defer wg.Done(); f() }()
	}
	wg.Wait()
}

func (w *lifecycle) attach(t *rapid.T) {
	addr, n := w.pick(t), rapid.IntRange(2, 4).Draw(t, "concurrent")
	was := w.enabled(t, addr)
	concurrently(n, func() { w.r.client.Attach(context.Background(), api.AttachRequest{Pane: addr}) })
	w.settle(t, addr, was)
}

func (w *lifecycle) detach(t *rapid.T) {
	addr := w.pick(t)
	was := w.enabled(t, addr)
	w.r.client.Detach(context.Background(), addr)
	if w.enabled(t, addr) {
		t.Fatalf("%s still enabled after detach", addr)
	}
	w.settle(t, addr, was)
}

func (w *lifecycle) toggle(t *rapid.T) {
	addr, n := w.pick(t), rapid.IntRange(2, 4).Draw(t, "concurrent")
	was := w.enabled(t, addr)
	concurrently(n, func() { w.r.client.Toggle(context.Background(), api.AttachRequest{Pane: addr}) })
	w.settle(t, addr, was)
}

func (w *lifecycle) killDaemon(t *rapid.T) {
	w.daemon.Process.Kill()
	w.daemon.Wait()
	w.daemon = w.r.startProcess()
}

// restartTmux kills the tmux server and starts a new one under the same
// name with new programs in panes of the same ids: none of them is enabled.
func (w *lifecycle) restartTmux(t *rapid.T) {
	r := w.r
	// Killed here rather than by r.killTmuxServer, so that a failure is
	// rapid's and reports the steps and the seed.
	out, err := r.tmux.Run("display-message", "-p", "#{pid}")
	pid, _ := strconv.Atoi(strings.TrimSpace(out))
	if err != nil || pid <= 0 {
		t.Fatalf("the tmux server's pid: %q, %v", out, err)
	}
	if _, err := r.tmux.Run("kill-server"); err != nil {
		t.Fatal(err)
	}
	if err := wait.Until("the old tmux server to exit", 30*time.Second, func() bool { return syscall.Kill(pid, 0) != nil }); err != nil {
		t.Fatalf("%v; tmux clients of its socket: %q", err, r.tmux.ClientProcesses())
	}
	restarted := time.Now()
	for i, addr := range w.panes {
		if !strings.HasPrefix(addr, "tmux:") {
			continue
		}
		got, log := r.session(fmt.Sprintf("p%d", i), "hello")
		if got != addr {
			t.Fatalf("the new server's pane is %s, want %s", got, addr)
		}
		w.logs[addr], w.off[addr] = log, restarted
	}
}

// reopenWindow closes the screen window and opens a new program under its
// number.
func (w *lifecycle) reopenWindow(t *rapid.T) {
	if w.screen == "" {
		return // no screen on this machine
	}
	reopened := time.Now()
	log, err := w.r.reopenScreenWindow(w.screen)
	if err != nil {
		t.Fatal(err)
	}
	w.logs[w.screen], w.off[w.screen] = log, reopened
}

// wait lets the controllers act: a turn ends and a cycle step goes out
// within a few seconds with fastConfig.
func (w *lifecycle) wait(t *rapid.T) {
	time.Sleep(time.Duration(rapid.IntRange(500, 4000).Draw(t, "ms")) * time.Millisecond)
}

func (w *lifecycle) breakConfig(*rapid.T) {
	os.WriteFile(w.r.config, []byte("[respawn]\ncompletion_confirm = \"soon\"\n"), 0o600)
}

func (w *lifecycle) fixConfig(*rapid.T) {
	os.WriteFile(w.r.config, []byte(fastConfig), 0o600)
}

// check holds the invariants after every step: one controller per
// controlled pane and none for anything else, and no input at all in a
// pane since it went off.
func (w *lifecycle) check(t *rapid.T) {
	ctx := context.Background()
	var h api.Health
	var listed []string
	stale := ""
	// A pane gone with its server or window is released within a poll.
	err := wait.Until("one controller per controlled pane, none off", 5*time.Second, func() bool {
		var err error
		if h, err = w.r.client.Health(ctx); err != nil {
			t.Fatalf("health: %v", err)
		}
		panes, err := w.r.client.Panes(ctx)
		if err != nil {
			t.Fatalf("panes: %v", err)
		}
		listed = listed[:0]
		stale = ""
		for _, p := range panes {
			listed = append(listed, p.Pane)
			if _, off := w.off[p.Pane]; off {
				stale = p.Pane
			}
		}
		return h.Controllers == h.Panes && stale == ""
	})
	if err != nil {
		t.Fatalf("%v: %d controllers for %d controlled panes; %q off but listed", err, h.Controllers, h.Panes, stale)
	}
	for _, addr := range listed {
		if !slices.Contains(w.panes, addr) {
			t.Fatalf("the daemon lists %s, which the test never made", addr)
		}
	}
	if len(slices.Compact(slices.Sorted(slices.Values(listed)))) != len(listed) {
		t.Fatalf("a pane is listed twice: %q", listed)
	}
	for addr, since := range w.off {
		for _, e := range inputsAfter(w.r.t, w.logs[addr], since.Add(sendGrace)) {
			t.Fatalf("input reached %s, off since %s: %+v", addr, since.Format("15:04:05.000"), e)
		}
	}
}
