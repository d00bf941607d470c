package hooks

import "encoding/json"

// Helpers for another agent's hooks file of its own shape (the GitHub
// Copilot CLI's {"version": 1, "hooks": {event: [hook objects]}}), edited
// as the settings file is: keys keep their order and spelling, values
// they do not change keep every byte, and only the layout is normalised.

// Member is one key of a JSON object as read: Key decoded, Value its
// bytes as written.
type Member struct {
	Key   string
	Value json.RawMessage
	raw   []byte // the key's literal as written; nil for a new key
}

// NewMember is a key to add to an object.
func NewMember(key string, value json.RawMessage) Member {
	return Member{Key: key, Value: value}
}

// ParseMembers splits a JSON object into its members in file order,
// duplicate keys included; anything but an object is an error. data must
// be valid JSON (CheckSyntax).
func ParseMembers(data []byte) ([]Member, error) {
	obj, err := parseObject(data)
	if err != nil {
		return nil, err
	}
	out := make([]Member, len(obj))
	for i, m := range obj {
		out[i] = Member{Key: m.key, Value: m.value, raw: m.rawKey}
	}
	return out, nil
}

// EncodeMembers writes members as a compact object, each key spelled as
// it was read; LayOut gives the result its final layout.
func EncodeMembers(members []Member) json.RawMessage {
	obj := make(object, len(members))
	for i, m := range members {
		raw := m.raw
		if raw == nil {
			raw = quote(m.Key)
		}
		obj[i] = member{rawKey: raw, key: m.Key, value: m.Value}
	}
	return obj.encode()
}

// ParseArray splits a JSON array into its elements; ok is false for
// anything else.
func ParseArray(data []byte) (elements []json.RawMessage, ok bool) { return parseArray(data) }

// EncodeArray writes elements as a compact array.
func EncodeArray(elements []json.RawMessage) json.RawMessage { return encodeArray(elements) }

// LayOut lays a document out as the settings file is written: 2-space
// indent and a final newline, every literal copied as it is.
func LayOut(doc []byte) ([]byte, error) { return indent(doc) }

// CheckSyntax validates data as JSON, as the settings file is checked: a
// *SyntaxError locates the first error by line and column of path. Blank
// data is valid.
func CheckSyntax(path string, data []byte) error { return checkSyntax(path, data) }

// QuoteJSON encodes s as a JSON string, leaving &, < and > as they are.
func QuoteJSON(s string) json.RawMessage { return quote(s) }

// CommandProgram is the program a hook command of codeman's runs: the
// unquoted path of "<program>" or "<program> hook".
func CommandProgram(command string) string { return commandProgram(command) }

// SameJSON reports whether two JSON values are equal as values: the same
// keys and values in any order and any layout.
func SameJSON(a, b json.RawMessage) bool { return sameJSON(a, b) }

// ShellQuote quotes s for sh when it holds anything but plain path
// characters, as codeman's hook commands are quoted.
func ShellQuote(s string) string { return shellQuote(s) }
