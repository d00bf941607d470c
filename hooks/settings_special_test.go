package hooks_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/codeman-dev/codeman/hooks"
)

// specialTimeout bounds an operation that must refuse at once: a hang on a
// FIFO shows as this timeout.
const specialTimeout = 5 * time.Second

// runBounded runs op and fails the test when it does not return within
// specialTimeout; unblock is then called to free op (it may still leak).
func runBounded(t *testing.T, what string, op func() error, unblock func()) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- op() }()
	select {
	case err := <-done:
		return err
	case <-time.After(specialTimeout):
		unblock()
		t.Fatalf("%s still running after %s", what, specialTimeout)
		return nil
	}
}

// TestSettings_FIFO: a FIFO in place of settings.json is refused at once by
// install, uninstall and status, with the path in the error, and stays a
// FIFO.
func TestSettings_FIFO(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	if err := unix.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	// Opening the write end frees a reader blocked on the FIFO.
	unblock := func() {
		if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	}
	ops := map[string]func() error{
		"install":   func() error { _, err := hooks.Install(opts(path)); return err },
		"uninstall": func() error { _, err := hooks.Uninstall(opts(path)); return err },
		"status":    func() error { _, err := hooks.Status(opts(path)); return err },
	}
	for name, op := range ops {
		err := runBounded(t, name, op, unblock)
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("%s: err = %v, want a not-a-regular-file error naming %s", name, err, path)
		}
	}
	if info, err := os.Lstat(path); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("FIFO replaced: %v %v", info, err)
	}
}

// TestSettings_Directory: a directory in place of settings.json is refused
// with the same error.
func TestSettings_Directory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := hooks.Install(opts(path))
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("err = %v, want a not-a-regular-file error naming %s", err, path)
	}
}
