package daemon

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/codeman-dev/codeman/hooks"
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
	rt, err := hooks.RuntimeDir(env)
	if err != nil {
		return Paths{}, fmt.Errorf("runtime dir: %w", err)
	}
	spool, err := hooks.SpoolDir(env)
	if err != nil {
		return Paths{}, fmt.Errorf("spool dir: %w", err)
	}
	state := stateDir(env)
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
		Spool:       spool,
		State:       state,
		Log:         filepath.Join(state, "daemon.log"),
		ScreenState: filepath.Join(state, "screen-windows.json"),
		TmuxServers: filepath.Join(state, "tmux-servers.json"),
	}, nil
}

// stateDir is $XDG_STATE_HOME/codeman, else ~/.local/state/codeman.
func stateDir(env func(string) string) string {
	if d := env("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "codeman")
	}
	return filepath.Join(env("HOME"), ".local", "state", "codeman")
}

// claimsDir is the private dir of the user's pane claims. It is the
// runtime dir codeman uses without XDG_RUNTIME_DIR and TMPDIR
// (/tmp/codeman-UID), so that every daemon of the user finds the same one.
func claimsDir() (string, error) {
	rt, err := hooks.RuntimeDir(func(string) string { return "" })
	if err != nil {
		return "", fmt.Errorf("claims dir: %w", err)
	}
	return filepath.Join(rt, "claims"), nil
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
