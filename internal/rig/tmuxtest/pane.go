package tmuxtest

import (
	"fmt"
	"strings"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/wait"
)

// NewSession creates a detached 200x50 session running argv (the default
// shell when argv is empty) and returns the id of its pane, e.g. "%0".
func (s *Server) NewSession(name string, argv ...string) (paneID string) {
	s.t.Helper()
	args := []string{"new-session", "-d", "-s", name, "-x", fmt.Sprint(Width), "-y", fmt.Sprint(Height),
		"-P", "-F", "#{pane_id} #{pid}"}
	if len(argv) > 0 {
		args = append(append(args, "--"), literalWords(argv)...)
	}
	// The server's pid too: new-session starts a new server when a test
	// killed the one before.
	paneID, pid, _ := strings.Cut(strings.TrimSpace(s.Tmux(args...)), " ")
	s.record(pid)
	return paneID
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

// dumpPanes logs the screen of every pane on the server, for a failed
// test.
func (s *Server) dumpPanes() {
	out, err := s.Run("list-panes", "-a", "-F", "#{pane_id}")
	if err != nil {
		s.t.Logf("tmuxtest: no panes to show: %v", err)
		return
	}
	for _, pane := range strings.Fields(out) {
		screen, err := s.Run("capture-pane", "-p", "-t", pane)
		if err != nil {
			screen = err.Error()
		}
		s.t.Logf("tmuxtest: pane %s at the end:\n%s", pane, screen)
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
