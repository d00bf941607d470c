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
// cutting off a line a crash left unfinished) when needed. An open file
// its path no longer leads to (the file or the dir removed, moved or
// replaced) is opened again: writes to it would be lost without an error.
func (w *Writer) file(pane string) (*paneFile, error) {
	if pf := w.files[pane]; pf != nil {
		if now, err := os.Stat(pf.path); err == nil && os.SameFile(now, pf.info) {
			return pf, nil
		}
		w.closeFile(pane)
	}
	// The dir, removed since Open, is made again.
	if err := os.MkdirAll(w.opts.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("create history dir: %w", err)
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
	pf := &paneFile{f: f, path: path, info: fi, size: fi.Size()}
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
		w.fail(pane, fmt.Errorf("close history file: %w", err))
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
			w.fail("", err)
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
			w.fail("", fmt.Errorf("prune history: %w", err))
		}
	}
	return nil
}

// pruneFile drops the lines of path older than MaxAge, and path itself
// when none is left. Lines are in time order, so a file whose first line
// is young enough is left alone without reading the rest, and the lines
// from the first young one on are copied as they are: a file of any size
// is pruned in bounded memory.
func (w *Writer) pruneFile(path string) error {
	if w.opts.MaxAge < 0 {
		return nil
	}
	cutoff := w.opts.Clock.Now().Add(-w.opts.MaxAge)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("open history file: %w", err)
	}
	defer f.Close()
	lr := newLineReader(f)
	line, err := youngLine(lr, cutoff)
	switch {
	case err != nil:
		return fmt.Errorf("read history file %s: %w", path, err)
	case line == nil:
		return os.Remove(path) // every line aged out
	case lr.lines == 1 && lr.tooLong == 0:
		return nil // the first line is young: nothing to drop
	}
	return replaceFile(path, func(out io.Writer) error {
		if _, err := out.Write(append(line, '\n')); err != nil {
			return err
		}
		_, err := lr.WriteTo(out)
		return err
	})
}

// youngLine returns the first line of lr that is a record of cutoff or
// later, nil when none is.
func youngLine(lr *lineReader, cutoff time.Time) ([]byte, error) {
	for {
		line, err := lr.next()
		if line == nil || err != nil {
			return nil, err
		}
		if r, ok := parseLine(line); ok && !r.At.Before(cutoff) {
			return line, nil
		}
	}
}

// replaceFile writes path anew through a temporary file and a rename, so
// a crash leaves the old file or the new one; write writes its content.
func replaceFile(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".prune-*")
	if err != nil {
		return fmt.Errorf("prune history file: %w", err)
	}
	bw := bufio.NewWriterSize(tmp, 64<<10)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
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

// MaxLine bounds a line a reader keeps; longer ones are skipped, and
// counted. A record is a few hundred bytes.
const MaxLine = 4 << 20

// lineReader reads a history file one line at a time in bounded memory:
// a buffer, and a line of up to MaxLine being put together.
type lineReader struct {
	br      *bufio.Reader
	buf     []byte // a line longer than br's buffer
	lines   int    // lines returned
	tooLong int    // lines skipped for being longer than MaxLine
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 32<<10)}
}

// next returns the next line without its newline, the last one too when
// it has none; nil at the end. Empty lines and lines longer than MaxLine
// are passed over. The line is valid until the next call.
func (lr *lineReader) next() ([]byte, error) {
	lr.buf = lr.buf[:0]
	skipping := false
	for {
		chunk, err := lr.br.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			if !skipping && len(lr.buf)+len(chunk) <= MaxLine {
				lr.buf = append(lr.buf, chunk...)
			} else {
				lr.buf, skipping = lr.buf[:0], true
			}
			continue
		case err != nil && !errors.Is(err, io.EOF):
			return nil, err
		}
		line := bytes.TrimSuffix(chunk, []byte("\n"))
		if len(lr.buf) > 0 {
			line = append(lr.buf, line...)
		}
		switch {
		case skipping || len(line) > MaxLine:
			lr.tooLong++
		case len(line) > 0:
			lr.lines++
			if cap(lr.buf) > 64<<10 {
				lr.buf = nil // a long line's buffer is not kept for the rest
			}
			return line, nil
		}
		lr.buf, skipping = lr.buf[:0], false
		if err != nil {
			return nil, nil
		}
	}
}

// WriteTo copies what is left of the file, unread.
func (lr *lineReader) WriteTo(w io.Writer) (int64, error) { return lr.br.WriteTo(w) }

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
