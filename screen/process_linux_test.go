package screen_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/internal/rig/wait"
	"github.com/codeman-dev/codeman/screen"
)

// windowPID starts sh in window n, which writes its PID to a file and
// then becomes sleep, and returns that PID once it runs sleep: while the
// exec is under way its environment cannot be read.
func windowPID(t *testing.T, s *testSession, n string) int {
	t.Helper()
	file := filepath.Join(t.TempDir(), "pid")
	s.run("-X", "screen", n, "sh", "-c", "echo $$ > "+file+"; exec sleep 600")
	var pid int
	wait.For(t, "window "+n+" to run sleep", waitTimeout, func() bool {
		b, err := os.ReadFile(file)
		if err != nil || !strings.HasSuffix(string(b), "\n") {
			return false
		}
		if pid, err = strconv.Atoi(strings.TrimSpace(string(b))); err != nil {
			return false
		}
		proc := "/proc/" + strconv.Itoa(pid) + "/"
		comm, err := os.ReadFile(proc + "comm")
		if err != nil || string(comm) != "sleep\n" {
			return false
		}
		env, err := os.ReadFile(proc + "environ")
		return err == nil && len(env) > 0
	})
	return pid
}

// A window's program is found by its number, and a window that closes and
// is opened again under the same number is told from the one before.
func TestIntegration_WindowProcess(t *testing.T) {
	s := startEcho(t)
	w := s.window("3")
	first := windowPID(t, s, "3")
	was, ok := screen.WindowProcess(w)
	if !ok || was.PID != first || was.Start == 0 {
		t.Fatalf("WindowProcess = %+v, %t; want pid %d with a start time", was, ok, first)
	}
	if other, ok := screen.WindowProcess(s.window("0")); !ok || other.PID == first {
		t.Fatalf("WindowProcess of window 0 = %+v, %t; want the echo program", other, ok)
	}

	s.run("-p", "3", "-X", "kill")
	second := windowPID(t, s, "3")
	now, ok := screen.WindowProcess(w)
	if !ok || now.PID != second || now == was {
		t.Fatalf("WindowProcess after the window was opened again = %+v, %t; want pid %d, not %+v", now, ok, second, was)
	}

	if _, ok := screen.WindowProcess(s.window("7")); ok {
		t.Error("WindowProcess found a program for a window that does not exist")
	}
	if _, ok := screen.WindowProcess(screen.Window{Session: "work", Window: "0"}); ok {
		t.Error("WindowProcess found a program for a session named without its PID")
	}
}

// A window is still the one enabled while it runs the program recorded
// then: once that program exits, the window is gone even before a new
// program takes its number, and after that the number is another's.
func TestIntegration_StillRuns(t *testing.T) {
	s := startEcho(t)
	w := s.window("3")
	windowPID(t, s, "3")
	was, ok := screen.WindowProcess(w)
	if !ok {
		t.Fatal("WindowProcess found no program in window 3")
	}
	if err := screen.StillRuns(w, was); err != nil {
		t.Fatalf("StillRuns of the window's own program: %v", err)
	}

	s.run("-p", "3", "-X", "kill")
	var err error
	wait.For(t, "the window's program to have exited", waitTimeout, func() bool {
		err = screen.StillRuns(w, was)
		return err != nil
	})
	var exited *screen.ExitedError
	if !errors.As(err, &exited) || !errors.Is(err, screen.ErrNoWindow) || exited.Was != was {
		t.Fatalf("StillRuns after the window closed = %v; want an ExitedError for %+v wrapping ErrNoWindow", err, was)
	}

	windowPID(t, s, "3")
	err = screen.StillRuns(w, was)
	var replaced *screen.ReplacedError
	if !errors.As(err, &replaced) || replaced.Was != was || replaced.Now == was {
		t.Fatalf("StillRuns after a new program took the number = %v; want a ReplacedError", err)
	}
}
