package screen_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/internal/wait"
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
