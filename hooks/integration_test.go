package hooks_test

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/hooks"
	"github.com/codeman-dev/codeman/internal/childenv"
	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
	"github.com/codeman-dev/codeman/respawn"
)

// envRunHandler makes the test binary act as `codeman hook`, so that the
// integration tests can run the handler inside real panes without building
// codeman.
const envRunHandler = "CODEMAN_HOOKS_TEST_RUN_HANDLER"

func TestMain(m *testing.M) {
	if os.Getenv(envRunHandler) == "1" {
		_, _ = hooks.Handle(os.Stdin, os.Getenv, time.Now())
		os.Exit(0)
	}
	if op := os.Getenv(envInstall); op != "" {
		runInstallProcess(op)
	}
	os.Exit(m.Run())
}

// handlerCommand is a shell command line that pipes payload into the
// handler with the runtime dir set, as Claude Code would run a hook.
func handlerCommand(t *testing.T, runtime, payload string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return "printf '%s' '" + payload + "' | env " + envRunHandler + "=1 XDG_RUNTIME_DIR=" + runtime + " " + self
}

// watchSpool starts a watcher on the spool dir of runtime.
func watchSpool(t *testing.T, runtime string) *fakeRouter {
	t.Helper()
	spool, err := hooks.SpoolDir(envOf(map[string]string{"XDG_RUNTIME_DIR": runtime}))
	if err != nil {
		t.Fatal(err)
	}
	r := newFakeRouter()
	w := hooks.NewWatcher(spool, r, hooks.WatcherOptions{Clock: clockwork.NewRealClock()})
	if err := w.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return r
}

// TestHandler_InTmux runs the handler in a pane of a real, isolated tmux
// server: the marker must name that pane by its canonical address.
func TestHandler_InTmux(t *testing.T) {
	checkNoLeak(t)
	srv := tmuxtest.NewServer(t)
	runtime := t.TempDir()
	r := watchSpool(t, runtime)
	pane := srv.NewSession("hook", "sh", "-c", handlerCommand(t, runtime, stopPayload))

	got := r.waitCalls(t, 1)
	want := "tmux:" + srv.Socket() + ":" + pane
	if got[0].Pane != want || got[0].Hook.Kind != respawn.HookStop {
		t.Errorf("routed %+v, want a stop for %s", got[0], want)
	}
}

// TestHandler_InScreen does the same in a window of a real GNU screen
// session with its own socket dir.
func TestHandler_InScreen(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping GNU screen integration test in -short mode")
	}
	if _, err := exec.LookPath("screen"); err != nil {
		t.Skip("screen is not installed: integration test needs the GNU screen program on PATH")
	}
	checkNoLeak(t)
	runtime := t.TempDir()
	r := watchSpool(t, runtime)
	screenDir := t.TempDir()
	if err := os.Chmod(screenDir, 0o700); err != nil { // screen insists on exactly 0700
		t.Fatal(err)
	}
	cmd := exec.Command("screen", "-dmS", "codemanhook", "sh", "-c", handlerCommand(t, runtime, stopPayload))
	// Without an outer tmux's or screen's variables, and without
	// CODEMAN_CHECK, the handler sees only the screen under test.
	cmd.Env = append(childenv.Without(os.Environ(), "TMUX", "TMUX_PANE", "STY", "WINDOW", envCheck), "SCREENDIR="+screenDir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("screen: %v\n%s", err, out)
	}

	got := r.waitCalls(t, 1)
	if !regexp.MustCompile(`^screen:\d+\.codemanhook:0$`).MatchString(got[0].Pane) || got[0].Hook.Kind != respawn.HookStop {
		t.Errorf("routed %+v, want a stop for screen:<pid>.codemanhook:0", got[0])
	}
}

const envCheck = "CODEMAN_CHECK"
