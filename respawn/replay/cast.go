// Package replay runs a respawn controller over a recorded session in
// virtual time: an asciicast v2 file feeds a terminal emulator and a core
// whose clock follows the recording, and what the controller would have
// typed is recorded instead of typed. It owns the cast format and the
// emulator; it must not import tmux, screen, hooks or the daemon.
package replay

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Header is the first line of an asciicast v2 file.
type Header struct {
	Version   int               `json:"version"`
	Width     int               `json:"width"`
	Height    int               `json:"height"`
	Timestamp int64             `json:"timestamp,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
}

// Event is one line after the header: [seconds, kind, data]. Kind "o" is
// output, "r" a resize ("COLSxROWS"), "m" a marker; codeman's markers
// "hook:{...}" carry a Claude Code hook payload.
type Event struct {
	Time float64
	Kind string
	Data string
	Line int // line in the file, for errors
}

// Cast is a parsed recording.
type Cast struct {
	Name   string
	Header Header
	Events []Event
}

// maxLine bounds one line of a cast (16 MiB).
const maxLine = 16 << 20

// Read parses an asciicast v2 recording; errors name the line.
func Read(r io.Reader, name string) (*Cast, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLine)
	c := &Cast{Name: name}
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		if line == 1 {
			if err := json.Unmarshal([]byte(text), &c.Header); err != nil {
				return nil, fmt.Errorf("%s:1: header: %w", name, err)
			}
			if c.Header.Version != 2 {
				return nil, fmt.Errorf("%s:1: asciicast version %d, want 2", name, c.Header.Version)
			}
			if c.Header.Width <= 0 || c.Header.Height <= 0 {
				return nil, fmt.Errorf("%s:1: header needs a positive width and height", name)
			}
			continue
		}
		ev, err := parseEvent(text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if n := len(c.Events); n > 0 && ev.Time < c.Events[n-1].Time {
			return nil, fmt.Errorf("%s:%d: time %.6f goes back (previous %.6f)", name, line, ev.Time, c.Events[n-1].Time)
		}
		ev.Line = line
		c.Events = append(c.Events, ev)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	if line == 0 {
		return nil, fmt.Errorf("%s: empty recording", name)
	}
	return c, nil
}

func parseEvent(text string) (Event, error) {
	var raw []json.RawMessage
	if err := json.Unmarshal([]byte(text), &raw); err != nil {
		return Event{}, fmt.Errorf("event: %w", err)
	}
	if len(raw) != 3 {
		return Event{}, fmt.Errorf("event has %d fields, want [time, kind, data]", len(raw))
	}
	var ev Event
	if err := json.Unmarshal(raw[0], &ev.Time); err != nil {
		return Event{}, fmt.Errorf("event time: %w", err)
	}
	if ev.Time < 0 {
		return Event{}, errors.New("event time is negative")
	}
	if err := json.Unmarshal(raw[1], &ev.Kind); err != nil {
		return Event{}, fmt.Errorf("event kind: %w", err)
	}
	if err := json.Unmarshal(raw[2], &ev.Data); err != nil {
		return Event{}, fmt.Errorf("event data: %w", err)
	}
	switch ev.Kind {
	case "o", "i", "m", "r":
	default:
		return Event{}, fmt.Errorf("unknown event kind %q", ev.Kind)
	}
	return ev, nil
}

// Writer writes an asciicast v2 recording event by event.
type Writer struct {
	w       *bufio.Writer
	partial []byte // an incomplete UTF-8 sequence held for the next output
}

// NewWriter writes the header and returns a Writer for the events.
func NewWriter(w io.Writer, h Header) (*Writer, error) {
	h.Version = 2
	b, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	bw := bufio.NewWriter(w)
	bw.Write(b)
	bw.WriteByte('\n')
	return &Writer{w: bw}, bw.Flush()
}

// Output adds an output event. A UTF-8 sequence split across chunks is
// held back and joined with the next chunk.
func (w *Writer) Output(seconds float64, data []byte) error {
	data = append(w.partial, data...)
	w.partial = nil
	if cut := incompleteTail(data); cut > 0 {
		w.partial = append([]byte(nil), data[len(data)-cut:]...)
		data = data[:len(data)-cut]
	}
	if len(data) == 0 {
		return nil
	}
	return w.Write(seconds, "o", string(data))
}

// incompleteTail returns the length of an unfinished UTF-8 sequence at the
// end of b.
func incompleteTail(b []byte) int {
	for i := 1; i <= 3 && i <= len(b); i++ {
		c := b[len(b)-i]
		if c&0xC0 == 0x80 {
			continue // continuation byte
		}
		need := 0
		switch {
		case c&0xE0 == 0xC0:
			need = 2
		case c&0xF0 == 0xE0:
			need = 3
		case c&0xF8 == 0xF0:
			need = 4
		}
		if need > i {
			return i
		}
		return 0
	}
	return 0
}

// Write adds one event; data that is not valid UTF-8 is stored with
// replacement characters, as asciicast requires valid JSON strings.
func (w *Writer) Write(seconds float64, kind, data string) error {
	b, err := json.Marshal([]any{seconds, kind, strings.ToValidUTF8(data, "\uFFFD")})
	if err != nil {
		return err
	}
	w.w.Write(b)
	w.w.WriteByte('\n')
	return w.w.Flush()
}
