//go:build unix

package screen

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/jonboulle/clockwork"
	"golang.org/x/sys/unix"
)

// Per-session locks that keep codeman's -Q and -X commands to one screen
// session apart across processes; the package doc says why.

// lockRoot is where the lock directory lives. The path depends on the
// user alone: the daemon and the command line may see different
// XDG_RUNTIME_DIR or TMPDIR, and a lock each found somewhere else would
// keep nothing apart.
const lockRoot = "/tmp"

// lockSubdir is the directory of the session locks, inside
// codeman-<euid>.
const lockSubdir = "screen-lock"

// LockDir returns the directory of the per-session locks,
// /tmp/codeman-<euid>/screen-lock, for a doctor to check.
func LockDir() string {
	return filepath.Join(lockRoot, "codeman-"+strconv.Itoa(os.Geteuid()), lockSubdir)
}

// Waits between tries of a lock that is taken, doubling from the first to
// the last.
const (
	lockFirstWait = time.Millisecond
	lockMaxWait   = 20 * time.Millisecond
)

// maxLockWait bounds the wait for a session's lock whatever the caller's
// context says. A holder runs one screen command, which DefaultExecTimeout
// and the exec WaitDelay bound.
const maxLockWait = DefaultExecTimeout + 2*time.Second

// lockSession takes session's lock: exclusive, or shared with other shared
// holders. It waits until the lock is free, ctx ends or maxLockWait
// passes. release drops the lock.
func lockSession(ctx context.Context, session string, exclusive bool) (release func(), err error) {
	return lockSessionIn(ctx, realClock, lockRoot, session, exclusive)
}

// lockSessionIn is lockSession with the clock that times the waits and
// the lock directory under root.
//
// Shared holders that follow each other would keep an exclusive waiter out
// for ever, so every taker first passes a turnstile, a second lock: a
// shared one passes at once, an exclusive one holds it while it waits, and
// no new shared holder gets in meanwhile.
func lockSessionIn(ctx context.Context, clock clockwork.Clock, root, session string, exclusive bool) (func(), error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("lock screen session %s: %w", session, err)
	}
	deadline := clock.Now().Add(maxLockWait)
	turnstile, err := takeLock(ctx, clock, deadline, root, session, turnstileSuffix, exclusive)
	if err != nil {
		return nil, err
	}
	defer turnstile()
	return takeLock(ctx, clock, deadline, root, session, "", exclusive)
}

// turnstileSuffix names a session's turnstile lock apart from its lock.
const turnstileSuffix = "\x00turnstile"

// takeLock takes the lock of session (with suffix, its turnstile) before
// deadline, exclusive or shared.
func takeLock(ctx context.Context, clock clockwork.Clock, deadline time.Time, root, session, suffix string, exclusive bool) (func(), error) {
	f, err := openLockFile(root, session+suffix)
	if err != nil {
		return nil, fmt.Errorf("lock screen session %s: %w", session, err)
	}
	wait := lockFirstWait
	for {
		ok, err := tryFlock(f, exclusive)
		switch {
		case err != nil:
			f.Close()
			return nil, fmt.Errorf("lock screen session %s: %w", session, err)
		case ok:
			return func() { f.Close() }, nil // closing drops the lock
		case !clock.Now().Before(deadline):
			f.Close()
			return nil, fmt.Errorf("lock screen session %s: %s still taken after %s: %w", session, f.Name(), maxLockWait, context.DeadlineExceeded)
		}
		timer := clock.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			f.Close()
			return nil, fmt.Errorf("lock screen session %s: wait for %s: %w", session, f.Name(), ctx.Err())
		case <-timer.Chan():
		}
		wait = min(2*wait, lockMaxWait)
	}
}

// tryFlock takes f's lock if it is free and reports whether it did.
func tryFlock(f *os.File, exclusive bool) (bool, error) {
	how := unix.LOCK_SH
	if exclusive {
		how = unix.LOCK_EX
	}
	err := unix.Flock(int(f.Fd()), how|unix.LOCK_NB)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, unix.EWOULDBLOCK), errors.Is(err, unix.EINTR):
		return false, nil
	}
	return false, fmt.Errorf("flock %s: %w", f.Name(), err)
}

// lockFileName is the lock file's name for session: a hash, so that any
// session name makes one plain file name.
func lockFileName(session string) string {
	sum := sha256.Sum256([]byte(session))
	return hex.EncodeToString(sum[:16]) + ".lock"
}

// openLockFile opens (creating it) the lock file of session in
// root/codeman-<euid>/screen-lock. Each directory is created 0700 and
// must be a real directory of ours that nobody else can write to; every
// step is opened relative to the one before without following symlinks,
// so that nothing planted in a shared root redirects it. The files stay
// after use, empty: removing a lock file while another process waits on
// it would let two hold the lock.
func openLockFile(root, session string) (*os.File, error) {
	fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", root, err)
	}
	path := root
	for _, name := range []string{"codeman-" + strconv.Itoa(os.Geteuid()), lockSubdir} {
		path = filepath.Join(path, name)
		sub, err := openPrivateDir(fd, name, path)
		unix.Close(fd)
		if err != nil {
			return nil, err
		}
		fd = sub
	}
	defer unix.Close(fd)
	name := lockFileName(session)
	path = filepath.Join(path, name)
	lfd, err := unix.Openat(fd, name, unix.O_RDWR|unix.O_CREAT|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open lock file %s: %w", path, err)
	}
	return os.NewFile(uintptr(lfd), path), nil
}

// openPrivateDir creates name in the directory dirfd with mode 0700 when
// it is missing, opens it and checks that it is ours and closed to group
// and others. path names it in errors.
func openPrivateDir(dirfd int, name, path string) (int, error) {
	if err := unix.Mkdirat(dirfd, name, 0o700); err != nil && !errors.Is(err, unix.EEXIST) {
		return -1, fmt.Errorf("create private dir %s: %w", path, err)
	}
	fd, err := unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		// ELOOP or ENOTDIR: a symlink or a file stands there.
		return -1, fmt.Errorf("open private dir %s: %w", path, err)
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, fmt.Errorf("check private dir %s: %w", path, err)
	}
	switch {
	case int(st.Uid) != os.Geteuid():
		unix.Close(fd)
		return -1, fmt.Errorf("private dir %s is owned by uid %d, not %d", path, st.Uid, os.Geteuid())
	case st.Mode&0o077 != 0:
		unix.Close(fd)
		return -1, fmt.Errorf("private dir %s has mode %04o, want 0700", path, st.Mode&0o777)
	}
	return fd, nil
}
