package aicheck_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/agents/aicheck"
	"github.com/codeman-dev/codeman/internal/rig/wait"
)

// waitTimeout bounds every wait on a condition; generous for a loaded CI.
const waitTimeout = 10 * time.Second

// fakeCLI is a claude or codex executable (a symlink to the test binary)
// in a directory of its own, with a directory for what the fake records.
type fakeCLI struct {
	name   string // "claude" or "codex"
	binDir string // holds the symlink
	dir    string // the fake's records, pid and release files
}

// newFakeClaude returns a fake claude.
func newFakeClaude(t *testing.T) *fakeCLI { return newFakeCLI(t, "claude") }

// newFakeCodex returns a fake codex, which answers in codex exec --json
// events; its runners run Codex checks.
func newFakeCodex(t *testing.T) *fakeCLI { return newFakeCLI(t, "codex") }

func newFakeCLI(t *testing.T, name string) *fakeCLI {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeCLI{name: name, binDir: t.TempDir(), dir: t.TempDir()}
	if err := os.Symlink(exe, f.path()); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fakeCLI) path() string { return filepath.Join(f.binDir, f.name) }

// env is a checks' environment that finds the fake first on PATH and
// makes it behave as mode, plus extra variables.
func (f *fakeCLI) env(mode string, extra ...string) []string {
	env := []string{
		"HOME=" + os.Getenv("HOME"),
		"PATH=" + f.binDir + string(filepath.ListSeparator) + os.Getenv("PATH"),
		fakeModeVar + "=" + mode,
		fakeDirVar + "=" + f.dir,
		// A -race test binary otherwise sleeps 1s before a clean exit.
		"GORACE=atexit_sleep_ms=0",
	}
	return append(env, extra...)
}

// runner returns a Runner whose checks run the fake in mode.
func (f *fakeCLI) runner(t *testing.T, mode string, opts aicheck.Options) *aicheck.Runner {
	t.Helper()
	if opts.Env == nil {
		opts.Env = f.env(mode)
	}
	if f.name == "codex" {
		opts.CLI = aicheck.Codex
	}
	r, err := aicheck.New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return r
}

func (f *fakeCLI) record(t *testing.T) invocation {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(f.dir, "record.json"))
	if err != nil {
		t.Fatalf("read the fake's record: %v", err)
	}
	var inv invocation
	if err := json.Unmarshal(data, &inv); err != nil {
		t.Fatal(err)
	}
	return inv
}

// pid returns the pid the fake wrote to name, waiting for it.
func (f *fakeCLI) pid(t *testing.T, name string) int {
	t.Helper()
	var pid int
	wait.For(t, "the fake to write "+name, waitTimeout, func() bool {
		data, err := os.ReadFile(filepath.Join(f.dir, name))
		if err != nil {
			return false
		}
		pid, err = strconv.Atoi(string(data))
		return err == nil
	})
	return pid
}

// writtenPid returns the pid the fake wrote to name before the check
// ended; a fake that was killed before writing it cannot write it later.
func (f *fakeCLI) writtenPid(t *testing.T, name string) int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(f.dir, name))
	if err != nil {
		t.Fatalf("the fake had not written %s when the check ended (an overloaded machine?): %v", name, err)
	}
	pid, err := strconv.Atoi(string(data))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

func (f *fakeCLI) count(prefix string) int {
	entries, _ := os.ReadDir(f.dir) // none yet reads as zero
	n := 0
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) && !strings.HasSuffix(e.Name(), ".tmp") {
			n++
		}
	}
	return n
}

func (f *fakeCLI) release(t *testing.T) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(f.dir, "release"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
}

// waitGone waits until pid has exited (and is at most a zombie waiting for
// init to reap it).
func waitGone(t *testing.T, what string, pid int) {
	t.Helper()
	wait.For(t, fmt.Sprintf("%s (pid %d) to die", what, pid), waitTimeout, func() bool { return processGone(pid) })
}

func processGone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return errors.Is(err, os.ErrNotExist)
	}
	// The state is the first field after the parenthesized command name.
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	return len(fields) > 0 && fields[0] == "Z"
}
