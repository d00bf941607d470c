package tmuxtest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/GianlucaP106/gotmux/gotmux"

	"github.com/codeman-dev/codeman/internal/childenv"
	"github.com/codeman-dev/codeman/internal/rig/wait"
)

// Size of every session, as tmux-resurrect's tests fix it.
const (
	Width  = 200
	Height = 50
)

// commandTimeout bounds each tmux command; a wedged server fails the test
// instead of hanging it.
const commandTimeout = 10 * time.Second

var serverSeq atomic.Int64

// Server is one isolated tmux server.
type Server struct {
	t         testing.TB
	name      string // the -L name
	config    string // the -f file
	socket    string
	version   string // the server's #{version}, e.g. "3.4"
	env       []string
	closeOnce sync.Once

	mu    sync.Mutex
	procs []process // every server process tmux reported, for Close
}

// Options change a server from the default.
type Options struct {
	// Config is the text of the server's config file; empty means none
	// (-f /dev/null).
	Config string
	// Env is the whole environment of the server and so of every pane;
	// nil means the test's own. TMUX and TMUX_PANE are dropped from either.
	Env []string
}

// NewServer starts an isolated server with an empty config that lives
// until the test ends. It skips the test under -short and when tmux is not
// installed.
func NewServer(t testing.TB) *Server {
	t.Helper()
	return NewServerWith(t, Options{})
}

// NewServerWith is NewServer with a config and an environment of the
// test's choosing.
func NewServerWith(t testing.TB, opts Options) *Server {
	t.Helper()
	if testing.Short() {
		t.Skip("skipping tmux integration test in -short mode")
	}
	if !gotmux.IsInstalled() {
		t.Skip("tmux is not installed: integration test needs the tmux program on PATH")
	}
	env := opts.Env
	if env == nil {
		env = os.Environ()
	}
	s := &Server{
		t: t,
		// Short: the socket path must fit in sun_path (108 bytes).
		name:   fmt.Sprintf("cmt%d-%d", os.Getpid(), serverSeq.Add(1)),
		config: os.DevNull,
		// Nothing in the test may reach the developer's own tmux.
		env: childenv.Without(env, "TMUX", "TMUX_PANE"),
	}
	if opts.Config != "" {
		s.config = filepath.Join(t.TempDir(), "tmux.conf")
		if err := os.WriteFile(s.config, []byte(opts.Config), 0o600); err != nil {
			t.Fatalf("tmuxtest: write tmux config: %v", err)
		}
	}
	// exit-empty off keeps a server without sessions alive, so that tests
	// can create their sessions one by one.
	s.Tmux("start-server", ";", "set-option", "-s", "exit-empty", "off")
	t.Cleanup(s.Close)
	info := strings.Fields(s.Tmux("display-message", "-p", "#{socket_path} #{version} #{pid}"))
	s.socket, s.version = info[0], info[1]
	s.record(info[2])
	if strings.HasPrefix(s.version, "3.2") {
		// tmux 3.2 sizes a detached session by default-size (80x24) when
		// window-size is latest, whatever new-session's -x and -y say.
		s.Tmux("set-option", "-g", "window-size", "manual")
	}
	return s
}

// Socket returns the server's socket path.
func (s *Server) Socket() string { return s.socket }

// Version returns the server's #{version}, such as "3.3a".
func (s *Server) Version() string { return s.version }

// Env returns the environment the server and its panes were started with.
func (s *Server) Env() []string { return append([]string(nil), s.env...) }

// Tmux runs tmux on the server with raw argv words and returns its stdout;
// it fails the test on error. A word ";" separates commands, and a word
// ending in ';' needs "\;" (tmux's own rule).
func (s *Server) Tmux(args ...string) string {
	s.t.Helper()
	out, err := s.Run(args...)
	if err != nil {
		s.t.Fatal(err)
	}
	return out
}

// Run is Tmux that returns the error instead of failing the test, for
// goroutines other than the test's and for commands that may fail.
func (s *Server) Run(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	// -u: UTF-8 output whatever the locale of the test run.
	cmd := exec.CommandContext(ctx, "tmux", append([]string{"-u", "-L", s.name, "-f", s.config}, args...)...)
	cmd.Env = s.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("tmux %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// Close logs every pane's screen if the test has failed, kills the server
// and waits until it no longer answers and its process is gone; a server
// kill-server cannot reach (its socket file removed) is killed by pid. The test's cleanup calls it; a
// test that must know the server gone before its own cleanup goes on
// calls it first, and the later calls do nothing.
func (s *Server) Close() {
	s.closeOnce.Do(s.close)
}

func (s *Server) close() {
	if s.t.Failed() {
		s.t.Logf("tmuxtest: the test ran on tmux %s (%s)", s.version, binaryPath())
		s.dumpPanes()
	}
	if _, err := s.Run("kill-server"); err != nil {
		// The server may have gone with its last pane, or lost its socket:
		// killLeft finds a process that still runs.
		s.t.Logf("tmuxtest: %v", err)
	} else {
		err := wait.Until("tmux server "+s.name+" to exit after kill-server", 5*time.Second, func() bool {
			_, err := s.Run("list-sessions")
			return err != nil && len(s.running()) == 0
		})
		if err != nil {
			s.t.Logf("tmuxtest: %v", err)
		}
	}
	s.killLeft()
	if _, err := s.Run("list-sessions"); err == nil {
		s.t.Logf("tmuxtest: a tmux server not started by this test answers on %s; its socket is left", s.socket)
		return
	}
	s.removeSocket() // gone: nothing answers on the socket
}

// removeSocket deletes the socket file, which tmux 3.3 leaves behind after
// kill-server, but only if it still is a socket.
func (s *Server) removeSocket() {
	if fi, err := os.Lstat(s.socket); err == nil && fi.Mode()&os.ModeSocket != 0 {
		if err := os.Remove(s.socket); err != nil {
			s.t.Logf("tmuxtest: remove socket %s: %v", s.socket, err)
		}
	}
}

// binaryPath is the tmux the tests run, as PATH finds it.
func binaryPath() string {
	p, err := exec.LookPath("tmux")
	if err != nil {
		return "not on PATH"
	}
	return p
}
