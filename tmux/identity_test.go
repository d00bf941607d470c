package tmux

import (
	"os"
	"path/filepath"
	"testing"
)

// Every spelling of one server's socket gives one address: "//", "./",
// "..", and a symlinked directory (macOS /tmp -> /private/tmp).
func TestCanonicalAddress(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real", "tmux-0")
	if err := os.MkdirAll(real, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(real, "s"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "real"), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	realDir, err := filepath.EvalSymlinks(real)
	if err != nil {
		t.Fatal(err)
	}
	want := "tmux:" + filepath.Join(realDir, "s") + ":%0"
	for _, socket := range []string{
		filepath.Join(real, "s"),
		dir + "/real//tmux-0/./s",
		dir + "/real/tmux-0/../tmux-0/s",
		dir + "/link/tmux-0/s",
	} {
		got, err := CanonicalAddress("tmux:" + socket + ":%0")
		if err != nil {
			t.Fatalf("CanonicalAddress(%s): %v", socket, err)
		}
		if got != want {
			t.Errorf("CanonicalAddress(%s) = %s, want %s", socket, got, want)
		}
	}
	if _, err := CanonicalAddress("tmux:" + dir + "/none/s:%0"); err == nil {
		t.Error("CanonicalAddress of a missing socket: no error")
	}
	if _, err := CanonicalAddress("tmux:relative/s:%0"); err == nil {
		t.Error("CanonicalAddress of a relative socket: no error")
	}
}
