package hooks

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// lockSuffix: the lock file beside a settings file. An Install or
// Uninstall holds it, exclusively, across reading the settings and the
// record, editing and writing both, so that two of codeman's at once do
// not both add their hooks: each would read the file without the other's
// and the compare-and-swap would only make the second start over from the
// first's file, record not yet written. Status holds it shared, so that
// it reads the two as one install left them.
const lockSuffix = ".codeman-lock"

// Lock is the lock of one settings file, held until Unlock.
type Lock struct{ f *os.File }

// LockMode says what a lock is for.
type LockMode int

const (
	// LockRead (Status) holds the lock shared, and only when the lock
	// file is there: reading changes nothing.
	LockRead LockMode = iota
	// LockUninstall holds it exclusively; when the settings directory is
	// missing there is nothing to remove and no lock.
	LockUninstall
	// LockInstall holds it exclusively, creating the settings directory
	// when missing (only that one: a missing home or project is a
	// mistake), as the install would.
	LockInstall
)

// LockSettings takes the lock of the settings file at path, waiting for
// another install or uninstall of codeman's to finish. A directory where
// nothing can be written gets no lock: no edit can be made there either.
func LockSettings(path string, mode LockMode) (*Lock, error) {
	lockPath := path + lockSuffix
	how := unix.LOCK_EX
	switch mode {
	case LockRead:
		how = unix.LOCK_SH
	case LockInstall:
		if err := os.Mkdir(filepath.Dir(path), 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("create settings dir: %w", err)
		}
	}
	f, err := openLock(lockPath, mode != LockRead)
	switch {
	case errors.Is(err, fs.ErrNotExist) && mode != LockInstall,
		errors.Is(err, fs.ErrPermission), errors.Is(err, syscall.EROFS):
		return &Lock{}, nil
	case err != nil:
		return nil, fmt.Errorf("lock settings: %w", err)
	}
	for {
		err = unix.Flock(int(f.Fd()), how)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock settings %s: %w", lockPath, err)
	}
	return &Lock{f: f}, nil
}

// openLock opens the lock file: for an edit created when missing, and
// read-only when it is there but not writable (flock needs no write).
func openLock(path string, create bool) (*os.File, error) {
	if create {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, lockMode)
		if !errors.Is(err, fs.ErrPermission) && !errors.Is(err, syscall.EROFS) {
			return f, err
		}
	}
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
}

// lockMode is the lock file's mode; it holds nothing.
const lockMode = 0o600

// Unlock releases the lock. The lock file stays: removing it while
// another process waits on it would let a third take a lock of its own.
func (l *Lock) Unlock() {
	if l != nil && l.f != nil {
		l.f.Close()
		l.f = nil
	}
}

// lock takes the settings file's lock for opts, unless the caller holds
// it (opts.Locked).
func (o InstallOptions) lock(mode LockMode) (*Lock, error) {
	if o.Locked || o.SettingsPath == "" {
		return &Lock{}, nil
	}
	return LockSettings(o.SettingsPath, mode)
}
