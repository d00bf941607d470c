package hooks

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchange swaps the files at a and b atomically.
func exchange(a, b string) error {
	err := unix.RenamexNp(a, b, unix.RENAME_SWAP)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOTSUP) {
		return errNoExchange
	}
	return err
}

// renameNoReplace renames a to b unless b exists (fs.ErrExist).
func renameNoReplace(a, b string) error {
	err := unix.RenamexNp(a, b, unix.RENAME_EXCL)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOTSUP) {
		return linkNoReplace(a, b)
	}
	return err
}
