package hooks

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// InstallOptions says which settings file to edit and which binary the
// hooks run.
type InstallOptions struct {
	SettingsPath string // from SettingsPath
	Binary       string // absolute path of the codeman binary
}

// Report says what Install or Uninstall did.
type Report struct {
	SettingsPath string
	Changed      bool   // the file was written
	Backup       string // copy of the previous content, when Changed and there was one
	Added        []Entry
	Updated      []Entry // codeman's entries rewritten in place (other path or timeout)
	Removed      []Entry
}

// newFileMode is the mode of a settings file Install creates (before the
// umask), as Claude Code's own writes leave it.
const newFileMode = 0o644

// Install merges codeman's hook entries into the settings file, creating it
// (and its directory) when missing. Every other key and every hook of the
// user's stays as it was; only the layout is normalised to Claude Code's
// own (2-space indent). Entries of an older install are updated in place.
// When nothing needs to change the file is not touched at all. Before a
// write the previous content is copied to <file>.codeman-backup.
func Install(opts InstallOptions) (Report, error) {
	if !filepath.IsAbs(opts.Binary) {
		return Report{}, fmt.Errorf("install hooks: binary path %q is not absolute", opts.Binary)
	}
	return update(opts, wantedEntries)
}

// Uninstall removes exactly codeman's entries, and the groups, event lists
// and hooks object that only they filled, so that Install then Uninstall
// gives back the original settings.
func Uninstall(opts InstallOptions) (Report, error) {
	return update(opts, nil)
}

func update(opts InstallOptions, want []Entry) (Report, error) {
	rep := Report{SettingsPath: opts.SettingsPath}
	if opts.SettingsPath == "" {
		return rep, errors.New("edit settings: no settings path")
	}
	sf, err := readSettings(opts.SettingsPath)
	if err != nil {
		return rep, err
	}
	e := newEdit(want, opts.Binary)
	out, changed, err := e.apply(sf.data)
	if err != nil {
		return rep, fmt.Errorf("edit settings %s: %w", sf.path, err)
	}
	rep.Added, rep.Updated, rep.Removed = e.added, e.updated, e.removed
	if !changed {
		return rep, nil
	}
	if err := sf.write(out); err != nil {
		return rep, err
	}
	rep.Changed = true
	if sf.exists {
		rep.Backup = sf.backupPath()
	}
	return rep, nil
}

// write replaces the settings file atomically with the same mode, after
// keeping the previous content as the backup.
func (sf *settingsFile) write(data []byte) error {
	if err := sf.checkWritable(); err != nil {
		return err
	}
	if !sf.exists {
		// Create the settings directory (~/.claude, DIR/.claude), not
		// the directories above it: a missing home or project is a mistake.
		if err := os.Mkdir(filepath.Dir(sf.target), 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("create settings dir: %w", err)
		}
		return writeAtomic(sf.target, data, renameio.WithPermissions(newFileMode))
	}
	if err := writeAtomic(sf.backupPath(), sf.data, renameio.WithStaticPermissions(sf.mode)); err != nil {
		return fmt.Errorf("back up settings: %w", err)
	}
	return writeAtomic(sf.target, data, renameio.WithStaticPermissions(sf.mode))
}

// checkWritable turns a read-only file or directory into a clear error
// instead of silently replacing the file (a rename would succeed on a
// read-only file in a writable directory).
func (sf *settingsFile) checkWritable() error {
	if sf.exists && sf.mode&0o200 == 0 {
		return fmt.Errorf("write settings: %s is read-only (mode %04o)", sf.target, sf.mode)
	}
	dir := filepath.Dir(sf.target)
	if info, err := os.Stat(dir); err == nil && info.Mode().Perm()&0o200 == 0 {
		return fmt.Errorf("write settings: directory %s is read-only (mode %04o)", dir, info.Mode().Perm())
	}
	return nil
}

// writeAtomic writes data to a temp file beside path, syncs it and renames
// it over path.
func writeAtomic(path string, data []byte, perm renameio.Option) error {
	f, err := renameio.NewPendingFile(path, renameio.WithTempDir(filepath.Dir(path)), perm)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer f.Cleanup() // a no-op after a successful replace
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.CloseAtomicallyReplace(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
