package codexhooks

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

// editConfig reads config.toml and its trust record, plans the edit for
// codeman's handlers (in) and puts the result in place with a
// compare-and-swap (hooks.EditedFile): when another program (Codex itself,
// an editor) wrote the file since it was read, nothing of that write is
// lost and the edit starts over from it. The file goes only when codeman
// created it and nothing else is left in it. It returns the edit made.
func editConfig(path string, in trustInputs) (*trustEdit, error) {
	for range maxAttempts {
		cf, err := readConfig(path)
		if err != nil {
			return nil, err
		}
		rec, err := readTrustRecord(path)
		if err != nil {
			return nil, err
		}
		te, err := planTrust(path, cf.Data(), cf.Exists(), rec, in)
		if err != nil {
			return nil, err
		}
		if !te.empty() {
			switch err := cf.commit(te.out, te.remove); {
			case errors.Is(err, hooks.ErrFileChanged):
				continue
			case err != nil:
				return nil, err
			}
		}
		if !sameTrustRecord(rec, te.rec) {
			if err := saveTrustRecord(path, te.rec); err != nil {
				return nil, err
			}
		}
		return te, nil
	}
	return nil, fmt.Errorf("edit config %s: %w (%d attempts)", path, hooks.ErrConcurrentChange, maxAttempts)
}

// checkWritable refuses a read-only config.toml before anything is
// written: a rename would replace it regardless.
func (cf *configFile) checkWritable() error {
	if cf.Exists() && cf.Mode()&0o200 == 0 {
		return fmt.Errorf("write config: %s is read-only (mode %04o)", cf.Target(), cf.Mode())
	}
	return nil
}

// commit writes data in place of what cf read, or removes the file,
// unless the file changed since (hooks.ErrFileChanged).
func (cf *configFile) commit(data []byte, remove bool) error {
	if err := cf.checkWritable(); err != nil {
		return err
	}
	var err error
	if remove {
		err = cf.Remove()
	} else {
		err = cf.Commit(data, newConfigMode)
	}
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
