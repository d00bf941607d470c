// Package tmuxtest runs an isolated tmux server for integration tests: its
// own -L socket, an empty config (-f /dev/null), sessions of a fixed
// 200x50 size, and no TMUX or TMUX_PANE leaking in from a developer's
// session. The server is killed when the test ends. Tests that need it
// are skipped, naming tmux, when tmux is missing, and under -short.
//
// It imports no codeman package, so that package tmux's own tests can
// use it.
package tmuxtest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/GianlucaP106/gotmux/gotmux"

	"github.com/codeman-dev/codeman/internal/childenv"
	"github.com/codeman-dev/codeman/internal/wait"
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
	t      testing.TB
	name   string // the -L name
	socket string
	env    []string
}

// NewServer starts an isolated server that lives until the test ends. It
// skips the test under -short and when tmux is not installed.
func NewServer(t testing.TB) *Server {
	t.Helper()
	if testing.Short() {
		t.Skip("skipping tmux integration test in -short mode")
	}
	if !gotmux.IsInstalled() {
		t.Skip("tmux is not installed: integration test needs the tmux program on PATH")
	}
	s := &Server{
		t: t,
		// Short: the socket path must fit in sun_path (108 bytes).
		name: fmt.Sprintf("cmt%d-%d", os.Getpid(), serverSeq.Add(1)),
		// Nothing in the test may reach the developer's own tmux.
		env: childenv.Without(os.Environ(), "TMUX", "TMUX_PANE"),
	}
	// exit-empty off keeps a server without sessions alive, so that tests
	// can create their sessions one by one.
	s.Tmux("start-server", ";", "set-option", "-s", "exit-empty", "off")
	t.Cleanup(s.close)
	s.socket = strings.TrimSpace(s.Tmux("display-message", "-p", "#{socket_path}"))
	return s
}

// Socket returns the server's socket path.
func (s *Server) Socket() string { return s.socket }

// Env returns the environment the server and its panes were started with.
func (s *Server) Env() []string { return append([]string(nil), s.env...) }

// NewSession creates a detached 200x50 session running argv (the default
// shell when argv is empty) and returns the id of its pane, e.g. "%0".
func (s *Server) NewSession(name string, argv ...string) (paneID string) {
	s.t.Helper()
	args := []string{"new-session", "-d", "-s", name, "-x", fmt.Sprint(Width), "-y", fmt.Sprint(Height),
		"-P", "-F", "#{pane_id}"}
	if len(argv) > 0 {
		args = append(append(args, "--"), literalWords(argv)...)
	}
	return strings.TrimSpace(s.Tmux(args...))
}

// Tmux runs tmux on the server with raw argv words and returns its stdout;
// it fails the test on error. A word ";" separates commands, and a word
// ending in ';' needs "\;" (tmux's own rule).
func (s *Server) Tmux(args ...string) string {
	s.t.Helper()
	out, err := s.run(args...)
	if err != nil {
		s.t.Fatalf("tmux %s: %v", strings.Join(args, " "), err)
	}
	return out
}

func (s *Server) run(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	// -u: UTF-8 output whatever the locale of the test run.
	cmd := exec.CommandContext(ctx, "tmux", append([]string{"-u", "-L", s.name, "-f", "/dev/null"}, args...)...)
	cmd.Env = s.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("%w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// Capture returns the visible screen of paneID.
func (s *Server) Capture(paneID string) string {
	s.t.Helper()
	return s.Tmux("capture-pane", "-p", "-t", paneID)
}

// WaitFor captures paneID until cond accepts the screen, and fails the
// test with the last screen when timeout passes first. what says what was
// awaited, for the failure message.
func (s *Server) WaitFor(paneID string, cond func(screen string) bool, what string, timeout time.Duration) {
	s.t.Helper()
	var screen string
	if err := wait.Until(what, timeout, func() bool { screen = s.Capture(paneID); return cond(screen) }); err != nil {
		s.t.Fatalf("%v in pane %s; the pane shows:\n%s", err, paneID, screen)
	}
}

// close kills the server and waits until it no longer answers.
func (s *Server) close() {
	if _, err := s.run("kill-server"); err != nil {
		s.t.Logf("tmuxtest: kill-server on %s: %v", s.name, err)
	}
	err := wait.Until("tmux server "+s.name+" to exit after kill-server", 5*time.Second, func() bool {
		_, err := s.run("list-sessions")
		return err != nil
	})
	if err != nil {
		s.t.Logf("tmuxtest: %v; it still answers", err)
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

// literalWords protects argv words that end in ';', which tmux would
// otherwise take as command separators.
func literalWords(argv []string) []string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if strings.HasSuffix(a, ";") {
			a = a[:len(a)-1] + `\;`
		}
		out[i] = a
	}
	return out
}
