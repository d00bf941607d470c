package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// The settings file is edited as a tree of ordered objects whose untouched
// values stay json.RawMessage: keys keep their order and their spelling
// (escapes included), values keep every byte. Only the indentation is
// normalised when the file is written back.

// member is one key of a JSON object.
type member struct {
	rawKey []byte // the key's string literal as written, quotes included
	key    string // the decoded key
	value  json.RawMessage
}

// object is a JSON object's members in file order. Duplicate keys are kept;
// like Claude Code's JSON.parse, lookups take the last one.
type object []member

var errNotObject = errors.New("not a JSON object")

// parseObject splits a JSON object into its members. data must be valid
// JSON (checkSyntax).
func parseObject(data []byte) (object, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errNotObject
	}
	var obj object
	for dec.More() {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		// Token skips the comma and blanks before the key; what is left
		// between the two offsets is the key's literal.
		rawKey := bytes.TrimLeft(data[start:dec.InputOffset()], ", \t\r\n")
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, err
		}
		obj = append(obj, member{rawKey: bytes.Clone(rawKey), key: key, value: value})
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the top-level object")
	}
	return obj, nil
}

// find returns the index of the last member named key, or -1.
func (o object) find(key string) int {
	for i := len(o) - 1; i >= 0; i-- {
		if o[i].key == key {
			return i
		}
	}
	return -1
}

// set replaces the value of the last member named key, or appends one.
func (o *object) set(key string, value json.RawMessage) {
	if i := o.find(key); i >= 0 {
		(*o)[i].value = value
		return
	}
	*o = append(*o, member{rawKey: quote(key), key: key, value: value})
}

// remove drops every member named key.
func (o *object) remove(key string) {
	kept := (*o)[:0]
	for _, m := range *o {
		if m.key != key {
			kept = append(kept, m)
		}
	}
	*o = kept
}

// stringValue returns the member's value when it is a JSON string.
func (o object) stringValue(key string) (string, bool) {
	i := o.find(key)
	if i < 0 {
		return "", false
	}
	var s string
	if json.Unmarshal(o[i].value, &s) != nil {
		return "", false
	}
	return s, true
}

// encode writes the object compactly; indent gives it its final layout.
func (o object) encode() json.RawMessage {
	var b []byte
	b = append(b, '{')
	for i, m := range o {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, m.rawKey...)
		b = append(b, ':')
		b = append(b, m.value...)
	}
	return append(b, '}')
}

// parseArray splits a JSON array into its elements.
func parseArray(data []byte) ([]json.RawMessage, bool) {
	var list []json.RawMessage
	if json.Unmarshal(data, &list) != nil || list == nil {
		return nil, false
	}
	return list, true
}

// encodeArray writes the elements compactly.
func encodeArray(list []json.RawMessage) json.RawMessage {
	b := []byte{'['}
	for i, v := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, v...)
	}
	return append(b, ']')
}

// quote encodes s as a JSON string without HTML escaping, so that a path
// with & or < reads as written.
func quote(s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // encoding a string cannot fail
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// indent lays out a document the way Claude Code writes its settings
// (JSON.stringify with 2 spaces) plus a trailing newline. Literals are
// copied as they are, so "\u00e9" stays "\u00e9" and 1.50 stays 1.50.
func indent(doc []byte) ([]byte, error) {
	var buf bytes.Buffer
	// Indent keeps trailing blanks; the layout ends with one newline.
	if err := json.Indent(&buf, bytes.TrimSpace(doc), "", "  "); err != nil {
		return nil, fmt.Errorf("indent settings: %w", err)
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}
