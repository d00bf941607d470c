package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/codeman-dev/codeman/respawn"
)

// File is config.toml. Its toml tags name the file's tables, and the tags
// of the types below them name their keys: they are the format, which
// Parse checks a file against.
type File struct {
	Respawn respawn.Config `toml:"respawn"`
	// Profiles are the user's [profile.NAME] tables, resolved at parse
	// time: [respawn], then the built-in preset of that name if any, then
	// the table.
	Profiles map[string]respawn.Config `toml:"profile"`
	Screen   Screen                    `toml:"screen"`
	Tmux     Tmux                      `toml:"tmux"`
	Checks   Checks                    `toml:"checks"`
	Notify   Notify                    `toml:"notify"`
	Patterns []respawn.PatternSpec     `toml:"pattern"`
	// ProfileNotify are the user's [profile.NAME.notify] tables, resolved
	// at parse time over [notify]: one for every user profile.
	ProfileNotify map[string]NotifyPane `toml:"-"`
	Path          string                `toml:"-"` // the file read, or that would have been read
}

// Screen is the [screen] table.
type Screen struct {
	// PollInterval is how often a window's hardcopy is read, 200ms..10s.
	// Default 1s.
	PollInterval time.Duration `toml:"poll_interval"`
	// SendPause and EnterRetries are as in [tmux], for screen windows.
	SendPause    time.Duration `toml:"send_pause"`
	EnterRetries int           `toml:"enter_retries"`
}

// SendTiming returns how text is typed into a screen window.
func (s Screen) SendTiming() respawn.SendTiming { return sendTiming(s.SendPause, s.EnterRetries) }

// Tmux is the [tmux] table.
type Tmux struct {
	// SendPause is the pause between typed text and its Enter, 0..5s.
	// Default 100ms.
	SendPause time.Duration `toml:"send_pause"`
	// EnterRetries is how often Enter is pressed again when the screen did
	// not change, 0..10. Default 3.
	EnterRetries int `toml:"enter_retries"`
}

// SendTiming returns how text is typed into a tmux pane.
func (t Tmux) SendTiming() respawn.SendTiming { return sendTiming(t.SendPause, t.EnterRetries) }

// sendTiming is the default timing with a table's pause and retries.
func sendTiming(pause time.Duration, retries int) respawn.SendTiming {
	t := respawn.DefaultSendTiming()
	t.Pause, t.EnterRetries = pause, retries
	return t
}

// Checks is the [checks] table.
type Checks struct {
	// ClaudePath is the claude binary AI checks run; "" searches PATH.
	ClaudePath string `toml:"claude_path"`
	// CodexPath is the codex binary the AI checks of Codex panes run; ""
	// searches PATH.
	CodexPath string `toml:"codex_path"`
	// CopilotPath is the copilot binary the AI checks of GitHub Copilot
	// CLI panes run; "" searches PATH.
	CopilotPath string `toml:"copilot_path"`
	// OpenCodePath is the opencode binary the AI checks of OpenCode panes
	// run; "" searches PATH.
	OpenCodePath string `toml:"opencode_path"`
	// MaxConcurrent bounds the AI checks running at once in the daemon,
	// 1..16. Default 2.
	MaxConcurrent int `toml:"max_concurrent"`
}

// Defaults of the backend tables that are not the send defaults of
// package respawn.
const (
	DefaultScreenPollInterval  = 1 * time.Second
	DefaultMaxConcurrentChecks = 2
)

// Default returns the configuration used when there is no file.
func Default() *File {
	return &File{
		Respawn:       respawn.DefaultConfig(),
		Profiles:      map[string]respawn.Config{},
		Screen:        Screen{PollInterval: DefaultScreenPollInterval, SendPause: respawn.DefaultSendPause, EnterRetries: respawn.DefaultEnterRetries},
		Tmux:          Tmux{SendPause: respawn.DefaultSendPause, EnterRetries: respawn.DefaultEnterRetries},
		Checks:        Checks{MaxConcurrent: DefaultMaxConcurrentChecks},
		Notify:        defaultNotify(),
		ProfileNotify: map[string]NotifyPane{},
	}
}

// DefaultPath returns $XDG_CONFIG_HOME/codeman/config.toml, with XDG's
// fallback to ~/.config on every system (macOS included), as tmux users
// expect. The environment is read on each call.
func DefaultPath() string {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if !filepath.IsAbs(dir) { // the XDG spec says to ignore relative paths
		home, _ := os.UserHomeDir() // without $HOME the path is relative to the working directory
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "codeman", "config.toml")
}

// Load reads and validates a config file; "" reads DefaultPath. A missing
// file gives the defaults with Path set; a file that is not a regular one
// (after symlinks), or is larger than MaxFileSize, is an error naming it.
func Load(path string) (*File, error) {
	if path == "" {
		path = DefaultPath()
	}
	data, err := readFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		f := Default()
		f.Path = path
		return f, nil
	}
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// MaxFileSize bounds the config file: a real one is a few KiB, so a larger
// file is the wrong file, read no further.
const MaxFileSize = 4 << 20

// readFile reads the config file through a symlink, refusing anything but
// a regular file of at most MaxFileSize. The open is non-blocking, so a
// FIFO does not wait for a writer, and what was opened is checked on the
// descriptor: /dev/zero or a FIFO is never read.
func readFile(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("read config: %s is not a regular file but a %s; point it at a config.toml", described(path), fileKind(info.Mode()))
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("read config: %s is larger than %d MiB, which no config file is; is it the right file?", described(path), MaxFileSize>>20)
	}
	return data, nil
}

// described names path, and what it links to when it is a symlink.
func described(path string) string {
	if info, err := os.Lstat(path); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		if target, err := filepath.EvalSymlinks(path); err == nil {
			return path + " -> " + target
		}
	}
	return path
}

// fileKind says what a file that is not a regular one is.
func fileKind(mode fs.FileMode) string {
	switch mode.Type() {
	case fs.ModeDir:
		return "directory"
	case fs.ModeNamedPipe:
		return "FIFO"
	case fs.ModeSocket:
		return "socket"
	case fs.ModeDevice:
		return "block device"
	case fs.ModeDevice | fs.ModeCharDevice:
		return "character device"
	}
	return "special file"
}

// Profile returns the configuration of a profile: "" is [respawn];
// otherwise [respawn] overlaid by the built-in preset of that name, if
// any, overlaid by the user's [profile.NAME], if any.
func (f *File) Profile(name string) (respawn.Config, error) {
	if name == "" {
		return f.Respawn, nil
	}
	if c, ok := f.Profiles[name]; ok {
		return c, nil
	}
	c := f.Respawn
	if applyPreset(name, &c) {
		return c, nil
	}
	return respawn.Config{}, fmt.Errorf("unknown profile %q (known: %s)", name, strings.Join(f.ProfileNames(), ", "))
}

// ProfileNames returns the built-in presets and the user's profiles,
// sorted.
func (f *File) ProfileNames() []string {
	names := PresetNames()
	for name := range f.Profiles {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// Effective returns a pane's configuration: the profile ("" for
// [respawn]) with --set values ("key=value", see Set) applied, validated.
func (f *File) Effective(profile string, sets []string) (respawn.Config, error) {
	c, err := f.Profile(profile)
	if err != nil {
		return respawn.Config{}, err
	}
	for _, s := range sets {
		key, value, ok := strings.Cut(s, "=")
		if !ok {
			return respawn.Config{}, fmt.Errorf("--set %q: want key=value", s)
		}
		if err := Set(&c, strings.TrimSpace(key), value); err != nil {
			return respawn.Config{}, fmt.Errorf("--set %s: %w", s, err)
		}
	}
	if err := Validate(c); err != nil {
		return respawn.Config{}, err
	}
	return c, nil
}
