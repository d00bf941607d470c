package screen_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/childenv"
	"github.com/codeman-dev/codeman/internal/rig/wait"
	"github.com/codeman-dev/codeman/screen"
)

// waitTimeout bounds every wait on a session, a screen or a file.
const waitTimeout = 10 * time.Second

// testSession is a screen session started for one test and quit by its
// Cleanup.
type testSession struct {
	t    *testing.T
	name string // full PID.name
	log  string // the echo program's log, if it runs one
}

// requireScreen skips integration tests under -short or without screen.
func requireScreen(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("skipping GNU screen integration test in -short mode")
	}
	if !screen.Installed() {
		t.Skip("skipping: GNU screen (screen) is not installed")
	}
}

var sessionSeq atomic.Int64

// uniqueName returns a session name no other test uses.
func uniqueName() string {
	return fmt.Sprintf("cm%d-%d", os.Getpid(), sessionSeq.Add(1))
}

// programCommand returns the command line that runs test program prog in
// a window, and the environment that makes the test binary run it.
func programCommand(t *testing.T, prog string, args ...string) ([]string, []string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := append(childenv.Without(os.Environ(), "STY", "WINDOW", "TMUX", "TMUX_PANE", programEnv), programEnv+"="+prog, "TERM=xterm-256color", "LANG=C.UTF-8")
	return append([]string{exe}, args...), env
}

// startDetached starts a session with `screen -dmS`: its window is 80x24,
// the size screen gives a window that no display has shown.
func startDetached(t *testing.T, prog string, args ...string) *testSession {
	t.Helper()
	requireScreen(t)
	name := uniqueName()
	argv, env := programCommand(t, prog, args...)
	cmd := exec.Command("screen", append([]string{"-dmS", name, "-c", "/dev/null"}, argv...)...)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("start screen session: %v: %s", err, out)
	}
	return registerSession(t, name)
}

// startSized starts a session with a window of cols x rows. `width` and
// `height` need a display and do nothing to a detached session, so the
// session is started attached to a private pty of that size, then
// detached: a window keeps the size of the display that showed it last.
func startSized(t *testing.T, cols, rows int, prog string, args ...string) *testSession {
	t.Helper()
	s, client := startOnPTY(t, cols, rows, prog, args...)
	s.run("-X", "detach")
	select {
	case <-client: // the attached client left
	case <-time.After(waitTimeout):
		t.Fatalf("screen client of %s did not exit after detach", s.name)
	}
	return s
}

// startOnPTY starts a session attached to a private pty of cols x rows,
// as when a person runs screen in a terminal. The returned channel is
// closed when the client exits.
func startOnPTY(t *testing.T, cols, rows int, prog string, args ...string) (*testSession, <-chan struct{}) {
	t.Helper()
	requireScreen(t)
	master, slave, err := openPTY(cols, rows)
	if err != nil {
		t.Skipf("skipping: %v", err)
	}
	go io.Copy(io.Discard, master) // the display's output; nobody reads it
	name := uniqueName()
	argv, env := programCommand(t, prog, args...)
	cmd := exec.Command("screen", append([]string{"-S", name, "-c", "/dev/null"}, argv...)...)
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start screen: %v", err)
	}
	slave.Close()
	client := make(chan struct{})
	go func() {
		cmd.Wait() // its status says nothing: screen exits 0 or 1 after detach or quit
		master.Close()
		close(client)
	}()
	t.Cleanup(func() {
		// quit (registered later, so run first) ends the client too.
		select {
		case <-client:
		case <-time.After(waitTimeout):
			cmd.Process.Kill()
			t.Errorf("screen client of %s still running", name)
		}
	})
	return registerSession(t, name), client
}

// registerSession waits for the session named name to be listed and
// quits it in Cleanup.
func registerSession(t *testing.T, name string) *testSession {
	t.Helper()
	var full string
	wait.For(t, "session "+name+" listed", waitTimeout, func() bool {
		names, err := screen.ListSessions(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			if strings.HasSuffix(n, "."+name) {
				full = n
			}
		}
		return full != ""
	})
	s := &testSession{t: t, name: full}
	t.Cleanup(s.quit)
	return s
}

// quit ends the session and waits until screen no longer lists it.
func (s *testSession) quit() {
	exec.Command("screen", "-S", s.name, "-X", "quit").Run() // already gone is fine
	err := wait.Until("session "+s.name+" to leave the list", waitTimeout, func() bool {
		names, _ := screen.ListSessions(context.Background())
		return !contains(names, s.name)
	})
	if err != nil {
		s.t.Errorf("quit: %v", err)
	}
}

func (s *testSession) window(n string) screen.Window {
	return screen.Window{Session: s.name, Window: n}
}

// run runs a screen command on the session and fails on any output.
func (s *testSession) run(args ...string) {
	s.t.Helper()
	out, err := exec.Command("screen", append([]string{"-S", s.name}, args...)...).CombinedOutput()
	if err != nil || len(out) > 0 {
		s.t.Fatalf("screen %s: %v %s", strings.Join(args, " "), err, out)
	}
}

// startEcho starts the echo program in an 80x24 session.
func startEcho(t *testing.T) *testSession {
	t.Helper()
	log := filepath.Join(t.TempDir(), "echo.log")
	s := startDetached(t, "echo", log)
	s.log = log
	term := screen.NewWindowTerminal(s.window("0"), screen.TerminalOptions{TempDir: t.TempDir()})
	wait.For(t, "echo program ready", waitTimeout, func() bool {
		shot, err := term.Snapshot(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return strings.Contains(shot.Text(), "ready")
	})
	return s
}

// reads returns what the echo program has read so far, one entry a read.
func (s *testSession) reads() []string {
	s.t.Helper()
	f, err := os.Open(s.log)
	if err != nil {
		s.t.Fatal(err)
	}
	defer f.Close()
	var reads []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r echoRead
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			s.t.Fatalf("read echo log: %v", err)
		}
		reads = append(reads, string(r.In))
	}
	return reads
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
