package codexhooks

import (
	"bytes"
	"fmt"
	"maps"
	"slices"

	"github.com/codeman-dev/codeman/hooks"
)

// trustInputs are codeman's handlers as hooks.json has them, or will have
// them once written: what config.toml must trust.
type trustInputs struct {
	hooksFile string
	want      map[string]string // state key -> the hash of each of codeman's handlers
	order     []string          // the keys of want, in file order
	events    map[string]string // state key -> the event of codeman's handler there
	hashes    map[string]string // state key -> the hash of every handler in hooks.json
	ours      map[string]bool   // hashes codeman's handlers have or had
}

// trustInputsOf reads the inputs from hooks.json's content and codeman's
// hooks in it (st); after an uninstall (install false) nothing is wanted.
func trustInputsOf(hooksFile string, content []byte, st hooks.StatusReport, install bool, ours map[string]bool) trustInputs {
	in := trustInputs{hooksFile: hooksFile, want: map[string]string{}, events: map[string]string{},
		hashes: fileHashes(hooksFile, content), ours: maps.Clone(ours)}
	if !install {
		return in
	}
	for _, ie := range st.Installed {
		key := StateKey(hooksFile, ie.Event, ie.Group, ie.Handler)
		if h, ok := in.hashes[key]; ok {
			in.want[key], in.events[key], in.ours[h] = h, ie.Event, true
			in.order = append(in.order, key)
		}
	}
	return in
}

// Disabled is a handler of codeman's that config.toml turns off with
// enabled = false. codeman leaves that line as it is: it is the person's
// choice (Codex's /hooks writes it), or the leftover of a hook once at
// that place, which only the person can tell.
type Disabled struct {
	Event string
	Key   string // its state key
	Line  int    // the line of config.toml that sets enabled = false
}

// trustEdit is a planned edit of config.toml.
type trustEdit struct {
	stateEdit
	out      []byte       // the new content
	remove   bool         // the file goes: codeman created it and nothing else is left in it
	rec      *trustRecord // the record once the edit is written
	disabled []Disabled
}

// planTrust plans the edit of config.toml, data as read (exists false:
// missing), that gives codeman's handlers (in) their trust and takes it
// from where they no longer are. Only codeman's own lines change or go
// (owned); a trusted hash of anyone else's where codeman's handler needs
// one refuses the edit, naming the file, line and key. An edit the text
// cannot take (the hooks table inline, not a table) is refused too.
func planTrust(path string, data []byte, exists bool, rec *trustRecord, in trustInputs) (*trustEdit, error) {
	doc, err := parseConfig(path, data)
	if err != nil {
		return nil, err
	}
	secs, err := scanTOML(data)
	if err != nil {
		return nil, fmt.Errorf("edit config %s: %w", path, err)
	}
	state := hookState(doc)
	te := &trustEdit{stateEdit: stateEdit{set: map[string]string{}, dropTable: map[string]bool{}}, out: data}
	after := &trustRecord{Version: trustRecordVersion, Created: rec != nil && rec.Created}
	for _, key := range in.order {
		h := in.want[key]
		if ent := findKey(secs, statePath(key, trustedHash)); ent != nil {
			v, ok := state[key][trustedHash].(string)
			if !ok {
				return nil, fmt.Errorf("edit config %s:%d: hooks.state.%s.%s is not a string (Codex refuses it too); fix that line", path, lineAt(data, ent.start), tomlQuote(key), trustedHash)
			}
			own, table := owned(data, secs, rec, in.ours, key, v)
			switch {
			case v == h && own:
				after.Entries = append(after.Entries, trustEntry{Key: key, Hash: h, Table: table})
			case v == h:
				// Trusted already, by a line of the user's or Codex's.
			case own:
				te.set[key] = h
				te.keys = append(te.keys, key)
				after.Entries = append(after.Entries, trustEntry{Key: key, Hash: h, Table: table})
			default:
				return nil, fmt.Errorf("edit config %s:%d: hooks.state.%s already has a %s that codeman did not write "+
					"(the trust of a hook once at that place, or your own); codeman does not overwrite it: "+
					"remove that line and install again, or install with --no-trust and trust the hooks in Codex's /hooks",
					path, lineAt(data, ent.start), tomlQuote(key), trustedHash)
			}
		} else {
			sec := findHeader(secs, statePath(key))
			if sec == nil && state[key] != nil {
				return nil, fmt.Errorf("edit config %s:%d: the state of hooks.state.%s is not a [hooks.state.%s] table of its own "+
					"(dotted keys or an inline table), which codeman does not edit line by line; "+
					"write it as such a table, or install with --no-trust", path, stateLine(data, secs, key), tomlQuote(key), tomlQuote(key))
			}
			te.set[key] = h
			te.keys = append(te.keys, key)
			after.Entries = append(after.Entries, trustEntry{Key: key, Hash: h, Table: sec == nil})
		}
		if state[key]["enabled"] == false {
			line := 0
			if ent := findKey(secs, statePath(key, "enabled")); ent != nil {
				line = lineAt(data, ent.start)
			}
			te.disabled = append(te.disabled, Disabled{Event: in.events[key], Key: key, Line: line})
		}
	}
	for _, key := range sortedKeys(state) {
		if _, wanted := in.want[key]; wanted || !isKeyOf(in.hooksFile, key) {
			continue
		}
		v, ok := state[key][trustedHash].(string)
		if !ok {
			continue
		}
		// A line of codeman's at a handler with that very hash is the
		// trust of a user's copy of codeman's hook: it stays, the user's.
		if own, table := owned(data, secs, rec, in.ours, key, v); own && in.hashes[key] != v {
			te.drop = append(te.drop, key)
			te.dropTable[key] = table
		}
	}
	te.rec = after
	if te.empty() {
		return te, nil
	}
	if err := checkHooksTable(path, data, doc, secs); err != nil {
		return nil, err
	}
	if te.out, err = applyState(path, data, te.stateEdit); err != nil {
		return nil, err
	}
	if !exists {
		after.Created = true
	}
	te.remove = after.Created && len(after.Entries) == 0 && len(bytes.TrimSpace(bytes.TrimPrefix(te.out, bom))) == 0
	return te, nil
}

// owned reports whether the trusted hash v at key is codeman's line: one
// its record lists, or a table exactly as codeman writes it holding a hash
// of codeman's (what an install that kept no record left, or Codex's own
// trust of codeman's hook). table says the table is codeman's too.
func owned(data []byte, secs []tomlSection, rec *trustRecord, ours map[string]bool, key, v string) (own, table bool) {
	if e, ok := rec.lookup(key, v); ok {
		return true, e.Table
	}
	if ours[v] && canonicalTable(data, secs, key, v) {
		return true, true
	}
	return false, false
}

// canonicalTable reports whether key's table is byte for byte what codeman
// appends: its header, `trusted_hash = "<v>"` and nothing else.
func canonicalTable(data []byte, secs []tomlSection, key, v string) bool {
	sec := findHeader(secs, statePath(key))
	if sec == nil || len(sec.entries) != 1 || !onlyEntry(data, sec) {
		return false
	}
	ent := sec.entries[0]
	line := bytes.TrimSuffix(data[ent.start:ent.end], []byte("\n"))
	return string(data[sec.start:sec.bodyStart]) == "["+stateHeader(key)+"]\n" &&
		string(line) == trustedHash+" = "+tomlQuote(v)
}

// checkHooksTable refuses a config.toml whose hooks key codeman's tables
// cannot go under: not a table (Codex refuses that itself), or written
// inline, which TOML does not let tables extend.
func checkHooksTable(path string, data []byte, doc map[string]any, secs []tomlSection) error {
	hooksTable, present := doc["hooks"]
	for _, p := range [][]string{{"hooks"}, {"hooks", "state"}} {
		var v any = hooksTable
		if len(p) == 2 {
			t, _ := hooksTable.(map[string]any)
			v, present = t["state"]
		}
		if !present {
			return nil
		}
		name := dotted(p)
		if _, ok := v.(map[string]any); !ok {
			kind := fmt.Sprintf("a %T", v)
			switch v.(type) {
			case []map[string]any:
				kind = "an array of tables ([[" + name + "]])"
			case string:
				kind = "a string"
			}
			return fmt.Errorf("edit config %s:%d: %s is %s, not a table (Codex refuses it too); fix it, or install with --no-trust", path, keyLine(data, secs, p), name, kind)
		}
		if ent := findKey(secs, p); ent != nil && bytes.HasPrefix(data[ent.valStart:], []byte("{")) {
			return fmt.Errorf("edit config %s:%d: %s is an inline table ({…}), which codeman cannot add its trust to; "+
				"write it as [%s] tables, or install with --no-trust", path, lineAt(data, ent.start), name, name)
		}
	}
	return nil
}

// statePath is the key path of a handler's state table, then names.
func statePath(key string, names ...string) []string {
	return append([]string{"hooks", "state", key}, names...)
}

func dotted(path []string) string {
	var b bytes.Buffer
	for i, k := range path {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(k)
	}
	return b.String()
}

// findKey finds the entry of the key path, nil when none.
func findKey(secs []tomlSection, path []string) *tomlEntry {
	for i := range secs {
		for j := range secs[i].entries {
			if slices.Equal(secs[i].entries[j].keys, path) {
				return &secs[i].entries[j]
			}
		}
	}
	return nil
}

// findHeader finds the [table] header of the key path, nil when none.
func findHeader(secs []tomlSection, path []string) *tomlSection {
	for i := range secs {
		if s := &secs[i]; s.header && !s.array && slices.Equal(s.keys, path) {
			return s
		}
	}
	return nil
}

// keyLine is the line that defines path: its header, its entry, or the
// first entry under it; 0 when not found.
func keyLine(data []byte, secs []tomlSection, path []string) int {
	for i := range secs {
		s := &secs[i]
		if s.header && slices.Equal(s.keys, path) {
			return lineAt(data, s.start)
		}
		for _, e := range s.entries {
			if len(e.keys) >= len(path) && slices.Equal(e.keys[:len(path)], path) {
				return lineAt(data, e.start)
			}
		}
	}
	return 0
}

// stateLine is the line that defines key's state.
func stateLine(data []byte, secs []tomlSection, key string) int {
	return keyLine(data, secs, statePath(key))
}

// lineAt is the 1-based line of the byte at off.
func lineAt(data []byte, off int) int {
	return 1 + bytes.Count(data[:min(off, len(data))], []byte("\n"))
}
