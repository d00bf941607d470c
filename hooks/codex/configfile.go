package codex

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/codeman-dev/codeman/hooks"
)

// newConfigMode is the mode of a config.toml codeman creates: it may later
// hold API keys of model providers.
const newConfigMode = 0o600

// maxAttempts bounds the read-edit-write rounds of one config edit while
// another program (Codex itself) writes the file.
const maxAttempts = 20

// configFile is config.toml as read.
type configFile struct {
	path   string // as given
	target string // with symlinks resolved: a dotfile manager's link stays a link
	data   []byte
	exists bool
	mode   fs.FileMode
}

func readConfig(path string) (*configFile, error) {
	cf := &configFile{path: path, target: path}
	if info, err := os.Lstat(path); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		if cf.target, err = filepath.EvalSymlinks(path); err != nil {
			return nil, fmt.Errorf("resolve config link %s: %w", path, err)
		}
	}
	data, info, err := hooks.ReadRegular(cf.target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return cf, nil
	case err != nil:
		return nil, fmt.Errorf("read config %s: %w", path, err)
	}
	cf.data, cf.exists, cf.mode = data, true, info.Mode().Perm()
	return cf, nil
}

// editConfig reads config.toml, plans the state edit from its hook state,
// applies it as text and puts the result in place atomically, unless the
// file changed since it was read (then it starts over). A file left empty
// by the edit is removed: Codex reads an empty config as none. It returns
// the edit made.
func editConfig(path string, plan func(map[string]map[string]any) stateEdit) (stateEdit, error) {
	for range maxAttempts {
		cf, err := readConfig(path)
		if err != nil {
			return stateEdit{}, err
		}
		doc, err := parseConfig(path, cf.data)
		if err != nil {
			return stateEdit{}, err
		}
		e := plan(hookState(doc))
		if e.empty() {
			return e, nil
		}
		out, err := applyState(path, cf.data, e)
		if err != nil {
			return stateEdit{}, err
		}
		switch err := cf.commit(out); {
		case errors.Is(err, errConfigChanged):
			continue
		case err != nil:
			return stateEdit{}, err
		}
		return e, nil
	}
	return stateEdit{}, fmt.Errorf("edit config %s: %w (%d attempts)", path, hooks.ErrConcurrentChange, maxAttempts)
}

var errConfigChanged = errors.New("config file changed since it was read")

// commit writes data in place of what cf read, or removes the file when
// data is empty, after checking that the file is still the one read.
func (cf *configFile) commit(data []byte) error {
	now, err := readConfig(cf.path)
	if err != nil {
		return err
	}
	if now.exists != cf.exists || !bytes.Equal(now.data, cf.data) || now.target != cf.target {
		return errConfigChanged
	}
	if cf.exists && cf.mode&0o200 == 0 {
		return fmt.Errorf("write config: %s is read-only (mode %04o)", cf.target, cf.mode)
	}
	if len(data) == 0 {
		if !cf.exists {
			return nil
		}
		if err := os.Remove(cf.target); err != nil {
			return fmt.Errorf("remove config: %w", err)
		}
		return nil
	}
	mode := cf.mode
	if !cf.exists {
		mode = newConfigMode
	}
	if err := hooks.WriteAtomic(cf.target, data, mode); err != nil {
		return fmt.Errorf("write config %s: %w", cf.path, err)
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
