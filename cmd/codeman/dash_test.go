package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
	"github.com/codeman-dev/codeman/internal/rig/wait"
	"github.com/codeman-dev/codeman/screen"
)

// dashRig is codeman (the test binary), its daemon on private paths, and the panes
// it controls: two on tmux server A (one runs the dash), one on server B
// and one GNU screen window.
type dashRig struct {
	t        *testing.T
	bin      string
	env      []string
	a, b     *tmuxtest.Server
	dashPane string
	work     string // pane id on A
	far      string // pane id on B
	screen   string // screen session, PID.name
	client   *api.Client
}

func newDashRig(t *testing.T) *dashRig {
	t.Helper()
	if testing.Short() {
		t.Skip("skipping the dash integration test in -short mode")
	}
	if _, err := exec.LookPath("screen"); err != nil {
		t.Skip("GNU screen is not installed: this test needs the screen program on PATH")
	}
	dir, err := os.MkdirTemp("", "cmd") // short: the socket paths must fit sun_path
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	vars := map[string]string{
		"HOME": dir, "XDG_RUNTIME_DIR": filepath.Join(dir, "run"), "XDG_STATE_HOME": filepath.Join(dir, "state"),
		"XDG_CONFIG_HOME": filepath.Join(dir, "config"), "SCREENDIR": filepath.Join(dir, "scr"),
		"TMUX_TMPDIR": filepath.Join(dir, "tmux"), "TERM": "xterm-256color", "LANG": "C.UTF-8",
		"SHELL": "/bin/sh", "PS1": "dash$ ", "NO_COLOR": "",
	}
	for k, v := range vars {
		t.Setenv(k, v) // the test's own screen and daemon calls see them too
		if k == "XDG_RUNTIME_DIR" || k == "SCREENDIR" || k == "TMUX_TMPDIR" {
			os.Mkdir(v, 0o700)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The test binary is codeman here, and so is the daemon it starts.
	t.Setenv(asCodemanEnv, "1")
	r := &dashRig{t: t, bin: exe, env: os.Environ()}
	r.a = tmuxtest.NewServerWith(t, tmuxtest.Options{Env: r.env})
	r.b = tmuxtest.NewServerWith(t, tmuxtest.Options{Env: r.env})
	r.dashPane = r.a.NewSession("dash", "sh")
	r.work = r.a.NewSession("work", "sleep", "600")
	r.far = r.b.NewSession("far", "sleep", "600")
	r.screen = r.screenSession()

	paths, err := api.DefaultPaths(os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	r.client = api.NewClient(paths.Socket)
	t.Cleanup(r.stopDaemon)
	for _, addr := range []string{r.addr(r.a, r.work), r.addr(r.b, r.far), "screen:" + r.screen + ":0"} {
		r.codeman("attach", addr) // the first starts the daemon
	}
	return r
}

func (r *dashRig) addr(srv *tmuxtest.Server, pane string) string {
	return "tmux:" + srv.Socket() + ":" + pane
}

// codeman runs the built binary and returns what it printed.
func (r *dashRig) codeman(args ...string) string {
	r.t.Helper()
	cmd := exec.Command(r.bin, args...)
	cmd.Env = r.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("codeman %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (r *dashRig) screenSession() string {
	r.t.Helper()
	name := fmt.Sprintf("cmd%d", time.Now().UnixNano()%1e6)
	cmd := exec.Command("screen", "-U", "-dmS", name, "-c", "/dev/null", "sleep", "600")
	cmd.Env = r.env
	if out, err := cmd.CombinedOutput(); err != nil {
		r.t.Fatalf("start screen: %v: %s", err, out)
	}
	var full string
	wait.For(r.t, "the screen session", 10*time.Second, func() bool {
		names, _ := screen.ListSessions(context.Background())
		for _, n := range names {
			if strings.HasSuffix(n, "."+name) {
				full = n
			}
		}
		return full != ""
	})
	r.t.Cleanup(func() { exec.Command("screen", "-S", full, "-X", "quit").Run() })
	return full
}

// stopDaemon ends the daemon the first attach started, by the pid it
// reports.
func (r *dashRig) stopDaemon() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	h, err := r.client.Health(ctx)
	if err != nil {
		return
	}
	syscall.Kill(h.PID, syscall.SIGTERM)
	if wait.Until("the daemon to exit", 5*time.Second, func() bool { return syscall.Kill(h.PID, 0) != nil }) != nil {
		syscall.Kill(h.PID, syscall.SIGKILL)
	}
}

// keys types into the dash's pane.
func (r *dashRig) keys(keys ...string) {
	r.t.Helper()
	r.a.Tmux(append([]string{"send-keys", "-t", r.dashPane}, keys...)...)
}

// waitScreen waits until the dash's pane shows all of want.
func (r *dashRig) waitScreen(what string, want ...string) string {
	r.t.Helper()
	var s string
	r.a.WaitFor(r.dashPane, func(screen string) bool {
		s = screen
		for _, w := range want {
			if !strings.Contains(screen, w) {
				return false
			}
		}
		return true
	}, what, 15*time.Second)
	return s
}

// rowOf returns the line of the dash's screen that names target.
func rowOf(screen, target string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, target) {
			return l
		}
	}
	return ""
}

// The dash in a real terminal: it lists the panes of two tmux servers and
// a screen window with their states, follows the daemon's events, jumps
// the client it runs in to a pane, pauses and explains one, and leaves the
// terminal as it was. Its views and keys are tested one by one in package
// dash.
func TestDash_InTmux(t *testing.T) {
	r := newDashRig(t)
	client := r.a.AttachClient("dash").Name()
	r.a.WaitFor(r.dashPane, func(s string) bool { return strings.Contains(s, "dash$") }, "the shell prompt", 10*time.Second)
	r.keys(r.bin+" dash", "Enter")

	work := "work:0.0 (" + r.work + ")"
	far := "far:0.0 (" + r.far + ")"
	scr := "screen " + r.screen + ":0"
	s := r.waitScreen("the dash to list the three panes", "codeman dash · 3 panes", work, far, scr)
	for _, target := range []string{work, far, scr} {
		if row := rowOf(s, target); !strings.Contains(row, "idle") && !strings.Contains(row, "working") {
			t.Errorf("row of %s shows no state: %q", target, row)
		}
	}
	if !strings.Contains(rowOf(s, work), "["+filepath.Base(r.a.Socket())+"]") {
		t.Errorf("row of %s does not name its server: %q", work, rowOf(s, work))
	}

	// Enter on the work pane switches the client the dash runs in to it.
	r.keys("/", "work:", "Enter", "Enter")
	wait.For(t, "the client to show "+r.work, 10*time.Second, func() bool {
		out, _ := r.a.Run("list-clients", "-F", "#{client_name} #{pane_id}")
		return strings.Contains(out, client+" "+r.work)
	})

	// p pauses it: the dash hears it from the daemon as well.
	r.keys("p")
	r.a.WaitFor(r.dashPane, func(s string) bool { return strings.Contains(rowOf(s, work), "paused") }, "the work pane paused", 15*time.Second)
	st, err := r.client.Pane(context.Background(), r.addr(r.a, r.work), 1)
	if err != nil || !st.Status.Paused {
		t.Fatalf("the daemon says paused=%t, %v", st.Status.Paused, err)
	}
	// A resume from a shell reaches the dash by the event stream alone.
	r.codeman("resume", r.addr(r.a, r.work))
	r.a.WaitFor(r.dashPane, func(s string) bool {
		return strings.Contains(rowOf(s, work), "idle")
	}, "the dash to show the resume", 15*time.Second)

	// e explains the pane: evidence, decisions and the screen now.
	r.keys("e")
	r.waitScreen("the explain view", "explain ", "evidence", "screen now", "decisions", "skip: resumed")
	r.keys("Escape")
	r.waitScreen("the list again", "TARGET", "LAST DECISION")

	// q restores the terminal: the alternate screen is left and the shell
	// prompt is back.
	r.keys("q")
	r.a.WaitFor(r.dashPane, func(s string) bool {
		return strings.Contains(s, "dash$") && !strings.Contains(s, "codeman dash ·")
	}, "the shell prompt after q", 10*time.Second)
	if alt := strings.TrimSpace(r.a.Tmux("display-message", "-p", "-t", r.dashPane, "#{alternate_on}")); alt != "0" {
		t.Fatalf("alternate screen still on after q: %s", alt)
	}
}

// A dash started in a session no client is attached to (tmux
// new-session -d, a script) is inside tmux all the same: Enter then
// selects the pane in its session, and once a client attaches, Enter
// switches that client to the pane.
func TestDash_StartedWithoutClient(t *testing.T) {
	r := newDashRig(t)
	r.a.WaitFor(r.dashPane, func(s string) bool { return strings.Contains(s, "dash$") }, "the shell prompt", 10*time.Second)
	r.keys(r.bin+" dash", "Enter")
	work := "work:0.0 (" + r.work + ")"
	r.waitScreen("the dash to list the panes", "codeman dash · 3 panes", work)

	r.keys("/", "work:", "Enter", "Enter")
	s := r.waitScreen("the answer to Enter without a client", "no tmux client showed the dash")
	if strings.Contains(s, "not inside tmux") {
		t.Fatalf("the dash says it is not inside tmux:\n%s", s)
	}

	client := r.a.AttachClient("dash").Name()
	r.keys("Enter")
	wait.For(t, "the client to show "+r.work, 10*time.Second, func() bool {
		out, _ := r.a.Run("list-clients", "-F", "#{client_name} #{pane_id}")
		return strings.Contains(out, client+" "+r.work)
	})
	r.keys("q")
}
