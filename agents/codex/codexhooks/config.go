package codexhooks

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// trustedHash is the key of a handler's hash in its state table:
// hooks.state."<key>".trusted_hash.
const trustedHash = "trusted_hash"

// stateEdit is a change of codeman's hook state in config.toml: the hashes
// to write (state key -> hash, in the order of keys) and the keys whose
// trusted hash to remove.
type stateEdit struct {
	set  map[string]string
	keys []string // the keys of set, in the order new tables are appended
	drop []string
	// dropTable names the keys of drop whose table is codeman's: it goes
	// with the line when nothing else is in it. Of any other only the
	// line goes.
	dropTable map[string]bool
}

func (e stateEdit) empty() bool { return len(e.set) == 0 && len(e.drop) == 0 }

// parseConfig decodes config.toml, naming the file and line of a syntax
// error.
func parseConfig(path string, data []byte) (map[string]any, error) {
	doc := map[string]any{}
	if _, err := toml.Decode(string(data), &doc); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("read config %s:%d: %s", path, pe.Position.Line, pe.Message)
		}
		return nil, fmt.Errorf("read config %s: %w", path, err)
	}
	return doc, nil
}

// hookState returns hooks.state of a decoded config: state key -> its
// table.
func hookState(doc map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	hooksTable, _ := doc["hooks"].(map[string]any)
	state, _ := hooksTable["state"].(map[string]any)
	for k, v := range state {
		if t, ok := v.(map[string]any); ok {
			out[k] = t
		}
	}
	return out
}

// applyState edits config.toml as text: each trusted hash to set replaces
// the value of an existing trusted_hash (its key, layout and comment
// kept), goes under an existing [hooks.state."<key>"] header, or comes in
// a new table at the end; each to drop loses its line, and its table too
// when nothing else is in it. Every other byte stays. The result is parsed
// and compared with what the edit means, so a document the scanner misread
// is refused, not damaged.
func applyState(path string, data []byte, e stateEdit) ([]byte, error) {
	before, err := parseConfig(path, data)
	if err != nil {
		return nil, err
	}
	secs, err := scanTOML(data)
	if err != nil {
		return nil, fmt.Errorf("edit config %s: %w", path, err)
	}
	var edits []textEdit
	var appended []string
	for _, key := range e.keys {
		value := tomlQuote(e.set[key])
		switch sec, ent := findEntry(secs, key); {
		case ent != nil:
			if string(data[ent.valStart:ent.valEnd]) != value {
				edits = append(edits, textEdit{ent.valStart, ent.valEnd, value})
			}
		case sec != nil && sec.bodyStart == len(data) && !bytes.HasSuffix(data, []byte("\n")):
			// The header ends the file, without a newline, and the file
			// keeps ending so.
			edits = append(edits, textEdit{sec.bodyStart, sec.bodyStart, "\n" + trustedHash + " = " + value})
		case sec != nil:
			edits = append(edits, textEdit{sec.bodyStart, sec.bodyStart, trustedHash + " = " + value + "\n"})
		default:
			appended = append(appended, "["+stateHeader(key)+"]\n"+trustedHash+" = "+value+"\n")
		}
	}
	for _, key := range e.drop {
		sec, ent := findEntry(secs, key)
		if ent == nil {
			continue
		}
		if sec != nil && e.dropTable[key] && len(sec.entries) == 1 && onlyEntry(data, sec) {
			edits = append(edits, textEdit{sec.start, sec.end, ""})
			continue
		}
		edits = append(edits, textEdit{ent.start, ent.end, ""})
	}
	edits = mergeRemovals(data, edits)
	if len(appended) > 0 {
		edits = append(edits, textEdit{len(data), len(data), appendBlock(data, appended)})
	}
	out := applyEdits(data, edits)
	after, err := parseConfig(path, out)
	if err != nil {
		return nil, fmt.Errorf("edit config %s: the edited file does not parse (%w); left as it was", path, err)
	}
	if !reflect.DeepEqual(prune(after), prune(expected(before, e))) {
		return nil, fmt.Errorf("edit config %s: the edit would change more than codeman's hook state; left as it was", path)
	}
	return out, nil
}

// findEntry finds the trusted hash of key (ent) and the section that is
// key's own table (sec), either of them nil when missing.
func findEntry(secs []tomlSection, key string) (sec *tomlSection, ent *tomlEntry) {
	path := []string{"hooks", "state", key}
	for i := range secs {
		s := &secs[i]
		if s.header && !s.array && slices.Equal(s.keys, path) {
			sec = s
		}
		for j := range s.entries {
			if slices.Equal(s.entries[j].keys, append(path, trustedHash)) {
				ent = &s.entries[j]
			}
		}
	}
	if ent != nil && sec != nil && !slices.Equal(sec.keys, ent.keys[:len(sec.keys)]) {
		sec = nil
	}
	return sec, ent
}

// onlyEntry reports whether sec's body holds its one entry and blank
// lines, no comment.
func onlyEntry(data []byte, sec *tomlSection) bool {
	ent := sec.entries[0]
	rest := append(append([]byte(nil), data[sec.bodyStart:ent.start]...), data[ent.end:sec.end]...)
	return len(bytes.TrimSpace(rest)) == 0
}

// mergeRemovals joins adjacent and overlapping removals. A removal that
// ends the file takes the blank line above it too, and the newline ending
// the line above when the file has no final newline, so that removing the
// tables appended at the end gives the file back as it was.
func mergeRemovals(data []byte, edits []textEdit) []textEdit {
	var others, removals []textEdit
	for _, ed := range edits {
		if ed.text == "" && ed.start < ed.end {
			removals = append(removals, ed)
		} else {
			others = append(others, ed)
		}
	}
	slices.SortFunc(removals, func(a, b textEdit) int { return a.start - b.start })
	var merged []textEdit
	for _, r := range removals {
		if n := len(merged); n > 0 && r.start <= merged[n-1].end {
			merged[n-1].end = max(merged[n-1].end, r.end)
			continue
		}
		merged = append(merged, r)
	}
	if n := len(merged); n > 0 && merged[n-1].end == len(data) {
		last := &merged[n-1]
		if last.start >= 2 && data[last.start-1] == '\n' && data[last.start-2] == '\n' {
			last.start--
		}
		if n > 1 && merged[n-2].end >= last.start {
			merged[n-2].end = last.end
			merged = merged[:n-1]
			last = &merged[n-2]
		}
		if !bytes.HasSuffix(data, []byte("\n")) && last.start >= 1 && data[last.start-1] == '\n' {
			last.start--
		}
	}
	return append(others, merged...)
}

// appendBlock is the text appended for new tables: after a newline ending
// the last line and a blank line, when the file has content. A file that
// does not end with a newline keeps ending without one, so that removing
// the tables again gives back its bytes.
func appendBlock(data []byte, tables []string) string {
	var b strings.Builder
	content := bytes.TrimPrefix(data, bom)
	noFinalNewline := len(content) > 0 && !bytes.HasSuffix(data, []byte("\n"))
	if len(bytes.TrimSpace(content)) > 0 {
		if noFinalNewline {
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	b.WriteString(strings.Join(tables, "\n"))
	if noFinalNewline {
		return strings.TrimSuffix(b.String(), "\n")
	}
	return b.String()
}

// bom is the UTF-8 byte order mark, which Codex accepts at the start of
// config.toml (as does the TOML parser); an edit keeps it.
var bom = []byte("\xef\xbb\xbf")

// stateHeader is the header of key's table.
func stateHeader(key string) string { return "hooks.state." + tomlQuote(key) }

// tomlQuote writes s as a TOML basic string.
func tomlQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// textEdit replaces data[start:end] with text.
type textEdit struct {
	start, end int
	text       string
}

// applyEdits applies edits to data. Overlapping removals merge; at one
// offset a removal goes before an insertion, and insertions keep their
// order in edits.
func applyEdits(data []byte, edits []textEdit) []byte {
	edits = slices.Clone(edits)
	slices.Reverse(edits)
	slices.SortStableFunc(edits, func(a, b textEdit) int {
		if a.start != b.start {
			return b.start - a.start
		}
		return b.end - a.end
	})
	out := append([]byte(nil), data...)
	limit := len(data) + 1 // no edit reaches past the start of the one after it
	for _, ed := range edits {
		end := min(ed.end, limit)
		if ed.start > end {
			continue
		}
		out = slices.Concat(out[:ed.start], []byte(ed.text), out[end:])
		if ed.start < limit {
			limit = ed.start
		}
	}
	return out
}

// expected is before with the edit applied to its hook state.
func expected(before map[string]any, e stateEdit) map[string]any {
	doc := deepCopy(before).(map[string]any)
	if len(e.set) > 0 {
		state := subTable(subTable(doc, "hooks"), "state")
		for key, hash := range e.set {
			subTable(state, key)[trustedHash] = hash
		}
	}
	hooksTable, _ := doc["hooks"].(map[string]any)
	state, _ := hooksTable["state"].(map[string]any)
	for _, key := range e.drop {
		if t, ok := state[key].(map[string]any); ok {
			delete(t, trustedHash)
		}
	}
	return doc
}

func subTable(m map[string]any, key string) map[string]any {
	t, ok := m[key].(map[string]any)
	if !ok {
		t = map[string]any{}
		m[key] = t
	}
	return t
}

// prune drops the empty tables under hooks.state, then an empty state and
// hooks: a table the edit removed and one it left empty mean the same.
func prune(doc map[string]any) map[string]any {
	doc = deepCopy(doc).(map[string]any)
	hooksTable, ok := doc["hooks"].(map[string]any)
	if !ok {
		return doc
	}
	if state, ok := hooksTable["state"].(map[string]any); ok {
		for k, v := range state {
			if t, ok := v.(map[string]any); ok && len(t) == 0 {
				delete(state, k)
			}
		}
		if len(state) == 0 {
			delete(hooksTable, "state")
		}
	}
	if len(hooksTable) == 0 {
		delete(doc, "hooks")
	}
	return doc
}

func deepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[k] = deepCopy(x)
		}
		return m
	case []any:
		s := make([]any, len(t))
		for i, x := range t {
			s[i] = deepCopy(x)
		}
		return s
	}
	return v
}
