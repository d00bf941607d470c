package simclaude

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"time"
)

// Log entry kinds.
const (
	LogSubmit    = "submit"     // a prompt submitted while idle
	LogQueued    = "queued"     // a prompt submitted while busy, queued
	LogKey       = "key"        // a named key (Key) or typed text (Text)
	LogPaste     = "paste"      // one bracketed paste (Text, newlines kept)
	LogTurnStart = "turn_start" // a turn began working on Text
	LogTurnEnd   = "turn_end"   // a turn ended; Outcome says how
)

// Turn outcomes in turn_end entries.
const (
	OutcomeDone        = "done"        // Stop and a completion line
	OutcomeWaiting     = "waiting"     // Stop while a background agent runs
	OutcomeInterrupted = "interrupted" // Escape while busy
	OutcomeDenied      = "denied"      // permission prompt answered No or Esc
	OutcomeDeclined    = "declined"    // question dismissed
	OutcomeRejected    = "rejected"    // plan rejected with Esc
	OutcomeError       = "error"       // API error (StopFailure)
	OutcomeLimit       = "limit"       // usage limit (StopFailure)
	OutcomeCompacted   = "compacted"   // /compact finished
)

// LogEntry is one line of the --log file: an input event as it arrived, or
// a turn boundary. Busy is true while a turn works (spinner or streaming)
// and no dialog is open; Dialog names the open dialog ("plan", "question",
// "permission") or is empty. Both describe the moment before the event.
type LogEntry struct {
	T       time.Time `json:"t"`
	Kind    string    `json:"kind"`
	Text    string    `json:"text"`
	Key     string    `json:"key"`
	Busy    bool      `json:"busy"`
	Dialog  string    `json:"dialog"`
	Outcome string    `json:"outcome,omitempty"`
}

// eventLog appends entries to the --log file, one write per line so that
// readers never see half a line.
type eventLog struct {
	f *os.File
}

func openEventLog(path string) (*eventLog, error) {
	if path == "" {
		return &eventLog{}, nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open log: %w", err)
	}
	return &eventLog{f: f}, nil
}

func (l *eventLog) write(e LogEntry) error {
	if l.f == nil {
		return nil
	}
	b, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("encode log entry: %w", err)
	}
	if _, err := l.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("write log: %w", err)
	}
	return nil
}

func (l *eventLog) Close() error {
	if l.f == nil {
		return nil
	}
	return l.f.Close()
}

// ReadLog reads a --log file. A line that is not a log entry is an error
// naming the file and line.
func ReadLog(path string) ([]LogEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read log: %w", err)
	}
	defer f.Close()
	var entries []LogEntry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for n := 1; sc.Scan(); n++ {
		var e LogEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("read log %s line %d: %w", path, n, err)
		}
		entries = append(entries, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read log %s: %w", path, err)
	}
	return entries, nil
}
