package history

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Read returns the records of pane, or of every pane when pane is "",
// from since on (all when since is zero), oldest first: each pane's
// rotated files from the oldest, then its current file. Lines that are not
// records (one cut short by a crash) are skipped. A missing dir holds none.
func Read(dir, pane string, since time.Time) ([]Record, error) {
	files, err := historyFiles(dir, pane)
	if err != nil {
		return nil, err
	}
	var out []Record
	for _, path := range files {
		f, err := os.Open(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue // rotated away since the listing
		}
		if err != nil {
			return nil, fmt.Errorf("read history: %w", err)
		}
		err = eachLine(f, func(line []byte) {
			if r, ok := parseLine(line); ok && !r.At.Before(since) {
				out = append(out, r)
			}
		})
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("read history file %s: %w", path, err)
		}
	}
	// Files are in write order; panes interleave by time.
	slices.SortStableFunc(out, func(a, b Record) int { return a.At.Compare(b.At) })
	return out, nil
}

// historyFiles lists the files of pane ("" for all), each pane's oldest
// first.
func historyFiles(dir, pane string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list history dir: %w", err)
	}
	type file struct {
		pane string
		n    int
		name string
	}
	var files []file
	for _, e := range entries {
		p, n, ok := paneOf(e.Name())
		if ok && e.Type().IsRegular() && (pane == "" || p == pane) {
			files = append(files, file{p, n, e.Name()})
		}
	}
	slices.SortFunc(files, func(a, b file) int {
		return cmp.Or(cmp.Compare(a.pane, b.pane), cmp.Compare(b.n, a.n))
	})
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = filepath.Join(dir, f.name)
	}
	return paths, nil
}

// Panes lists the panes that have a history in dir.
func Panes(dir string) ([]string, error) {
	files, err := historyFiles(dir, "")
	if err != nil {
		return nil, err
	}
	var panes []string
	for _, path := range files {
		if p, _, _ := paneOf(filepath.Base(path)); !slices.Contains(panes, p) {
			panes = append(panes, p)
		}
	}
	return panes, nil
}
