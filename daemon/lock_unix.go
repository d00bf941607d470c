//go:build unix

package daemon

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// ErrRunning means another daemon holds the lock.
var ErrRunning = errors.New("a codeman daemon is already running")

// lock takes the daemon lock without waiting and writes our pid into it.
// The kernel drops the lock when the process dies, so kill -9 leaves no
// stale lock behind.
func lock(path string) (*os.File, error) {
	f, err := tryLock(path, unix.LOCK_EX)
	if err != nil {
		return nil, err
	}
	f.Truncate(0)
	f.WriteString(strconv.Itoa(os.Getpid()) + "\n")
	return f, nil
}

// lockInfo is the content of the user lock: who holds it, where it listens.
type lockInfo struct {
	PID    int    `json:"pid"`
	Socket string `json:"socket"`
}

// lockUser takes the user's daemon lock, which lives in the state dir and
// so does not move with $XDG_RUNTIME_DIR (cron, systemd units and sudo -E
// often run without it): a daemon started from such a place finds the one
// already running instead of becoming a second one. The lock records the
// socket the holder listens on, for clients whose environment names
// another one (findRunning).
func lockUser(path, socket string) (*os.File, error) {
	f, err := tryLock(path, unix.LOCK_EX)
	if err != nil {
		return nil, err
	}
	data, _ := json.Marshal(lockInfo{PID: os.Getpid(), Socket: socket})
	f.Truncate(0)
	f.WriteAt(append(data, '\n'), 0)
	return f, nil
}

// findRunning reads the user lock: the pid and socket of the daemon that
// wrote it. ok is false when that process is gone. It does not take the
// lock, not even shared for a moment: a daemon starting then would find it
// held. The caller confirms with a request on the socket.
func findRunning(path string) (info lockInfo, ok bool) {
	f, err := os.OpenFile(path, os.O_RDONLY|unix.O_NOFOLLOW, 0)
	if err != nil {
		return lockInfo{}, false
	}
	defer f.Close()
	b := make([]byte, 4096)
	n, _ := f.ReadAt(b, 0)
	if json.Unmarshal(b[:n], &info) != nil || info.Socket == "" || info.PID <= 0 {
		return lockInfo{}, false
	}
	if err := unix.Kill(info.PID, 0); err != nil && !errors.Is(err, unix.EPERM) {
		return lockInfo{}, false
	}
	return info, true
}

// tryLock opens path (never through a symlink) and takes a flock of kind
// how without waiting.
func tryLock(path string, how int) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open lock: %w", err)
	}
	if err := unix.Flock(int(f.Fd()), how|unix.LOCK_NB); err != nil {
		b, _ := os.ReadFile(path)
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w (%s)", ErrRunning, holder(b))
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return f, nil
}

// holder describes a lock's holder from the lock file's content.
func holder(b []byte) string {
	var info lockInfo
	if json.Unmarshal(b, &info) == nil && info.PID > 0 {
		return fmt.Sprintf("pid %d, socket %s", info.PID, info.Socket)
	}
	return "pid " + strings.TrimSpace(string(b))
}
