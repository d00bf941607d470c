//go:build unix

package daemon

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// ErrRunning means another daemon holds the lock.
var ErrRunning = errors.New("a codeman daemon is already running")

// lockInfo is what a lock file says of its holder.
type lockInfo struct {
	PID    int    `json:"pid"`
	Socket string `json:"socket,omitempty"` // the daemon's API socket
	Pane   string `json:"pane,omitempty"`   // a claim's pane
}

// heldError says that another process holds a lock, and who.
type heldError struct{ holder lockInfo }

func (e *heldError) Error() string {
	msg := fmt.Sprintf("held by pid %d", e.holder.PID)
	if e.holder.Socket != "" {
		msg += ", socket " + e.holder.Socket
	}
	return msg
}

// lockDaemon takes a daemon lock and turns a held one into ErrRunning.
// There are two: the runtime dir's guards the socket; the user's lives in
// the state dir and so does not move with $XDG_RUNTIME_DIR (cron, systemd
// units and sudo -E often run without it), so that a daemon started from
// such a place finds the one already running instead of becoming a second
// one. Both record the socket the holder listens on, for clients whose
// environment names another one (findRunning).
func lockDaemon(path, socket string) (*os.File, error) {
	f, err := takeLock(path, lockInfo{PID: os.Getpid(), Socket: socket})
	var held *heldError
	if errors.As(err, &held) {
		return nil, fmt.Errorf("%w (%s)", ErrRunning, held)
	}
	return f, err
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

// takeLock opens path (never through a symlink), takes an exclusive
// flock without waiting and writes info into the file. The kernel drops
// the lock when the process dies, so kill -9 leaves no stale lock behind.
// A lock another process holds is a *heldError naming it.
func takeLock(path string, info lockInfo) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open lock: %w", err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		var holder lockInfo
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
