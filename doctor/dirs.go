package doctor

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/screen"
)

// lockRootDir is /tmp/codeman-<euid>: the dir of the claims and of
// package screen's session locks, which every process of the user finds
// whatever its environment.
func lockRootDir(euid int) string { return filepath.Join("/tmp", "codeman-"+strconv.Itoa(euid)) }

// checkDirs checks codeman's dirs: the private ones (runtime, spool,
// claims, screen locks), which must be real dirs of the user closed to
// everyone else, and the state dir, which nobody else may write to.
func (d *Doctor) checkDirs(paths api.Paths, pathsErr error) []Check {
	root := lockRootDir(d.Euid)
	claims := filepath.Join(root, "claims")
	var checks []Check
	if pathsErr != nil {
		checks = append(checks, Check{Name: "runtime dir", Verdict: VerdictError, Message: pathsErr.Error(),
			Fix: "chmod 700 the dir it names if it is yours, else remove it (codeman makes it again)"})
	} else {
		claims = paths.Claims
		checks = append(checks, d.checkPrivateDir("runtime dir", paths.Runtime, false), d.checkPrivateDir("spool dir", paths.Spool, false))
	}
	if pathsErr != nil || paths.Runtime != root {
		checks = append(checks, d.checkPrivateDir("lock dir", root, true))
	}
	checks = append(checks,
		d.checkPrivateDir("claims dir", claims, true),
		d.checkPrivateDir("screen lock dir", filepath.Join(root, filepath.Base(screen.LockDir())), true),
		d.checkStateDir(api.StateDir(d.Env)))
	return checks
}

// checkPrivateDir checks a dir that must be the user's, mode 0700, and not
// a symlink. A missing one is fine when codeman makes it on first use.
func (d *Doctor) checkPrivateDir(name, path string, mayBeMissing bool) Check {
	info, err := d.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && mayBeMissing:
		return Check{Name: name, Verdict: VerdictOK, Message: path + " does not exist yet; codeman makes it when needed"}
	case err != nil:
		return Check{Name: name, Verdict: VerdictError, Message: err.Error(), Fix: "run the command again; codeman makes the dir"}
	case info.Mode()&fs.ModeSymlink != 0:
		return Check{Name: name, Verdict: VerdictError, Message: path + " is a symlink, which codeman refuses: anyone may have planted it",
			Fix: "rm " + path + " (codeman makes the dir again)"}
	case !info.IsDir():
		return Check{Name: name, Verdict: VerdictError, Message: path + " is not a directory", Fix: "rm " + path + " (codeman makes the dir again)"}
	}
	if uid, ok := ownerOf(info); ok && uid != d.Euid {
		return Check{Name: name, Verdict: VerdictError, Message: fmt.Sprintf("%s belongs to uid %d, not to you (uid %d)", path, uid, d.Euid),
			Fix: "have its owner or root remove it (codeman makes it again)"}
	}
	switch perm := info.Mode().Perm(); {
	case perm&0o077 != 0:
		return Check{Name: name, Verdict: VerdictError, Message: fmt.Sprintf("%s has mode %04o: others may reach codeman's socket, markers and locks; codeman refuses it", path, perm),
			Fix: "chmod 700 " + path}
	case perm&0o700 != 0o700:
		return Check{Name: name, Verdict: VerdictError, Message: fmt.Sprintf("%s has mode %04o: codeman cannot use it", path, perm), Fix: "chmod 700 " + path}
	}
	return Check{Name: name, Verdict: VerdictOK, Message: path + " (0700)"}
}

// checkStateDir checks the dir of the daemon's log, lock and records of
// enabled panes: a symlink is fine, but nobody else may write in it, or
// they could enable panes for the next daemon to adopt.
func (d *Doctor) checkStateDir(path string) Check {
	const name = "state dir"
	info, err := d.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Check{Name: name, Verdict: VerdictOK, Message: path + " does not exist yet; the daemon makes it"}
	case err != nil:
		return Check{Name: name, Verdict: VerdictError, Message: err.Error(), Fix: "make " + path + " a directory of yours: mkdir -p -m 700 " + path}
	case !info.IsDir():
		return Check{Name: name, Verdict: VerdictError, Message: path + " is not a directory", Fix: "move it away; the daemon makes the dir"}
	}
	if uid, ok := ownerOf(info); ok && uid != d.Euid {
		return Check{Name: name, Verdict: VerdictError, Message: fmt.Sprintf("%s belongs to uid %d, not to you (uid %d)", path, uid, d.Euid),
			Fix: "have its owner or root give it to you, or remove it (the daemon makes it again)"}
	}
	switch perm := info.Mode().Perm(); {
	case perm&0o022 != 0:
		return Check{Name: name, Verdict: VerdictError, Message: fmt.Sprintf("%s has mode %04o: others may write the records of the panes codeman adopts", path, perm),
			Fix: "chmod 700 " + path}
	case perm&0o700 != 0o700:
		return Check{Name: name, Verdict: VerdictError, Message: fmt.Sprintf("%s has mode %04o: the daemon cannot write its log and records", path, perm),
			Fix: "chmod 700 " + path}
	}
	return Check{Name: name, Verdict: VerdictOK, Message: fmt.Sprintf("%s (%04o)", path, info.Mode().Perm())}
}

// ownerOf returns the uid that owns a file, when the system says.
func ownerOf(info fs.FileInfo) (int, bool) {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid), true
	}
	return 0, false
}
