package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unicode/utf8"
)

// SyntaxError is a settings file that is not valid JSON. The file is left
// as it is.
type SyntaxError struct {
	Path         string
	Line, Column int // 1-based; the column counts characters
	Err          error
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %v", e.Path, e.Line, e.Column, e.Err)
}

func (e *SyntaxError) Unwrap() error { return e.Err }

// checkSyntax validates data as JSON, locating the first error. An empty
// (or blank) file is valid: Claude Code reads it as no settings.
func checkSyntax(path string, data []byte) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	err := json.Unmarshal(data, new(json.RawMessage))
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return err
	}
	// Offset counts the bytes read up to and including the bad one; a file
	// that ends too early is reported at its end.
	pos := min(max(int(se.Offset)-1, 0), len(data))
	if strings.HasPrefix(se.Error(), "unexpected end") {
		pos = len(data)
	}
	line := 1 + bytes.Count(data[:pos], []byte("\n"))
	lineStart := bytes.LastIndexByte(data[:pos], '\n') + 1
	col := 1 + utf8.RuneCount(data[lineStart:pos])
	return &SyntaxError{Path: path, Line: line, Column: col, Err: se}
}

// settingsFile is a settings file as read, and where to write it back.
type settingsFile struct {
	path   string      // as given
	target string      // path with symlinks resolved: a dotfile manager's link stays a link
	data   []byte      // the content; nil when the file does not exist
	exists bool        // the file exists (it may be empty)
	mode   fs.FileMode // of the existing file
	info   fs.FileInfo // of the existing file, to tell it from a replacement
}

func readSettings(path string) (*settingsFile, error) {
	sf, err := readEditable(path, "settings")
	if err != nil {
		return nil, err
	}
	if err := checkSyntax(path, sf.data); err != nil {
		return nil, fmt.Errorf("read settings: %w", err)
	}
	return sf, nil
}

// readEditable reads the file at path for an edit, through a symlink to
// its target; a missing file is read as missing. what names the file in
// errors ("settings").
func readEditable(path, what string) (*settingsFile, error) {
	sf := &settingsFile{path: path, target: path}
	info, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return sf, nil
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", what, err)
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		if sf.target, err = filepath.EvalSymlinks(path); err != nil {
			return nil, fmt.Errorf("resolve %s link: %w", what, err)
		}
	}
	data, info, err := readRegular(sf.target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return sf, nil
	case err != nil:
		where := path
		if sf.target != path {
			where += " -> " + sf.target
		}
		return nil, fmt.Errorf("read %s %s: %w", what, where, err)
	}
	sf.data, sf.exists, sf.mode, sf.info = data, true, info.Mode().Perm(), info
	return sf, nil
}

// readRegular reads a regular file, refusing anything else before opening
// it: opening a FIFO for reading blocks until a writer comes, and opening a
// device can have effects of its own. The open is non-blocking and checked
// again on the descriptor, in case the path changed in between.
func readRegular(path string) ([]byte, fs.FileInfo, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, nil, notRegular(info.Mode())
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if info, err = f.Stat(); err != nil {
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, nil, notRegular(info.Mode())
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, nil, err
	}
	return data, info, nil
}

// notRegular says what a file is instead of a regular one.
func notRegular(mode fs.FileMode) error {
	kind := "special file"
	switch mode.Type() {
	case fs.ModeDir:
		kind = "directory"
	case fs.ModeNamedPipe:
		kind = "FIFO"
	case fs.ModeSocket:
		kind = "socket"
	case fs.ModeDevice:
		kind = "block device"
	case fs.ModeDevice | fs.ModeCharDevice:
		kind = "character device"
	}
	return fmt.Errorf("not a regular file but a %s", kind)
}
