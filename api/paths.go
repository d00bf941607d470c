package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/codeman-dev/codeman/hooks/spool"
)

// Paths are the files of one user's daemon.
type Paths struct {
	Runtime     string // private runtime dir (0700): socket, lock, hook spool
	Socket      string // the API's unix socket
	Lock        string // held while a daemon runs on Socket
	UserLock    string // held while a daemon of the user runs on this host, whatever its runtime dir
	Claims      string // screen windows' owner locks; one dir per user, whatever the environment
	Spool       string // hook markers
	State       string // $XDG_STATE_HOME/codeman
	Log         string // daemon.log
	ScreenState string // enabled screen windows
	TmuxServers string // tmux server sockets the daemon has seen
}

// DefaultPaths returns the paths for the user whose environment env reads,
// creating the private runtime dir (owner and mode checked) when needed.
func DefaultPaths(env func(string) string) (Paths, error) {
	rt, err := spool.RuntimeDir(env)
	if err != nil {
		return Paths{}, fmt.Errorf("runtime dir: %w", err)
	}
	spoolDir, err := spool.Dir(env)
	if err != nil {
		return Paths{}, fmt.Errorf("spool dir: %w", err)
	}
	state := StateDir(env)
	claims, err := claimsDir()
	if err != nil {
		return Paths{}, err
	}
	host, _ := os.Hostname()
	return Paths{
		Runtime:     rt,
		Socket:      filepath.Join(rt, "daemon.sock"),
		Lock:        filepath.Join(rt, "daemon.lock"),
		UserLock:    filepath.Join(state, "daemon-"+safeName(host)+".lock"),
		Claims:      claims,
		Spool:       spoolDir,
		State:       state,
		Log:         filepath.Join(state, "daemon.log"),
		ScreenState: filepath.Join(state, "screen-windows.json"),
		TmuxServers: filepath.Join(state, "tmux-servers.json"),
	}, nil
}

// StateDir is $XDG_STATE_HOME/codeman, else ~/.local/state/codeman.
func StateDir(env func(string) string) string {
	if d := env("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "codeman")
	}
	return filepath.Join(env("HOME"), ".local", "state", "codeman")
}

// claimsDir is the private dir of the user's pane claims. It is the
// runtime dir codeman uses without XDG_RUNTIME_DIR and TMPDIR
// (/tmp/codeman-UID), so that every daemon of the user finds the same one.
func claimsDir() (string, error) {
	rt, err := spool.RuntimeDir(func(string) string { return "" })
	if err != nil {
		return "", fmt.Errorf("claims dir: %w", err)
	}
	return filepath.Join(rt, "claims"), nil
}

// HistoryDir is the dir of the pane histories: $XDG_STATE_HOME/codeman/history.
func HistoryDir(env func(string) string) string { return historyDir(StateDir(env)) }

// History is the dir of the pane histories.
func (p Paths) History() string { return historyDir(p.State) }

func historyDir(state string) string { return filepath.Join(state, "history") }

// Notified is the file in which the daemon keeps what its notifications
// told, one per host as the user lock; "" when there is no state dir to
// keep it in.
func (p Paths) Notified() string {
	if p.State == "" {
		return ""
	}
	host, _ := os.Hostname()
	return filepath.Join(p.State, "notified-"+safeName(host)+".json")
}

// LockInfo is what a lock file says of its holder: the daemon's locks
// (Paths.Lock, Paths.UserLock) and the claims of screen windows.
type LockInfo struct {
	PID    int    `json:"pid"`
	Socket string `json:"socket,omitempty"` // the daemon's API socket
	Pane   string `json:"pane,omitempty"`   // a claim's pane
}

// FindRunning reads the user lock: the pid and socket of the daemon that
// wrote it. ok is false when that process is gone. It does not take the
// lock, not even shared for a moment: a daemon starting then would find it
// held. The caller confirms with a request on the socket.
func FindRunning(path string) (info LockInfo, ok bool) {
	f, err := os.OpenFile(path, os.O_RDONLY|unix.O_NOFOLLOW, 0)
	if err != nil {
		return LockInfo{}, false
	}
	defer f.Close()
	b := make([]byte, 4096)
	n, _ := f.ReadAt(b, 0)
	if json.Unmarshal(b[:n], &info) != nil || info.Socket == "" || info.PID <= 0 {
		return LockInfo{}, false
	}
	if err := unix.Kill(info.PID, 0); err != nil && !errors.Is(err, unix.EPERM) {
		return LockInfo{}, false
	}
	return info, true
}

// safeName keeps a host name fit for a file name.
func safeName(s string) string {
	if s == "" {
		return "localhost"
	}
	return strings.Map(func(r rune) rune {
		if r == '/' || r == 0 {
			return '_'
		}
		return r
	}, s)
}
