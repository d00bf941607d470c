//go:build unix

package daemon

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/codeman-dev/codeman/api"
	"golang.org/x/sys/unix"
)

// heldError says that another process holds a lock, and who.
type heldError struct{ holder api.LockInfo }

func (e *heldError) Error() string {
	msg := fmt.Sprintf("held by pid %d", e.holder.PID)
	if e.holder.Socket != "" {
		msg += ", socket " + e.holder.Socket
	}
	return msg
}

// lockDaemon takes a daemon lock and turns a held one into api.ErrRunning.
// There are two: the runtime dir's guards the socket; the user's lives in
// the state dir and so does not move with $XDG_RUNTIME_DIR (cron, systemd
// units and sudo -E often run without it), so that a daemon started from
// such a place finds the one already running instead of becoming a second
// one. Both record the socket the holder listens on, for clients whose
// environment names another one (api.FindRunning).
func lockDaemon(path, socket string) (*os.File, error) {
	f, err := takeLock(path, api.LockInfo{PID: os.Getpid(), Socket: socket})
	var held *heldError
	if errors.As(err, &held) {
		return nil, fmt.Errorf("%w (%s)", api.ErrRunning, held)
	}
	return f, err
}

// takeLock opens path (never through a symlink), takes an exclusive
// flock without waiting and writes info into the file. The kernel drops
// the lock when the process dies, so kill -9 leaves no stale lock behind.
// A lock another process holds is a *heldError naming it.
func takeLock(path string, info api.LockInfo) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open lock: %w", err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		var holder api.LockInfo
		b, _ := os.ReadFile(path)
		_ = json.Unmarshal(b, &holder) // a holder still writing says nothing yet
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, &heldError{holder}
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	data, _ := json.Marshal(info) // strings and an int always marshal
	f.Truncate(0)
	f.WriteAt(append(data, '\n'), 0)
	return f, nil
}
