//go:build linux

package loadtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// perf records the daemon (pid) with `perf record -g` while the CPU window
// of the given number of panes runs, when -load.perf names a directory; the
// returned func stops it. The profile costs the daemon a little CPU of its
// own, so the window's figures run a little high.
func (r *rig) perf(t *testing.T, pid, panes int) (stop func()) {
	t.Helper()
	if *perfFlag == "" {
		return func() {}
	}
	bin, err := exec.LookPath("perf")
	if err != nil {
		t.Logf("-load.perf: perf is not installed, so no profile is recorded")
		return func() {}
	}
	if err := os.MkdirAll(*perfFlag, 0o755); err != nil {
		t.Fatalf("create -load.perf dir: %v", err)
	}
	out := filepath.Join(*perfFlag, fmt.Sprintf("daemon-%d.perf.data", panes))
	log, err := os.Create(out + ".log")
	if err != nil {
		t.Fatalf("create perf log: %v", err)
	}
	cmd := exec.Command(bin, "record", "-g", "-F", "999", "-p", strconv.Itoa(pid), "-o", out)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		log.Close()
		t.Errorf("start perf record: %v", err)
		return func() {}
	}
	return func() {
		defer log.Close()
		_ = cmd.Process.Signal(os.Interrupt) // perf writes its file on SIGINT, then dies of it
		_ = cmd.Wait()
		if fi, err := os.Stat(out); err != nil || fi.Size() == 0 {
			t.Errorf("perf record of the daemon with %d panes wrote no profile (see %s.log)", panes, out)
			return
		}
		t.Logf("daemon profile with %d panes: perf report -i %s --comm codeman", panes, out)
	}
}
