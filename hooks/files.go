package hooks

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ReadRegular reads the regular file at path as the settings file is read:
// a FIFO, device, socket or directory is refused before it is opened. For
// another agent's config file beside its hooks file.
func ReadRegular(path string) ([]byte, fs.FileInfo, error) { return readRegular(path) }

// WriteAtomic replaces path with data of mode mode: a synced temp file
// beside it, renamed into place, so a reader sees the old file or the new
// one, never part of one.
func WriteAtomic(path string, data []byte, mode fs.FileMode) error {
	return writeAtomic(path, data, mode)
}

// ErrFileChanged says that another program wrote a file since it was read
// for an edit: nothing was written; read it again and redo the edit.
var ErrFileChanged = errChanged

// EditedFile is a file read for an edit that must not lose another
// program's write to it, such as another agent's config file: Commit is
// the compare-and-swap the settings file gets (commit.go).
type EditedFile struct{ sf *settingsFile }

// ReadForEdit reads the regular file at path, through a symlink to its
// target, for Commit; a missing file is read as missing. what names the
// file in errors ("config").
func ReadForEdit(path, what string) (*EditedFile, error) {
	sf, err := readEditable(path, what)
	if err != nil {
		return nil, err
	}
	return &EditedFile{sf: sf}, nil
}

// Data is the file's content as read; nil when it was missing.
func (f *EditedFile) Data() []byte { return f.sf.data }

// Exists reports whether the file existed when read.
func (f *EditedFile) Exists() bool { return f.sf.exists }

// Mode is the permission bits of the file as read.
func (f *EditedFile) Mode() fs.FileMode { return f.sf.mode }

// Target is the file's path with symlinks resolved.
func (f *EditedFile) Target() string { return f.sf.target }

// Commit puts data in place of the file as read, an empty data too: it
// creates the file with newMode when it was missing. When another program
// wrote the file since it was read, it returns ErrFileChanged and the
// other program's file stays (or, when yet another write came in between,
// is kept beside it as FILE.codeman-conflict, said in the error).
func (f *EditedFile) Commit(data []byte, newMode fs.FileMode) error {
	if !f.sf.exists {
		return f.sf.createMode(data, newMode)
	}
	return f.sf.replace(data, sideFiles(f.sf.target))
}

// Remove removes the file as read, unless another program wrote it since
// (ErrFileChanged, as Commit).
func (f *EditedFile) Remove() error {
	if !f.sf.exists {
		return nil
	}
	return f.sf.removeFile(sideFiles(f.sf.target))
}

// ProjectDir returns dir made absolute, which must be a directory: the
// repository or project a --project flag names.
func ProjectDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("find project dir: %w", err)
	}
	if info, err := os.Stat(abs); err != nil || !info.IsDir() {
		return "", fmt.Errorf("project dir %s is not a directory", abs)
	}
	return abs, nil
}

// ReadOwnFile reads for an edit a file codeman writes itself, such as
// another agent's hooks file of codeman's own: a symlink in its place is
// refused rather than followed (an edit would land wherever it points),
// as are anything but a regular file and a file larger than maxSize. what
// names the file in errors ("hooks file").
func ReadOwnFile(path, what string, maxSize int64) (*EditedFile, error) {
	info, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", what, err)
	case info.Mode()&fs.ModeSymlink != 0:
		return nil, fmt.Errorf("%s %s is a symlink, which codeman does not follow: it writes that file itself; remove the link (keep what it points to under another name)", what, path)
	case info.Mode().IsRegular() && info.Size() > maxSize:
		return nil, fmt.Errorf("%s %s is %d bytes, larger than codeman reads (%d): it is not codeman's; move it aside", what, path, info.Size(), maxSize)
	}
	return ReadForEdit(path, what)
}
