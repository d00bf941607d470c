package hooks

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
)

// Files codeman keeps beside a settings file, named by the settings path
// plus a suffix.
const (
	// recordSuffix: the record of what codeman wrote into the file. Only
	// the hooks it lists are codeman's.
	recordSuffix = ".codeman-hooks"
	// backupSuffix: the content before codeman's latest write.
	backupSuffix = ".codeman-backup"
	// originalSuffix: the content before codeman's first write, made once
	// and never overwritten.
	originalSuffix = ".codeman-original"
	// conflictSuffix: another program's version of the file that could not
	// be put back in place after a write race (see replace).
	conflictSuffix = ".codeman-conflict"
)

// recordVersion is the record format this code reads and writes.
const recordVersion = 1

// The settings file's state before codeman's first install, as recorded.
const (
	beforeAbsent = "absent" // no file: uninstall removes the file it leaves empty
	beforeBlank  = "blank"  // empty or blank: uninstall writes the blank back
	beforeObject = "object" // a JSON object
)

// record is what codeman installed into one settings file. Install writes
// it after every change, Uninstall removes it once nothing of codeman's is
// left. It is what makes Install then Uninstall exact: without it a hook
// of the user's that looks like codeman's, or an empty list the user left,
// could not be told from codeman's own.
type record struct {
	Version int `json:"version"`
	// Before is the file's state before codeman's first install; Blank
	// is that blank content, byte for byte.
	Before string `json:"before"`
	Blank  string `json:"blank,omitempty"`
	// CreatedHooks and CreatedEvents name the containers codeman added:
	// the hooks object and the event lists. Uninstall drops them only when
	// codeman's removals leave them empty.
	CreatedHooks  bool     `json:"created_hooks,omitempty"`
	CreatedEvents []string `json:"created_events,omitempty"`
	// Entries are codeman's hooks as written, with the event and matcher
	// of the group codeman put each in.
	Entries []recordEntry `json:"entries"`
}

// recordEntry is one hook codeman wrote.
type recordEntry struct {
	Event   string          `json:"event"`
	Matcher string          `json:"matcher,omitempty"`
	Hook    json.RawMessage `json:"hook"`
}

func (r recordEntry) entry() Entry { return Entry{Event: r.Event, Matcher: r.Matcher} }

// readRecord reads the record at path; nil when there is none.
func readRecord(path string) (*record, error) {
	data, _, err := readRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read hooks record %s: %w", path, err)
	}
	r, err := parseRecord(data)
	if err != nil {
		return nil, fmt.Errorf("read hooks record %s: %w (remove it and check the settings file by hand)", path, err)
	}
	return r, nil
}

func parseRecord(data []byte) (*record, error) {
	var r record
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, err
	}
	if r.Version != recordVersion {
		return nil, fmt.Errorf("unknown version %d", r.Version)
	}
	if !slices.Contains([]string{beforeAbsent, beforeBlank, beforeObject}, r.Before) {
		return nil, fmt.Errorf("unknown before %q", r.Before)
	}
	for i, e := range r.Entries {
		if e.Event == "" || len(e.Hook) == 0 {
			return nil, fmt.Errorf("entry %d lacks event or hook", i+1)
		}
	}
	return &r, nil
}

// newRecord starts the record of a first install into a file as read.
func newRecord(sf *settingsFile) *record {
	r := &record{Version: recordVersion, Before: beforeObject}
	switch {
	case !sf.exists:
		r.Before = beforeAbsent
	case isBlank(sf.data):
		r.Before, r.Blank = beforeBlank, string(sf.data)
	}
	return r
}

// saveRecord writes r to path, or removes the file when r is nil.
func saveRecord(path string, r *record) error {
	if r == nil {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove hooks record: %w", err)
		}
		return nil
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("encode hooks record: %w", err)
	}
	if err := writeAtomic(path, append(data, '\n'), recordMode); err != nil {
		return fmt.Errorf("write hooks record: %w", err)
	}
	return nil
}

// recordMode is the record's mode: it holds commands, nothing secret.
const recordMode = 0o644

// sameRecord reports whether two records say the same.
func sameRecord(a, b *record) bool {
	if a == nil || b == nil {
		return a == b
	}
	ja, erra := json.Marshal(a)
	jb, errb := json.Marshal(b)
	return erra == nil && errb == nil && sameJSON(ja, jb)
}
