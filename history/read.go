package history

import (
	"cmp"
	"container/heap"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Skipped counts the lines a read passed over.
type Skipped struct {
	Long    int // longer than MaxLine
	Corrupt int // not records: cut short by a crash, or not a record's JSON
}

// Lines is how many lines were skipped.
func (s Skipped) Lines() int { return s.Long + s.Corrupt }

// Read returns the records of pane, or of every pane when pane is "",
// from since on (all when since is zero), oldest first: each pane's
// rotated files from the oldest, then its current file. Lines that are not
// records (one cut short by a crash) are skipped. A missing dir holds none.
// It holds every record in memory; Each streams them.
func Read(dir, pane string, since time.Time) ([]Record, error) {
	var out []Record
	if _, err := Each(dir, pane, since, func(r Record) error { out = append(out, r); return nil }); err != nil {
		return nil, err
	}
	// A pane's lines are in write order, which is time order but for a
	// clock stepped back.
	slices.SortStableFunc(out, func(a, b Record) int { return a.At.Compare(b.At) })
	return out, nil
}

// Each calls fn with the records Read returns, in the same order for
// files in time order, reading in bounded memory whatever their size: one
// open file and one record per pane, the panes merged by time (a tie goes
// to the pane first in address order). Lines longer than MaxLine and
// lines that are not records are skipped and counted. An error of fn ends
// the read and is returned.
func Each(dir, pane string, since time.Time, fn func(Record) error) (Skipped, error) {
	var skipped Skipped
	files, err := historyFiles(dir, pane)
	if err != nil {
		return skipped, err
	}
	var h streams
	defer func() {
		for _, s := range h {
			s.close()
		}
	}()
	for _, paths := range byPane(files) {
		s := &stream{order: len(h), paths: paths, since: since, skipped: &skipped}
		if err := s.advance(); err != nil {
			s.close()
			return skipped, err
		}
		if s.ok {
			h = append(h, s)
		}
	}
	heap.Init(&h)
	for len(h) > 0 {
		s := h[0]
		if err := fn(s.rec); err != nil {
			return skipped, err
		}
		if err := s.advance(); err != nil {
			return skipped, err
		}
		if s.ok {
			heap.Fix(&h, 0)
		} else {
			heap.Pop(&h)
			s.close()
		}
	}
	return skipped, nil
}

// byPane groups the paths historyFiles lists, a pane's together.
func byPane(paths []string) [][]string {
	var out [][]string
	last := ""
	for _, path := range paths {
		p, _, _ := paneOf(filepath.Base(path))
		if len(out) == 0 || p != last {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], path)
		last = p
	}
	return out
}

// stream reads the records of one pane's files in turn.
type stream struct {
	order   int      // the pane's place in address order, for ties
	paths   []string // files still to open, the oldest first
	since   time.Time
	skipped *Skipped
	f       *os.File
	path    string
	lr      *lineReader
	rec     Record // the next record, when ok
	ok      bool
}

// advance reads the next record from since on, opening the pane's next
// file when one ends; ok is false once all are read.
func (s *stream) advance() error {
	for {
		if s.lr == nil {
			if open, err := s.open(); !open || err != nil {
				s.ok = false
				return err
			}
		}
		line, err := s.lr.next()
		if err != nil {
			return fmt.Errorf("read history file %s: %w", s.path, err)
		}
		if line == nil {
			s.skipped.Long += s.lr.tooLong
			s.close()
			continue
		}
		r, ok := parseLine(line)
		switch {
		case !ok:
			s.skipped.Corrupt++
		case !r.At.Before(s.since):
			s.rec, s.ok = r, true
			return nil
		}
	}
}

// open opens the next file of the pane; false when none is left. A file
// rotated away since the listing is passed over.
func (s *stream) open() (bool, error) {
	for len(s.paths) > 0 {
		s.path, s.paths = s.paths[0], s.paths[1:]
		f, err := os.Open(s.path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return false, fmt.Errorf("read history: %w", err)
		}
		s.f, s.lr = f, newLineReader(f)
		return true, nil
	}
	return false, nil
}

func (s *stream) close() {
	if s.f != nil {
		s.f.Close()
	}
	s.f, s.lr = nil, nil
}

// streams is a heap of the panes' streams by their next record's time.
type streams []*stream

func (h streams) Len() int { return len(h) }
func (h streams) Less(i, j int) bool {
	if c := h[i].rec.At.Compare(h[j].rec.At); c != 0 {
		return c < 0
	}
	return h[i].order < h[j].order
}
func (h streams) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *streams) Push(x any)   { *h = append(*h, x.(*stream)) }
func (h *streams) Pop() any {
	old := *h
	s := old[len(old)-1]
	*h = old[:len(old)-1]
	return s
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
