package codex

import (
	"errors"
	"fmt"
	"slices"

	"github.com/codeman-dev/codeman/hooks"
)

// newConfigMode is the mode of a config.toml codeman creates: it may later
// hold API keys of model providers.
const newConfigMode = 0o600

// maxAttempts bounds the read-edit-write rounds of one config edit while
// another program (Codex itself) writes the file.
const maxAttempts = 20

// configFile is config.toml as read for an edit.
type configFile struct {
	path string // as given
	*hooks.EditedFile
}

func readConfig(path string) (*configFile, error) {
	f, err := hooks.ReadForEdit(path, "config")
	if err != nil {
		return nil, err
	}
	return &configFile{path: path, EditedFile: f}, nil
}

// editConfig reads config.toml, plans the state edit from its hook state,
// applies it as text and puts the result in place with a compare-and-swap
// (hooks.EditedFile): when another program (Codex itself, an editor) wrote
// the file since it was read, nothing of that write is lost and the edit
// starts over from it. A file left empty by the edit is removed: Codex
// reads an empty config as none. It returns the edit made.
func editConfig(path string, plan func(map[string]map[string]any) stateEdit) (stateEdit, error) {
	for range maxAttempts {
		cf, err := readConfig(path)
		if err != nil {
			return stateEdit{}, err
		}
		doc, err := parseConfig(path, cf.Data())
		if err != nil {
			return stateEdit{}, err
		}
		e := plan(hookState(doc))
		if e.empty() {
			return e, nil
		}
		out, err := applyState(path, cf.Data(), e)
		if err != nil {
			return stateEdit{}, err
		}
		switch err := cf.commit(out); {
		case errors.Is(err, hooks.ErrFileChanged):
			continue
		case err != nil:
			return stateEdit{}, err
		}
		return e, nil
	}
	return stateEdit{}, fmt.Errorf("edit config %s: %w (%d attempts)", path, hooks.ErrConcurrentChange, maxAttempts)
}

// commit writes data in place of what cf read, or removes the file when
// data is empty, unless the file changed since (hooks.ErrFileChanged).
func (cf *configFile) commit(data []byte) error {
	if cf.Exists() && cf.Mode()&0o200 == 0 {
		return fmt.Errorf("write config: %s is read-only (mode %04o)", cf.Target(), cf.Mode())
	}
	err := cf.Commit(data, newConfigMode)
	if err != nil && !errors.Is(err, hooks.ErrFileChanged) {
		return fmt.Errorf("write config %s: %w", cf.path, err)
	}
	return err
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
