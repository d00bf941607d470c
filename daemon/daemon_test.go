package daemon

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/hooks"
	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
	"github.com/codeman-dev/codeman/internal/rig/wait"
	"github.com/codeman-dev/codeman/internal/simclaude"
	"github.com/codeman-dev/codeman/respawn"
)

// The test binary doubles as the simulated Claude Code session and as the
// hook handler Claude runs, chosen by an environment variable (stdlib
// os/exec test style).
func TestMain(m *testing.M) {
	switch os.Getenv("CODEMAN_TEST_ROLE") {
	case "sim":
		os.Exit(simclaude.Main(os.Args[1:], os.Stdin, os.Stdout))
	case "hook":
		// Copilot names the event as the handler's argument, not in the
		// payload.
		event := ""
		if len(os.Args) > 1 {
			event = os.Args[1]
		}
		hooks.HandleEvent(os.Stdin, os.Getenv, time.Now(), event)
		os.Exit(0)
	case "daemon":
		os.Exit(daemonMain())
	}
	// Screen sessions of these tests live in a private SCREENDIR, away
	// from whoever runs them.
	if dir, err := os.MkdirTemp("", "scr"); err == nil {
		os.Setenv("SCREENDIR", dir)
		code := m.Run()
		os.RemoveAll(dir)
		if code != 0 {
			fmt.Fprintln(os.Stderr, "the tests ran on", tmuxtest.Releases())
		}
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// fastConfig keeps every wait short so a full cycle takes seconds.
const fastConfig = `
[respawn]
completion_confirm = "1s"
no_output_timeout = "5s"
inter_step_delay = "200ms"
auto_accept_delay = "1s"
kickstart_prompt = "go on with the next task"

[respawn.ai_idle_check]
enabled = false

[respawn.ai_plan_check]
enabled = false
`

// rig is a daemon on private paths plus an isolated tmux server.
type rig struct {
	t      *testing.T
	tmux   *tmuxtest.Server
	paths  api.Paths
	env    map[string]string
	config string
	stop   context.CancelFunc
	done   chan error
	client *api.Client
	d      *Daemon
}

func newRig(t *testing.T) *rig {
	t.Helper()
	return newRigOn(t, tmuxtest.NewServer(t))
}

// newRigOn is newRig on a tmux server of the test's, which two rigs (two
// daemons with their own paths) may share.
func newRigOn(t *testing.T, srv *tmuxtest.Server) *rig { return setupRig(t, srv, false) }

// setupRig makes a rig's paths and config, and starts its in-process
// daemon unless noDaemon.
func setupRig(t *testing.T, srv *tmuxtest.Server, noDaemon bool) *rig {
	t.Helper()
	dir, err := os.MkdirTemp("", "cmd") // short: the socket path must fit sun_path
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	env := map[string]string{
		"XDG_RUNTIME_DIR": filepath.Join(dir, "run"),
		"XDG_STATE_HOME":  filepath.Join(dir, "state"),
		"HOME":            dir,
		"PATH":            os.Getenv("PATH"),
	}
	os.Mkdir(env["XDG_RUNTIME_DIR"], 0o700)
	paths, err := api.DefaultPaths(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(config, []byte(fastConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, tmux: srv, paths: paths, env: env, config: config}
	if !noDaemon {
		r.start()
	}
	return r
}

// start runs a daemon in this process until stopDaemon or the test's end.
func (r *rig) start() {
	r.t.Helper()
	// A daemon restarted in this process can find its predecessor's lock
	// still held for a moment: a child forked by another test between the
	// lock's open and close keeps a copy of the descriptor until it execs.
	// Another process never holds these locks, so that is retried.
	deadline := time.Now().Add(10 * time.Second)
	for {
		ctx, cancel := context.WithCancel(context.Background())
		ready := make(chan error, 1)
		d := New(Options{Paths: r.paths, ConfigPath: r.config, Version: "test", Env: func(k string) string { return r.env[k] }, Liveness: 200 * time.Millisecond, Ready: func(err error) { ready <- err }})
		done := make(chan error, 1)
		go func() { done <- d.Run(ctx) }()
		if err := <-ready; errors.Is(err, api.ErrRunning) && time.Now().Before(deadline) {
			cancel()
			<-done
			time.Sleep(10 * time.Millisecond)
			continue
		}
		r.stop, r.done, r.d = cancel, done, d
		break
	}
	r.t.Cleanup(r.stopDaemon)
	r.client = api.NewClient(r.paths.Socket)
	r.waitFor("the daemon to answer", 10*time.Second, func() bool {
		_, err := r.client.Health(context.Background())
		return err == nil
	})
}

func (r *rig) stopDaemon() {
	if r.stop == nil {
		return
	}
	r.stop()
	if err := <-r.done; err != nil {
		r.t.Errorf("daemon: %v", err)
	}
	r.stop = nil
}

// dump describes every pane: decisions, evidence and the screen.
func (r *rig) dump() string {
	var b strings.Builder
	if r.client == nil {
		return "no daemon started yet"
	}
	panes, err := r.client.Panes(context.Background())
	if err != nil {
		return "no status: " + err.Error()
	}
	for _, p := range panes {
		st, _ := r.client.Pane(context.Background(), p.Pane, 40)
		fmt.Fprintf(&b, "== %s %s evidence %+v\n", p.Pane, st.Status.State, st.Status.Evidence)
		for _, d := range st.Status.Decisions {
			fmt.Fprintf(&b, "  %s %s\n", d.At.Format("15:04:05.000"), d)
		}
		if !strings.HasPrefix(p.Pane, "tmux:") {
			continue // a screen window: its decisions tell
		}
		id := p.Pane[strings.LastIndex(p.Pane, ":")+1:]
		fmt.Fprintf(&b, "screen:\n%s\n", r.tmux.Capture(id))
	}
	return b.String()
}

// session starts the simulated Claude in a new tmux session and returns
// the pane's address and the path of the session's input log.
func (r *rig) session(name, prompt string) (addr, log string) {
	r.t.Helper()
	return r.lookSession(name, prompt, "❯")
}

// lookSession starts the simulated session with extra arguments (a look)
// in a new tmux session, waits until ready shows on it and returns the
// pane's address and the session's input log.
func (r *rig) lookSession(name, prompt, ready string, extra ...string) (addr, log string) {
	r.t.Helper()
	exe, _ := os.Executable()
	log = filepath.Join(r.t.TempDir(), name+".jsonl")
	pane := r.tmux.NewSession(name, slices.Concat([]string{"env", "CODEMAN_TEST_ROLE=sim", exe}, r.simArgs(log, prompt, extra...))...)
	r.tmux.WaitFor(pane, func(s string) bool { return strings.Contains(s, ready) }, fmt.Sprintf("%q on screen", ready), 10*time.Second)
	return "tmux:" + r.tmux.Socket() + ":" + pane, log
}

// simArgs are the simulated session's arguments, extra first: short
// turns, a fixed seed, its input log, the rig's daemon as the hook
// handler and the prompt submitted at start.
func (r *rig) simArgs(log, prompt string, extra ...string) []string {
	exe, _ := os.Executable()
	hookCmd := fmt.Sprintf("env CODEMAN_TEST_ROLE=hook XDG_RUNTIME_DIR=%s %s", r.env["XDG_RUNTIME_DIR"], exe)
	return slices.Concat(extra, []string{"--work", "1s", "--seed", "7", "--log", log, "--hook-cmd", hookCmd, "--prompt", prompt})
}

func (r *rig) attach(addr string, sets ...string) {
	r.t.Helper()
	if _, err := r.client.Attach(context.Background(), api.AttachRequest{Pane: addr, Sets: sets}); err != nil {
		r.t.Fatalf("attach %s: %v", addr, err)
	}
}

// waitFor polls cond and, when it times out, fails the test with the
// status and decisions of every pane.
func (r *rig) waitFor(what string, timeout time.Duration, cond func() bool) {
	r.t.Helper()
	if err := wait.Until(what, timeout, cond); err != nil {
		r.t.Fatalf("%v\n%s", err, r.dump())
	}
}

// submits returns the texts the session received as submitted prompts.
func submits(t *testing.T, log string) []string {
	t.Helper()
	entries, err := simclaude.ReadLog(log)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.Kind == "submit" {
			out = append(out, e.Text)
		}
	}
	return out
}

// assertNothingWhileBusy fails when any input reached the session while it
// worked or showed a dialog other than a plan approval.
func assertNothingWhileBusy(t *testing.T, log string) {
	t.Helper()
	entries, err := simclaude.ReadLog(log)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		switch e.Kind {
		case "submit", "key", "paste", "queued":
			if e.Busy || (e.Dialog != "" && e.Dialog != "plan") {
				t.Errorf("input %+v arrived while busy=%t dialog=%q", e, e.Busy, e.Dialog)
			}
		}
	}
}

func cycleSubmits() []string {
	return []string{respawn.DefaultUpdatePrompt, "/clear", "/init", "go on with the next task"}
}

func hasPrefix(got, want []string) bool {
	if len(got) < len(want) {
		return false
	}
	for i := range want {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

func TestDaemon_CyclesPaneInOrder(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	addr, log := r.session("work", "hello there")
	r.attach(addr)
	r.waitFor("a full cycle", 60*time.Second, func() bool { return hasPrefix(submits(t, log), cycleSubmits()) })
	assertNothingWhileBusy(t, log)

	st, err := r.client.Pane(context.Background(), addr, 50)
	if err != nil {
		t.Fatal(err)
	}
	if st.Status.Cycles < 1 || st.Mode != "control" || !st.HooksActive {
		t.Fatalf("status = cycles %d, mode %q, hooks active %t", st.Status.Cycles, st.Mode, st.HooksActive)
	}
	if opt := strings.TrimSpace(r.tmux.Tmux("show-options", "-p", "-t", strings.TrimPrefix(addr, "tmux:"+r.tmux.Socket()+":"), "-v", "@codeman")); opt != "on" {
		t.Fatalf("@codeman = %q", opt)
	}
}

// A plan approval is accepted; a question in another session is never
// answered, whatever the timers say; both sessions are watched at once.
func TestDaemon_PlanAcceptedQuestionLeftAlone(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	planAddr, planLog := r.session("plan", "make a plan for the greeting")
	askAddr, askLog := r.session("ask", "ask me a question about the database")
	r.attach(planAddr)
	r.attach(askAddr)

	r.waitFor("the plan accepted and a cycle after it", 60*time.Second, func() bool {
		return hasPrefix(submits(t, planLog), cycleSubmits()[:2])
	})
	entries, _ := simclaude.ReadLog(planLog)
	accepted := false
	for _, e := range entries {
		accepted = accepted || (e.Dialog == "plan" && e.Kind == "key")
	}
	if !accepted {
		t.Fatalf("no key reached the plan approval menu: %+v", entries)
	}

	// Longer than no_output_timeout, the step waits and hook_confirm together.
	time.Sleep(12 * time.Second)
	if got := submits(t, askLog); len(got) != 0 {
		t.Fatalf("the question was answered or typed into: %q", got)
	}
	assertNothingWhileBusy(t, askLog)
	st, err := r.client.Explain(context.Background(), askAddr, 50)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(st.Status.Evidence.Blocker, "a person must answer") {
		t.Fatalf("blocker = %q", st.Status.Evidence.Blocker)
	}
	// explain reads the screen as it is now.
	if l := st.Live; l == nil || l.Error != "" || !l.Question || l.Working || time.Since(l.At) > 10*time.Second {
		t.Fatalf("live screen %+v, want the question read just now", l)
	}
}

// A daemon that stops (as after kill -9) leaves @codeman on the pane; the
// next one adopts it and cycles the next turn.
func TestDaemon_RestartAdoptsPane(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	addr, log := r.session("work", "long task first")
	r.attach(addr, "kickstart_prompt=")
	r.stopDaemon()
	r.start()
	panes, err := r.client.Panes(context.Background())
	if err != nil || len(panes) != 1 || panes[0].Pane != addr {
		t.Fatalf("adopted %+v, %v", panes, err)
	}
	want := []string{respawn.DefaultUpdatePrompt, "/clear", "/init"}
	r.waitFor("a cycle by the new daemon", 90*time.Second, func() bool { return hasPrefix(submits(t, log), want) })
	assertNothingWhileBusy(t, log)
}

// A pane killed mid-cycle ends its controller.
func TestDaemon_PaneKilledEndsController(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	addr, log := r.session("work", "hello")
	r.attach(addr)
	r.waitFor("the update prompt", 30*time.Second, func() bool { return len(submits(t, log)) >= 1 })
	events, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var reason string
	go func() {
		time.Sleep(100 * time.Millisecond)
		r.tmux.Tmux("kill-session", "-t", "work")
	}()
	r.client.Events(events, addr, func(e api.Event) error {
		if e.Kind == "detach" {
			reason = e.Reason
			cancel()
		}
		return nil
	})
	if reason == "" {
		t.Fatal("no detach event after the pane was killed")
	}
	if panes, _ := r.client.Panes(context.Background()); len(panes) != 0 {
		t.Fatalf("panes after kill: %+v", panes)
	}
}

func TestDaemon_SecondInstanceRefused(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	d := New(Options{Paths: r.paths, ConfigPath: r.config})
	err := d.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "already running") {
		t.Fatalf("second daemon: %v", err)
	}
}

func TestDaemon_AttachErrors(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	_, err := r.client.Attach(context.Background(), api.AttachRequest{Pane: "tmux:" + r.tmux.Socket() + ":%99"})
	if err == nil || !strings.Contains(err.Error(), "%99") {
		t.Fatalf("attach to a missing pane: %v", err)
	}
	addr, _ := r.session("work", "hi")
	_, err = r.client.Attach(context.Background(), api.AttachRequest{Pane: addr, Sets: []string{"completion_confirm=fast"}})
	if err == nil || !strings.Contains(err.Error(), "completion_confirm") {
		t.Fatalf("attach with a bad --set: %v", err)
	}
}

// killTmuxServer kills the rig's tmux server and waits until its process
// is gone, so that a server started next under the same name is a new one.
func (r *rig) killTmuxServer() {
	r.t.Helper()
	pid, _ := strconv.Atoi(strings.TrimSpace(r.tmux.Tmux("display-message", "-p", "#{pid}")))
	r.tmux.Tmux("kill-server")
	r.waitFor("the old tmux server to exit", 30*time.Second, func() bool { return syscall.Kill(pid, 0) != nil })
}
