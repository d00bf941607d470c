package screen

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jonboulle/clockwork"
)

// modeRunner records the modes of the hardcopy file and its directory
// at the moment screen is asked to write it, and writes it like screen
// with `hardcopy_append on`.
type modeRunner struct {
	*fakeScreen
	fileMode, dirMode os.FileMode
	path              string
}

func (m *modeRunner) Run(ctx context.Context, args ...string) (string, error) {
	if n := len(args); n > 1 && args[n-2] == "hardcopy" {
		m.path = args[n-1]
		if fi, err := os.Stat(m.path); err == nil {
			m.fileMode = fi.Mode().Perm()
		}
		if fi, err := os.Stat(filepath.Dir(m.path)); err == nil {
			m.dirMode = fi.Mode().Perm()
		}
		// With hardcopy_append on and the file there, screen writes a
		// separator row first.
		return "", os.WriteFile(m.path, []byte(">"+strings.Repeat("=", 8)+"<\nrow one\nrow two\n"), 0o600)
	}
	return m.fakeScreen.Run(ctx, args...)
}

func TestCapture_PrivateFilesAndAppendHeader(t *testing.T) {
	f := newFakeScreen("5.cap")
	f.addWindow("0", 10, "row one", "row two")
	r := &modeRunner{fakeScreen: f}
	parent := t.TempDir()
	c, err := newCapturer(Window{"5.cap", "0"}, r, clockwork.NewFakeClock(), DefaultCaptureTimeout, parent)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.capture(context.Background(), 2)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(trimAppendHeader(b)); got != "row one\nrow two\n" {
		t.Errorf("hardcopy without its header = %q", got)
	}
	if r.fileMode != 0o600 || r.dirMode != 0o700 || !filepath.IsAbs(r.path) {
		t.Errorf("hardcopy %s requested with file mode %v, directory mode %v; want an absolute path, 0600 and 0700",
			r.path, r.fileMode, r.dirMode)
	}
	if _, err := os.Stat(r.path); !os.IsNotExist(err) {
		t.Errorf("hardcopy file left after reading: %v", err)
	}
	if err := c.close(); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 0 {
		t.Errorf("left in the temp dir: %v", entries)
	}
}

func TestNewCapturer_RefusesDirectoriesScreenRewrites(t *testing.T) {
	for _, dir := range []string{"/tmp/a$HOME", "/tmp/b^A", `/tmp/c\001`} {
		_, err := newCapturer(Window{"5.cap", "0"}, nil, clockwork.NewFakeClock(), DefaultCaptureTimeout, dir)
		if err == nil || !strings.Contains(err.Error(), "TMPDIR") {
			t.Errorf("newCapturer(%q) = %v, want a refusal", dir, err)
		}
	}
}

func TestHasAppendHeader(t *testing.T) {
	for in, want := range map[string]bool{
		">==========<\nx\n": true,
		"><\n":              true,
		">== x ==<\n":       false,
		"plain\n":           false,
		"":                  false,
	} {
		if got := hasAppendHeader([]byte(in)); got != want {
			t.Errorf("hasAppendHeader(%q) = %v", in, got)
		}
	}
}
