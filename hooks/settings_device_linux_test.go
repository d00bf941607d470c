package hooks_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/codeman-dev/codeman/hooks"
)

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
