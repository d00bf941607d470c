package clitest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"time"
	"unicode/utf8"

	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
)

// EndMarker labels the marker event that closes every recording SaveCast
// writes: the moment recording stopped.
const EndMarker = "end"

// castEvent is one asciicast v2 event: "o" for output, "m" for a marker.
type castEvent struct {
	at   time.Time
	kind string
	data string
}

// castHeader is the asciicast v2 header line.
type castHeader struct {
	Version   int               `json:"version"`
	Width     int               `json:"width"`
	Height    int               `json:"height"`
	Timestamp int64             `json:"timestamp"`
	Env       map[string]string `json:"env"`
}

// eventMarkers turns hook calls and notify runs into marker events whose
// label is the event's kind, a colon and the payload as the CLI passed it:
// "hook:{...}", "notify:{...}".
func eventMarkers(events []Event) []castEvent {
	out := make([]castEvent, 0, len(events))
	for _, e := range events {
		out = append(out, castEvent{at: e.At, kind: "m", data: e.Kind + ":" + string(e.Payload)})
	}
	return out
}

// writeCast writes an asciicast v2 recording of a pane width columns wide
// that starts at start: the header, then output and markers merged by time (output first on a tie),
// each stamped in seconds since start.
func writeCast(w io.Writer, start time.Time, width int, output, markers []castEvent) error {
	events := append(append([]castEvent(nil), output...), markers...)
	sort.SliceStable(events, func(i, j int) bool { return events[i].at.Before(events[j].at) })
	bw := bufio.NewWriter(w)
	head, err := json.Marshal(castHeader{
		Version: 2, Width: width, Height: tmuxtest.Height, Timestamp: start.Unix(),
		Env: map[string]string{"TERM": PaneTERM, "SHELL": loginShell()},
	})
	if err != nil {
		return fmt.Errorf("encode cast header: %w", err)
	}
	bw.Write(append(head, '\n'))
	for _, e := range events {
		data, err := jsonString(e.data)
		if err != nil {
			return err
		}
		secs := max(e.at.Sub(start).Seconds(), 0)
		fmt.Fprintf(bw, "[%.6f, %q, %s]\n", secs, e.kind, data)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write cast: %w", err)
	}
	return nil
}

// jsonString encodes s as a JSON string, leaving <, > and & readable. Any
// invalid UTF-8 becomes U+FFFD, so the file is always valid UTF-8.
func jsonString(s string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return nil, fmt.Errorf("encode cast event: %w", err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// completeRunes returns how much of b can be cut off without splitting a
// UTF-8 sequence: all of it, unless it ends in the first bytes of a
// multi-byte rune, which then wait for the next read.
func completeRunes(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if utf8.FullRune(b[i:]) {
				return len(b)
			}
			return i
		}
	}
	return len(b)
}
