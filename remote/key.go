package remote

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// KeyFile is the name of the signing key's file in the state dir.
const KeyFile = "answer.key"

// KeySize is the size of the signing key in bytes.
const KeySize = 32

// LoadKey reads the signing key at path, making a new one when there is
// none. The file must be a regular file of KeySize bytes that only its
// owner may read; anything else is refused, naming the file, rather than
// trusted or replaced.
func LoadKey(path string) ([]byte, error) {
	key, err := readKey(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return key, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("make the answer key's dir: %w", err)
	}
	key = make([]byte, KeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("make the answer key: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return readKey(path) // another daemon made it first
	}
	if err != nil {
		return nil, fmt.Errorf("make the answer key: %w", err)
	}
	if _, err := f.Write(key); err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("write the answer key %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return nil, fmt.Errorf("write the answer key %s: %w", path, err)
	}
	return key, nil
}

func readKey(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, fmt.Errorf("answer key %s is a symlink; remove it and codeman makes a new key", path)
		}
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("answer key %s: %w", path, err)
	}
	switch {
	case !info.Mode().IsRegular():
		return nil, fmt.Errorf("answer key %s is not a regular file", path)
	case info.Mode().Perm()&0o077 != 0:
		return nil, fmt.Errorf("answer key %s may be read by others (mode %04o); chmod 600 it, or remove it and codeman makes a new key", path, info.Mode().Perm())
	case info.Size() != KeySize:
		return nil, fmt.Errorf("answer key %s holds %d bytes, not %d; remove it and codeman makes a new key", path, info.Size(), KeySize)
	}
	key := make([]byte, KeySize)
	if _, err := f.Read(key); err != nil {
		return nil, fmt.Errorf("read the answer key %s: %w", path, err)
	}
	return key, nil
}
