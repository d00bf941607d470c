package screen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/adrg/xdg"
	"github.com/google/renameio/v2"
)

// Screen windows have no user options to keep codeman's flag in (as tmux
// panes do with @codeman), so the windows codeman controls are kept in a
// state file, which the daemon reads on start to adopt them again.

// StateFileName is the state file's name under $XDG_STATE_HOME/codeman.
const StateFileName = "screen-windows.json"

// stateVersion is the file format; a file with another one is an error
// rather than something to overwrite.
const stateVersion = 1

// DefaultStatePath returns $XDG_STATE_HOME/codeman/screen-windows.json.
func DefaultStatePath() string {
	return filepath.Join(xdg.StateHome, "codeman", StateFileName)
}

// EnabledWindow is one window codeman controls.
type EnabledWindow struct {
	Address   string    `json:"address"`           // canonical, screen:PID.name:N
	Profile   string    `json:"profile,omitempty"` // config profile; empty for the defaults
	Sets      []string  `json:"sets,omitempty"`    // --set key=value overrides, in the order given
	EnabledAt time.Time `json:"enabled_at"`
	// Process is the program the window ran when it was enabled, where
	// the system tells (Linux): screen gives a closed window's number to
	// the next new one, and a starting daemon must not adopt that one.
	Process *Process `json:"process,omitempty"`
	// Paused: nothing is typed into the window until it is resumed.
	Paused bool `json:"paused,omitempty"`
}

// State is the content of the state file.
type State struct {
	Windows []EnabledWindow
}

type stateFile struct {
	Version int             `json:"version"`
	Windows []EnabledWindow `json:"windows"`
}

// LoadState reads the state file at path. A missing file is an empty
// state; a file that does not parse, or names a window badly, is an error
// naming the file and where, never silently replaced.
func LoadState(path string) (State, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return State{}, nil
	}
	if err != nil {
		return State{}, fmt.Errorf("read screen state: %w", err)
	}
	var f stateFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return State{}, fmt.Errorf("read screen state %s: %w", path, jsonErrorAt(data, err))
	}
	if f.Version != stateVersion {
		return State{}, fmt.Errorf("read screen state %s: version %d, want %d", path, f.Version, stateVersion)
	}
	for i, w := range f.Windows {
		if _, err := ParseAddress(w.Address); err != nil {
			return State{}, fmt.Errorf("read screen state %s: windows[%d].address: %w", path, i, err)
		}
	}
	return State{Windows: f.Windows}, nil
}

// Save writes s to path atomically (a temporary file renamed over it), so
// that a crash never leaves half a file. The directory is made 0700.
func (s State) Save(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("save screen state: %w", err)
	}
	windows := s.Windows
	if windows == nil {
		windows = []EnabledWindow{}
	}
	data, err := json.MarshalIndent(stateFile{Version: stateVersion, Windows: windows}, "", "  ")
	if err != nil {
		return fmt.Errorf("save screen state: %w", err)
	}
	if err := renameio.WriteFile(path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("save screen state: %w", err)
	}
	return nil
}

// Add records w, replacing an entry with the same address.
func (s *State) Add(w EnabledWindow) error {
	if _, err := ParseAddress(w.Address); err != nil {
		return fmt.Errorf("add window to screen state: %w", err)
	}
	s.Remove(w.Address)
	s.Windows = append(s.Windows, w)
	return nil
}

// Remove drops the entry for addr and reports whether there was one.
func (s *State) Remove(addr string) bool {
	n := len(s.Windows)
	s.Windows = slices.DeleteFunc(s.Windows, func(w EnabledWindow) bool { return w.Address == addr })
	return len(s.Windows) != n
}

// Find returns the entry for addr.
func (s State) Find(addr string) (EnabledWindow, bool) {
	i := slices.IndexFunc(s.Windows, func(w EnabledWindow) bool { return w.Address == addr })
	if i < 0 {
		return EnabledWindow{}, false
	}
	return s.Windows[i], true
}

// jsonErrorAt adds the line and column to a JSON syntax or type error.
func jsonErrorAt(data []byte, err error) error {
	var offset int64 = -1
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		offset = syntax.Offset
	case errors.As(err, &typ):
		offset = typ.Offset
	}
	if offset < 0 || offset > int64(len(data)) {
		return err
	}
	before := data[:offset]
	line := bytes.Count(before, []byte{'\n'}) + 1
	col := int(offset) - bytes.LastIndexByte(before, '\n')
	return fmt.Errorf("line %d column %d: %w", line, col, err)
}
