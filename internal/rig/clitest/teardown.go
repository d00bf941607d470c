package clitest

import (
	"os"
	"syscall"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/wait"
)

// close ends the session: recorder, tmux server, the CLI, and then its
// files, once the CLI is gone and cannot write into them any more. The
// server's own cleanup, registered after this one, has usually killed it
// already, logging the pane of a failed test first.
func (p *Pane) close() {
	if p.tmux != nil {
		p.stopTmux()
	}
	if p.root != "" {
		if err := removeAll(p.root); err != nil {
			p.t.Errorf("%s: remove session dir: %v", p.cfg.Pkg, err)
		}
	}
}

// removeAll removes dir, trying again a few times: a hook the CLI started
// as it exited (SessionEnd) may still drop a file into it.
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

// stopTmux stops the recorder, the screen session, the server and the
// CLI.
func (p *Pane) stopTmux() {
	if p.rec != nil {
		p.rec.stop(p.tmux)
	}
	if p.screen != nil {
		// A display that hangs up only detaches: the session and the CLI
		// would outlive the tmux server.
		p.screen.quit()
	}
	p.tmux.Close()
	if p.pid > 0 {
		waitExit(p.cfg.Program, p.pid, 5*time.Second)
	}
	if p.rec != nil {
		p.rec.wait()
	}
}

// waitExit waits for the CLI to leave after the server hung up on it, and
// kills it when it does not.
func waitExit(program string, pid int, timeout time.Duration) {
	// A pid has no event to wait on.
	if wait.Until(program+" to exit", timeout, func() bool { return syscall.Kill(pid, 0) != nil }) != nil {
		syscall.Kill(pid, syscall.SIGKILL) // best effort: it may have just exited
	}
}
