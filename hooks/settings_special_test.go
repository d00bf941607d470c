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

// TestSettings_LinkToDevice: settings.json linked to a character device is
// refused; the device node stays a device node.
func TestSettings_LinkToDevice(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to create a device node (mknod)")
	}
	dir := t.TempDir()
	dev := filepath.Join(dir, "null")
	if err := unix.Mknod(dev, unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3))); err != nil {
		t.Skipf("cannot create a device node here: %v", err)
	}
	claude := filepath.Join(dir, ".claude")
	if err := os.Mkdir(claude, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(claude, "settings.json")
	if err := os.Symlink(dev, path); err != nil {
		t.Fatal(err)
	}
	for name, op := range map[string]func() error{
		"install": func() error { _, err := hooks.Install(opts(path)); return err },
		"status":  func() error { _, err := hooks.Status(opts(path)); return err },
	} {
		err := runBounded(t, name, op, func() {})
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("%s: err = %v, want a not-a-regular-file error naming %s", name, err, path)
		}
	}
	if info, err := os.Lstat(dev); err != nil || info.Mode()&os.ModeCharDevice == 0 {
		t.Errorf("device node replaced: %v %v", info, err)
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
