package hooks

import "io/fs"

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
