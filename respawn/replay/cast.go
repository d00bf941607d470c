// Package replay runs a respawn controller over a recorded session in
// virtual time: an asciicast v2 file feeds a terminal emulator and a core
// whose clock follows the recording, and what the controller would have
// typed is recorded instead of typed. It owns the cast format and the
// emulator; it must not import tmux, screen, hooks or the daemon.
//
// Recordings are shared in bug reports, so Read trusts none of the sizes
// in one: a screen over 1000 columns or rows or half a million cells, a
// line over 16 MiB, more than 2 Mi events or 256 MiB of event data, a
// marker over 4 MiB or an event more than a week in is refused with an
// error naming the file and line.
package replay

import (
	"bufio"
	"bytes"
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

// HookPayload returns the payload of a "hook:{...}" marker.
func (e Event) HookPayload() ([]byte, bool) {
	payload, ok := strings.CutPrefix(e.Data, "hook:")
	if e.Kind != "m" || !ok {
		return nil, false
	}
	return []byte(payload), true
}

// HookTimes returns when each hook event of the recording ran, by its
// hook_event_name, in order.
func (c *Cast) HookTimes() map[string][]float64 {
	out := map[string][]float64{}
	for _, ev := range c.Events {
		payload, ok := ev.HookPayload()
		if !ok {
			continue
		}
		var p struct {
			Event string `json:"hook_event_name"`
		}
		if json.Unmarshal(payload, &p) == nil {
			out[p.Event] = append(out[p.Event], ev.Time)
		}
	}
	return out
}

// Cast is a parsed recording.
type Cast struct {
	Name   string
	Header Header
	Events []Event
}

// Read parses an asciicast v2 recording; errors name the line. A
// recording over the reader's limits (sizes, counts, lengths; see limits)
// is refused before it is held in memory.
func Read(r io.Reader, name string) (*Cast, error) {
	return read(r, name, defaultLimits)
}

func read(r io.Reader, name string, lim limits) (*Cast, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, min(64<<10, lim.line)), lim.line)
	c := &Cast{Name: name}
	line := 0
	header := false // the first line that is not blank is the header
	var data int64
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		if !header {
			if len(text) > lim.header {
				return nil, fmt.Errorf("%s:%d: header of %d bytes is over the limit of %d", name, line, len(text), lim.header)
			}
			if err := json.Unmarshal(text, &c.Header); err != nil {
				return nil, fmt.Errorf("%s:%d: header: %w", name, line, err)
			}
			if err := lim.checkHeader(c.Header); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, line, err)
			}
			header = true
			continue
		}
		if len(c.Events) == lim.events {
			return nil, fmt.Errorf("%s:%d: more than %d events", name, line, lim.events)
		}
		ev, err := parseEvent(text)
		if err == nil {
			err = lim.checkEvent(ev)
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if data += int64(len(ev.Data)); data > lim.data {
			return nil, fmt.Errorf("%s:%d: event data passes the limit of %d bytes", name, line, lim.data)
		}
		if n := len(c.Events); n > 0 && ev.Time < c.Events[n-1].Time {
			return nil, fmt.Errorf("%s:%d: time %.6f goes back (previous %.6f)", name, line, ev.Time, c.Events[n-1].Time)
		}
		ev.Line = line
		c.Events = append(c.Events, ev)
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, fmt.Errorf("%s:%d: line is longer than the limit of %d bytes", name, line+1, lim.line)
	} else if err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	if !header {
		return nil, fmt.Errorf("%s: empty recording", name)
	}
	return c, nil
}

func parseEvent(text []byte) (Event, error) {
	// An array holds no more than four fields, however many the line has:
	// the fourth only tells that there are too many.
	var raw [4]json.RawMessage
	if err := json.Unmarshal(text, &raw); err != nil {
		return Event{}, fmt.Errorf("event: %w", err)
	}
	if raw[3] != nil {
		return Event{}, errors.New("event has more than 3 fields, want [time, kind, data]")
	}
	if raw[2] == nil {
		n := 0
		for n < 2 && raw[n] != nil {
			n++
		}
		return Event{}, fmt.Errorf("event has %d fields, want [time, kind, data]", n)
	}
	var ev Event
	if err := json.Unmarshal(raw[0], &ev.Time); err != nil {
		return Event{}, fmt.Errorf("event time: %w", err)
	}
	if ev.Time < 0 {
		return Event{}, errors.New("event time is negative")
	}
	var kind string
	if err := json.Unmarshal(raw[1], &kind); err != nil {
		return Event{}, fmt.Errorf("event kind: %w", err)
	}
	// The constants share one string each instead of one per event.
	switch kind {
	case "o":
		ev.Kind = "o"
	case "i":
		ev.Kind = "i"
	case "m":
		ev.Kind = "m"
	case "r":
		ev.Kind = "r"
	default:
		return Event{}, fmt.Errorf("unknown event kind %.40q", kind)
	}
	if err := json.Unmarshal(raw[2], &ev.Data); err != nil {
		return Event{}, fmt.Errorf("event data: %w", err)
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
