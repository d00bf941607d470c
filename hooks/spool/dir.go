package spool

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// spoolName is the spool dir's name inside the runtime dir.
const spoolName = "spool"

// RuntimeDir returns codeman's private runtime dir and makes sure it exists:
// $XDG_RUNTIME_DIR/codeman, else $TMPDIR/codeman-$UID, else
// /tmp/codeman-$UID. It is created with mode 0700; an existing one must be a
// real directory (not a symlink) owned by the current user and closed to
// group and others, or RuntimeDir returns an error. The daemon keeps its
// socket there; the spool dir is inside it.
func RuntimeDir(env func(string) string) (string, error) {
	dir := runtimeDirPath(env)
	if err := EnsurePrivateDir(dir); err != nil {
		return "", err
	}
	return dir, nil
}

// Dir returns the spool dir, where hook markers are written:
// <runtime dir>/spool, created and checked with the runtime dir as
// RuntimeDir does.
func Dir(env func(string) string) (string, error) {
	dir, err := RuntimeDir(env)
	if err != nil {
		return "", err
	}
	spool := filepath.Join(dir, spoolName)
	if err := EnsurePrivateDir(spool); err != nil {
		return "", err
	}
	return spool, nil
}

func runtimeDirPath(env func(string) string) string {
	// XDG says to ignore a relative XDG_RUNTIME_DIR; the same goes for TMPDIR.
	if xdg := env("XDG_RUNTIME_DIR"); filepath.IsAbs(xdg) {
		return filepath.Join(xdg, "codeman")
	}
	tmp := env("TMPDIR")
	if !filepath.IsAbs(tmp) {
		tmp = "/tmp"
	}
	return filepath.Join(tmp, "codeman-"+strconv.Itoa(os.Geteuid()))
}

// EnsurePrivateDir creates dir with mode 0700 when it is missing, and checks
// that it is a directory of ours that nobody else can write to. The checks
// run on the path itself (Lstat): a symlink planted in a shared /tmp must
// not redirect markers or the socket.
func EnsurePrivateDir(dir string) error {
	err := os.Mkdir(dir, 0o700)
	if err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("create private dir: %w", err)
	}
	info, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("check private dir: %w", err)
	}
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("private dir %s is a symlink", dir)
	case !info.IsDir():
		return fmt.Errorf("private dir %s is not a directory", dir)
	}
	if uid, ok := fileOwner(info); ok && uid != os.Geteuid() {
		return fmt.Errorf("private dir %s is owned by uid %d, not %d", dir, uid, os.Geteuid())
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("private dir %s has mode %04o, want 0700", dir, perm)
	}
	return nil
}
