package hooks_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/codeman-dev/codeman/hooks"
)

func TestRuntimeDir(t *testing.T) {
	xdg, tmp := t.TempDir(), t.TempDir()
	uid := strconv.Itoa(os.Geteuid())
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"XDG", map[string]string{"XDG_RUNTIME_DIR": xdg, "TMPDIR": tmp}, filepath.Join(xdg, "codeman")},
		{"TMPDIR", map[string]string{"TMPDIR": tmp}, filepath.Join(tmp, "codeman-"+uid)},
		{"RelativeXDGIgnored", map[string]string{"XDG_RUNTIME_DIR": "run", "TMPDIR": tmp}, filepath.Join(tmp, "codeman-"+uid)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := hooks.RuntimeDir(envOf(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("RuntimeDir = %s, want %s", got, tt.want)
			}
			info, err := os.Lstat(got)
			if err != nil {
				t.Fatal(err)
			}
			if !info.IsDir() || info.Mode().Perm() != 0o700 {
				t.Errorf("runtime dir mode %v, want a 0700 dir", info.Mode())
			}
			spool, err := hooks.SpoolDir(envOf(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			if spool != filepath.Join(tt.want, "spool") {
				t.Errorf("SpoolDir = %s, want %s/spool", spool, tt.want)
			}
			// A second call accepts what the first created.
			if _, err := hooks.SpoolDir(envOf(tt.env)); err != nil {
				t.Errorf("second SpoolDir: %v", err)
			}
		})
	}
}

func TestRuntimeDir_Unsafe(t *testing.T) {
	t.Run("Symlink", func(t *testing.T) {
		xdg := t.TempDir()
		if err := os.Symlink(t.TempDir(), filepath.Join(xdg, "codeman")); err != nil {
			t.Fatal(err)
		}
		_, err := hooks.RuntimeDir(envOf(map[string]string{"XDG_RUNTIME_DIR": xdg}))
		if err == nil || !strings.Contains(err.Error(), "symlink") {
			t.Errorf("err = %v, want a symlink error", err)
		}
	})
	t.Run("NotADir", func(t *testing.T) {
		xdg := t.TempDir()
		if err := os.WriteFile(filepath.Join(xdg, "codeman"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := hooks.RuntimeDir(envOf(map[string]string{"XDG_RUNTIME_DIR": xdg})); err == nil {
			t.Error("RuntimeDir accepted a file")
		}
	})
	t.Run("OtherOwner", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("needs root to create a dir owned by another user")
		}
		xdg := t.TempDir()
		dir := filepath.Join(xdg, "codeman")
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(dir, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		_, err := hooks.RuntimeDir(envOf(map[string]string{"XDG_RUNTIME_DIR": xdg}))
		if err == nil || !strings.Contains(err.Error(), "owned by uid 65534") {
			t.Errorf("err = %v, want an owner error", err)
		}
	})
	t.Run("GroupWritable", func(t *testing.T) {
		xdg := t.TempDir()
		dir := filepath.Join(xdg, "codeman")
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, 0o770); err != nil {
			t.Fatal(err)
		}
		_, err := hooks.RuntimeDir(envOf(map[string]string{"XDG_RUNTIME_DIR": xdg}))
		if err == nil || !strings.Contains(err.Error(), "0770") {
			t.Errorf("err = %v, want a mode error", err)
		}
	})
}
