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
