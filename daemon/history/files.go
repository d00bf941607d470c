package history

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// file returns pane's current file open for appending, opening it (and
// cutting off a line a crash left unfinished) when needed.
func (w *Writer) file(pane string) (*paneFile, error) {
	if pf := w.files[pane]; pf != nil {
		return pf, nil
	}
	path := filepath.Join(w.opts.Dir, fileName(pane))
	if err := cutPartialLine(path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open history file: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("stat history file: %w", err)
	}
	pf := &paneFile{f: f, size: fi.Size()}
	w.files[pane] = pf
	return pf, nil
}

func (w *Writer) closeFile(pane string) {
	pf := w.files[pane]
	if pf == nil {
		return
	}
	delete(w.files, pane)
	if err := pf.f.Close(); err != nil {
		w.fail(fmt.Errorf("close history file: %w", err))
	}
}

// rotate shifts pane's closed files by one (the current one becomes .1,
// the oldest beyond Keep goes) and drops what has aged out of them.
func (w *Writer) rotate(pane string) error {
	path := func(n int) string {
		if n == 0 {
			return filepath.Join(w.opts.Dir, fileName(pane))
		}
		return filepath.Join(w.opts.Dir, rotated(pane, n))
	}
	if err := os.Remove(path(w.opts.Keep)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("rotate history: %w", err)
	}
	for n := w.opts.Keep - 1; n >= 0; n-- {
		if err := os.Rename(path(n), path(n+1)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("rotate history: %w", err)
		}
	}
	for n := 1; n <= w.opts.Keep; n++ {
		if err := w.pruneFile(path(n)); err != nil {
			w.fail(err)
		}
	}
	return nil
}

// pruneAll drops the files beyond Keep and the lines older than MaxAge
// of every history file in the dir.
func (w *Writer) pruneAll() error {
	entries, err := os.ReadDir(w.opts.Dir)
	if err != nil {
		return fmt.Errorf("list history dir: %w", err)
	}
	for _, e := range entries {
		_, n, ok := paneOf(e.Name())
		if !ok || !e.Type().IsRegular() {
			continue
		}
		path := filepath.Join(w.opts.Dir, e.Name())
		if n > w.opts.Keep {
			err = os.Remove(path)
		} else {
			err = w.pruneFile(path)
		}
		if err != nil {
			w.fail(fmt.Errorf("prune history: %w", err))
		}
	}
	return nil
}

// pruneFile drops the lines of path older than MaxAge, and path itself
// when none is left. Lines are in time order, so a file whose first line
// is young enough is left alone without reading the rest.
func (w *Writer) pruneFile(path string) error {
	if w.opts.MaxAge < 0 {
		return nil
	}
	cutoff := w.opts.Clock.Now().Add(-w.opts.MaxAge)
	if young, err := firstLineSince(path, cutoff); young || err != nil {
		return err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read history file: %w", err)
	}
	var keep bytes.Buffer
	eachLine(bytes.NewReader(data), func(line []byte) {
		if r, ok := parseLine(line); ok && !r.At.Before(cutoff) {
			keep.Write(line)
			keep.WriteByte('\n')
		}
	})
	if keep.Len() == 0 {
		return os.Remove(path)
	}
	return replaceFile(path, keep.Bytes())
}

// firstLineSince reports whether the first line of path is a record of
// cutoff or later; a missing file is young.
func firstLineSince(path string, cutoff time.Time) (bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("open history file: %w", err)
	}
	defer f.Close()
	first, _ := bufio.NewReader(f).ReadSlice('\n')
	r, ok := parseLine(bytes.TrimSuffix(first, []byte("\n")))
	return ok && !r.At.Before(cutoff), nil
}

// replaceFile writes data to path through a temporary file and a rename,
// so a crash leaves the old file or the new one.
func replaceFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".prune-*")
	if err != nil {
		return fmt.Errorf("prune history file: %w", err)
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("prune history file %s: %w", path, err)
	}
	return nil
}

// cutPartialLine truncates path after its last newline: a writer killed
// mid-line left the rest, which would run into the next record.
func cutPartialLine(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("open history file: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("stat history file: %w", err)
	}
	end, err := lastNewline(f, fi.Size())
	if err != nil {
		return fmt.Errorf("read history file %s: %w", path, err)
	}
	if end == fi.Size() {
		return nil
	}
	if err := f.Truncate(end); err != nil {
		return fmt.Errorf("cut partial line of %s: %w", path, err)
	}
	return nil
}

// lastNewline returns the offset just past the last '\n' of a file of
// the given size, reading backwards; 0 when it has none.
func lastNewline(f io.ReaderAt, size int64) (int64, error) {
	buf := make([]byte, 64<<10)
	for end := size; end > 0; {
		start := max(end-int64(len(buf)), 0)
		chunk := buf[:end-start]
		if _, err := f.ReadAt(chunk, start); err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		if i := bytes.LastIndexByte(chunk, '\n'); i >= 0 {
			return start + int64(i) + 1, nil
		}
		end = start
	}
	return 0, nil
}

// maxLine bounds a line Read keeps; longer ones are skipped.
const maxLine = 4 << 20

// eachLine calls fn with every line of r without its newline, the last
// one too when it has none; lines longer than maxLine are skipped.
func eachLine(r io.Reader, fn func([]byte)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte
	skipping := false
	for {
		chunk, err := br.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			if !skipping && len(long)+len(chunk) <= maxLine {
				long = append(long, chunk...)
			} else {
				long, skipping = nil, true
			}
			continue
		case err != nil && !errors.Is(err, io.EOF):
			return err
		}
		line := bytes.TrimSuffix(chunk, []byte("\n"))
		if long != nil {
			line = append(long, line...)
		}
		if !skipping && len(line) > 0 && len(line) <= maxLine {
			fn(line)
		}
		long, skipping = nil, false
		if err != nil {
			return nil
		}
	}
}

// parseLine reads one line as a record; a line cut short, or one that is
// not a record, is not.
func parseLine(line []byte) (Record, bool) {
	var r Record
	if len(line) == 0 || line[0] != '{' {
		return r, false
	}
	if err := json.Unmarshal(line, &r); err != nil || r.V < 1 || r.Pane == "" || r.At.IsZero() {
		return r, false
	}
	return r, true
}
