package screen

import (
	"bytes"
)

// frame is the last hardcopy of a window: its bytes, to compare the next
// one with before anything is split or decoded, and its decoded rows.
type frame struct {
	raw     []byte   // the hardcopy, without the append header
	rows    []string // decoded, one per window row; never modified, only replaced
	cells   []int    // how many cells of the window each row covers
	changed []int    // rows that differ from the frame before, in order
}

// update makes f hold the hardcopy b. An unchanged hardcopy costs one
// comparison and no allocation; otherwise only changed rows are decoded
// and rows is a new slice, so that screens handed out earlier stay as
// they were. It reports whether anything changed.
func (f *frame) update(b []byte, decode rowDecoder) bool {
	if f.rows != nil && bytes.Equal(b, f.raw) {
		return false
	}
	n := countRows(b)
	rows := make([]string, n)
	cells := make([]int, n)
	f.changed = f.changed[:0]
	old := f.raw
	splitRows(b, func(i int, row []byte) {
		prev, rest, found := bytes.Cut(old, []byte{'\n'})
		prev = bytes.TrimRight(prev, " ")
		old = rest
		if f.rows != nil && i < len(f.rows) && (found || len(prev) > 0) && bytes.Equal(prev, row) {
			rows[i], cells[i] = f.rows[i], f.cells[i]
			return
		}
		rows[i], cells[i] = decode(row)
		f.changed = append(f.changed, i)
	})
	f.raw = append(f.raw[:0], b...)
	f.rows, f.cells = rows, cells
	return true
}

// appendOutput appends the text of the changed rows to out, one line per
// row and a newline after each, for the stream detector: it sees new text
// the way it would in a terminal's output. A row that fills the window's
// width and goes on in the next row is one line wrapped by the terminal,
// so the whole line is written, joined, whichever of its rows changed: a
// status line wrapped in a narrow window still matches. width 0 joins
// nothing.
func (f *frame) appendOutput(out []byte, width int) []byte {
	done := -1 // the last row already written
	for _, i := range f.changed {
		if i <= done {
			continue
		}
		start, end := f.logicalLine(i, width)
		for r := start; r <= end; r++ {
			out = append(out, f.rows[r]...)
		}
		out = append(out, '\n')
		done = end
	}
	return out
}

// logicalLine returns the first and last row of the wrapped line row i
// belongs to.
func (f *frame) logicalLine(i, width int) (int, int) {
	if width <= 0 {
		return i, i
	}
	start := i
	for start > 0 && f.cells[start-1] >= width {
		start--
	}
	end := i
	for end+1 < len(f.rows) && f.cells[end] >= width {
		end++
	}
	return start, end
}

// maxCells returns the widest row's cell count.
func (f *frame) maxCells() int {
	m := 0
	for _, c := range f.cells {
		m = max(m, c)
	}
	return m
}
