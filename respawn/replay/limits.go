package replay

import (
	"fmt"
	"strconv"
	"strings"
)

// limits bound what a recording may ask of the reader and the replay.
// Recordings travel in bug reports, so every size, count and length read
// from one is checked against these before anything is allocated for it;
// a recording over a limit is refused with an error naming the file and
// line.
type limits struct {
	width, height int   // columns and rows, in the header and in resize events
	cells         int   // width×height: the emulator keeps about 220 bytes per cell
	line          int   // bytes in one line of the file
	header        int   // bytes in the header line
	events        int   // events in the whole recording
	data          int64 // bytes of event data in the whole recording
	marker        int   // bytes of one marker's label (a hook payload)
	seconds       float64
	timestamp     int64 // latest header timestamp
}

// defaultLimits hold every real recording with a wide margin: a pane up to
// 1000 columns or rows and half a million cells (about 110 MiB of
// emulator), 16 MiB lines, 2 Mi events, 256 MiB of data, 4 MiB hook
// payloads, a week of events (the replay's clock visits every deadline in
// between), a start before the year 10000.
var defaultLimits = limits{
	width:     1000,
	height:    1000,
	cells:     500_000,
	line:      16 << 20,
	header:    64 << 10,
	events:    2 << 20,
	data:      256 << 20,
	marker:    4 << 20,
	seconds:   7 * 24 * 60 * 60,
	timestamp: 253402300799, // 9999-12-31T23:59:59Z
}

// size checks a terminal size.
func (l limits) size(w, h int) error {
	switch {
	case w < 1 || w > l.width:
		return fmt.Errorf("width %d is not in 1..%d", w, l.width)
	case h < 1 || h > l.height:
		return fmt.Errorf("height %d is not in 1..%d", h, l.height)
	case w*h > l.cells:
		return fmt.Errorf("%dx%d is %d cells, over the limit of %d", w, h, w*h, l.cells)
	}
	return nil
}

// checkHeader checks the header's version, size and timestamp.
func (l limits) checkHeader(h Header) error {
	if h.Version != 2 {
		return fmt.Errorf("asciicast version %d, want 2", h.Version)
	}
	if err := l.size(h.Width, h.Height); err != nil {
		return fmt.Errorf("header: %w", err)
	}
	if h.Timestamp < 0 || h.Timestamp > l.timestamp {
		return fmt.Errorf("header: timestamp %d is not in 0..%d", h.Timestamp, l.timestamp)
	}
	return nil
}

// checkEvent checks what one event asks for on its own: its time, the
// size of a marker, the form and size of a resize.
func (l limits) checkEvent(ev Event) error {
	if ev.Time < 0 || ev.Time > l.seconds {
		return fmt.Errorf("event time %g is not in 0..%g seconds", ev.Time, l.seconds)
	}
	switch ev.Kind {
	case "m":
		if len(ev.Data) > l.marker {
			return fmt.Errorf("marker of %d bytes is over the limit of %d", len(ev.Data), l.marker)
		}
	case "r":
		if _, _, err := l.resize(ev.Data); err != nil {
			return err
		}
	}
	return nil
}

// resize parses the data of a resize event, "COLSxROWS".
func (l limits) resize(data string) (w, h int, err error) {
	cols, rows, ok := strings.Cut(data, "x")
	w, errW := strconv.Atoi(cols)
	h, errH := strconv.Atoi(rows)
	if !ok || errW != nil || errH != nil {
		return 0, 0, fmt.Errorf("resize %.40q: want COLSxROWS", data)
	}
	if err := l.size(w, h); err != nil {
		return 0, 0, fmt.Errorf("resize: %w", err)
	}
	return w, h, nil
}
