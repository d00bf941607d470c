package codexhooks

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/codeman-dev/codeman/hooks"
)

// trustSuffix names the record, beside config.toml, of the trust lines
// codeman wrote into it: config.toml.codeman-trust.
const trustSuffix = ".codeman-trust"

// trustRecordVersion is the record format this code reads and writes.
const trustRecordVersion = 1

// trustRecord is what codeman wrote into config.toml. Only the lines it
// lists (and tables exactly as codeman writes them, holding a hash of
// codeman's: canonicalTable) are codeman's to change or remove; every
// other line is the user's or Codex's, whatever it holds.
type trustRecord struct {
	Version int `json:"version"`
	// Created: config.toml was missing before codeman first wrote it, so
	// uninstall removes it again when nothing else is left in it.
	Created bool         `json:"created,omitempty"`
	Entries []trustEntry `json:"entries"`
}

// trustEntry is one trusted_hash line codeman wrote.
type trustEntry struct {
	Key  string `json:"key"`
	Hash string `json:"hash"`
	// Table: codeman wrote the table's header too, so the table goes
	// with the line when nothing else is in it.
	Table bool `json:"table,omitempty"`
}

func trustRecordPath(configPath string) string { return configPath + trustSuffix }

// readTrustRecord reads the record; nil when there is none.
func readTrustRecord(configPath string) (*trustRecord, error) {
	path := trustRecordPath(configPath)
	data, _, err := hooks.ReadRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read trust record %s: %w", path, err)
	}
	var r trustRecord
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("read trust record %s: %w (remove it and check config.toml by hand)", path, err)
	}
	if r.Version != trustRecordVersion {
		return nil, fmt.Errorf("read trust record %s: unknown version %d", path, r.Version)
	}
	return &r, nil
}

// saveTrustRecord writes r, or removes the record when r lists nothing.
func saveTrustRecord(configPath string, r *trustRecord) error {
	path := trustRecordPath(configPath)
	if r == nil || len(r.Entries) == 0 {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove trust record: %w", err)
		}
		return nil
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("encode trust record: %w", err)
	}
	if err := hooks.WriteAtomic(path, append(data, '\n'), newConfigMode); err != nil {
		return fmt.Errorf("write trust record: %w", err)
	}
	return nil
}

// lookup returns the entry r has for key with hash, if any.
func (r *trustRecord) lookup(key, hash string) (trustEntry, bool) {
	if r == nil {
		return trustEntry{}, false
	}
	for _, e := range r.Entries {
		if e.Key == key && e.Hash == hash {
			return e, true
		}
	}
	return trustEntry{}, false
}

// sameTrustRecord reports whether two records say the same.
func sameTrustRecord(a, b *trustRecord) bool {
	empty := func(r *trustRecord) bool { return r == nil || len(r.Entries) == 0 }
	if empty(a) || empty(b) {
		return empty(a) == empty(b)
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}
