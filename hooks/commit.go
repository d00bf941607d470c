package hooks

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Writing a settings file without losing another program's write.
//
// Claude Code rewrites its settings file (a temp file renamed over the old
// one) with no lock, so a write of its can land between codeman's read and
// codeman's write, which would then drop it. codeman's write is therefore a
// compare-and-swap: it reads the file again just before, and puts its new
// file in place with an atomic exchange (renameat2 RENAME_EXCHANGE on
// Linux, renamex_np RENAME_SWAP on macOS). The exchange leaves the file it
// displaced in hand: when that is not the file codeman read, another
// program wrote in between and the exchange is undone, and the edit starts
// over from the other program's version. Where there is no exchange, a
// plain rename follows the re-read, and a write in the microseconds between
// the two goes undetected.
//
// A program that rewrites the file in place (truncate and write) rather
// than by rename can still lose a write that spans codeman's exchange.

var (
	// errChanged: the file is not the one the edit started from; the
	// edit starts over.
	errChanged = errors.New("settings file changed since it was read")
	// errNoExchange: the platform or file system has no atomic exchange.
	errNoExchange = errors.New("no atomic exchange")
)

// unchanged checks that path is the file sf read, with the same content.
// Anything else, an error included, is errChanged.
func (sf *settingsFile) unchanged(path string) error {
	data, info, err := readRegular(path)
	if err != nil || !os.SameFile(info, sf.info) || !bytes.Equal(data, sf.data) {
		return errChanged
	}
	return nil
}

// replace puts data in place of the file sf read, with its mode.
//
// The checks around the exchange are ordered to keep short the two windows
// in which another program's write can still be lost: between the last
// check and the exchange, and between the exchange and its undo (a reader
// then sees codeman's version, which lacks the other write). Each is a
// stat, not a read.
func (sf *settingsFile) replace(data []byte, side sidePaths) error {
	w := sf.watch()
	defer w.close()
	tmp, err := writeTemp(sf.target, data, sf.mode, true)
	if err != nil {
		return fmt.Errorf("write settings: %w", err)
	}
	ours, err := os.Lstat(tmp)
	if err == nil {
		err = sf.unchanged(sf.target)
	}
	if err == nil && (w.busy() || !sf.same(sf.target)) {
		err = errChanged
	}
	if err != nil {
		_ = os.Remove(tmp)
		return err
	}
	switch err := exchange(tmp, sf.target); {
	case errors.Is(err, errNoExchange):
		if err := os.Rename(tmp, sf.target); err != nil {
			_ = os.Remove(tmp)
			return fmt.Errorf("write settings: %w", err)
		}
		return nil
	case err != nil:
		_ = os.Remove(tmp)
		return fmt.Errorf("write settings: %w", err)
	}
	// tmp now names the file codeman's displaced: the one read, with the
	// content read (a program may rewrite a file in place).
	if !sf.same(tmp) || sf.unchanged(tmp) != nil {
		return sf.undo(tmp, ours, side)
	}
	_ = os.Remove(tmp)
	return nil
}

// watch starts watching the settings dir for other programs' writes; the
// temp and side files of codeman's edits are its own.
func (sf *settingsFile) watch() *dirWatch {
	base := filepath.Base(sf.target)
	return watchDir(filepath.Dir(sf.target), func(name string) bool {
		return strings.HasPrefix(name, "."+base+".codeman-") || strings.HasPrefix(name, base+".codeman-")
	})
}

// same reports whether path is the file sf read.
func (sf *settingsFile) same(path string) bool {
	info, err := os.Lstat(path)
	return err == nil && os.SameFile(info, sf.info)
}

// undo puts back the file another program wrote, which codeman's write at
// tmp displaced. When yet another write replaced codeman's meanwhile, that
// newest one goes in place and the one before it is kept beside the
// settings as the conflict file.
func (sf *settingsFile) undo(tmp string, ours fs.FileInfo, side sidePaths) error {
	if err := exchange(tmp, sf.target); err != nil {
		return fmt.Errorf("write settings: put back another program's write (kept as %s): %w", tmp, err)
	}
	if info, err := os.Lstat(tmp); err == nil && os.SameFile(info, ours) {
		_ = os.Remove(tmp)
		return errChanged
	}
	if err := exchange(tmp, sf.target); err != nil {
		return fmt.Errorf("write settings: put back another program's write (kept as %s): %w", tmp, err)
	}
	return sf.keepConflict(tmp, side)
}

// keepConflict moves another program's version that could not be put back
// aside, and says where it went.
func (sf *settingsFile) keepConflict(tmp string, side sidePaths) error {
	if err := os.Rename(tmp, side.conflict); err != nil {
		return fmt.Errorf("write settings %s: %w; another program's version is kept as %s", sf.path, ErrConcurrentChange, tmp)
	}
	return fmt.Errorf("write settings %s: %w; another program's version is kept as %s", sf.path, ErrConcurrentChange, side.conflict)
}

// create writes data as the new file, unless another program created one
// since the file was found missing.
func (sf *settingsFile) create(data []byte) error { return sf.createMode(data, newFileMode) }

// createMode is create with the new file's mode.
func (sf *settingsFile) createMode(data []byte, mode fs.FileMode) error {
	tmp, err := writeTemp(sf.target, data, mode, false)
	if err != nil {
		return fmt.Errorf("write settings: %w", err)
	}
	err = renameNoReplace(tmp, sf.target)
	if err == nil {
		return nil
	}
	_ = os.Remove(tmp)
	if errors.Is(err, fs.ErrExist) {
		return errChanged
	}
	return fmt.Errorf("write settings: %w", err)
}

// removeFile removes the file sf read, unless another program replaced it.
func (sf *settingsFile) removeFile(side sidePaths) error {
	w := sf.watch()
	defer w.close()
	if err := sf.unchanged(sf.target); err != nil {
		return err
	}
	if w.busy() || !sf.same(sf.target) {
		return errChanged
	}
	tmp := tempName(sf.target)
	if err := os.Rename(sf.target, tmp); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return errChanged
		}
		return fmt.Errorf("remove settings: %w", err)
	}
	if sf.unchanged(tmp) == nil {
		if err := os.Remove(tmp); err != nil {
			return fmt.Errorf("remove settings: %w", err)
		}
		return nil
	}
	// Another program's file: it goes back unless yet another came.
	switch err := renameNoReplace(tmp, sf.target); {
	case err == nil:
		return errChanged
	case errors.Is(err, fs.ErrExist):
		return sf.keepConflict(tmp, side)
	default:
		return fmt.Errorf("remove settings: put back another program's write (kept as %s): %w", tmp, err)
	}
}

// keepOnce writes data to path unless path exists. It reports whether it
// wrote.
func keepOnce(path string, data []byte, mode fs.FileMode) (bool, error) {
	tmp, err := writeTemp(path, data, mode, true)
	if err != nil {
		return false, err
	}
	err = renameNoReplace(tmp, path)
	if err == nil {
		return true, nil
	}
	_ = os.Remove(tmp)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	return false, err
}

// writeAtomic replaces path with data, mode mode.
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	tmp, err := writeTemp(path, data, mode, true)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	return nil
}

// writeTemp writes data, synced, to a new temp file beside path and
// returns its name. Its mode is mode, or mode less the umask when exact is
// false (a new file).
func writeTemp(path string, data []byte, mode fs.FileMode, exact bool) (string, error) {
	tmp := tempName(path)
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, mode)
	if err != nil {
		return "", err
	}
	if exact {
		err = f.Chmod(mode)
	}
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(tmp)
		return "", err
	}
	return tmp, nil
}

// tempName is a fresh hidden name beside path.
func tempName(path string) string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".codeman-"+hex.EncodeToString(b[:])+".tmp")
}
