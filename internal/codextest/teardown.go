package codextest

import (
	"os"
	"syscall"
	"time"

	"github.com/codeman-dev/codeman/internal/wait"
)

// close ends the session: recorder, tmux server, codex, and then its
// files, once codex is gone and cannot write into them any more. The
// server's own cleanup, registered after this one, has usually killed it
// already, logging the pane of a failed test first.
func (s *Session) close() {
	if s.tmux != nil {
		s.stopTmux()
	}
	if s.root != "" {
		if err := removeAll(s.root); err != nil {
			s.t.Errorf("codextest: remove session dir: %v", err)
		}
	}
}

// removeAll removes dir, trying again a few times: a hook Codex started as
// it exited (SessionEnd) may still drop a file into it.
func removeAll(dir string) error {
	var err error
	for range 5 {
		if err = os.RemoveAll(dir); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond) // nothing signals that the last hook is done
	}
	return err
}

// stopTmux stops the recorder, the server and codex.
func (s *Session) stopTmux() {
	if s.rec != nil {
		s.rec.stop(s.tmux)
	}
	s.tmux.Close()
	if s.pid > 0 {
		waitExit(s.pid, 5*time.Second)
	}
	if s.rec != nil {
		s.rec.wait()
	}
}

// waitExit waits for codex to leave after the server hung up on it, and
// kills it when it does not.
func waitExit(pid int, timeout time.Duration) {
	// A pid has no event to wait on.
	if wait.Until("codex to exit", timeout, func() bool { return syscall.Kill(pid, 0) != nil }) != nil {
		syscall.Kill(pid, syscall.SIGKILL) // best effort: it may have just exited
	}
}
