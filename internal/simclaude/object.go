package simclaude

import (
	"bytes"
	"encoding/json"
)

// object is a JSON object that keeps its keys in the order Claude Code
// writes them, so payloads read like the captured ones.
type object []field

type field struct {
	key   string
	value any
}

// MarshalJSON writes the fields in order. HTML characters stay as they
// are, as in JavaScript's JSON.stringify (prompts carry "<task-notification>").
func (o object) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := encodeJSON(&buf, f.key); err != nil {
			return nil, err
		}
		buf.WriteByte(':')
		if err := encodeJSON(&buf, f.value); err != nil {
			return nil, err
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// encode is the payload as Claude writes it: json.Marshal would escape the
// HTML characters that MarshalJSON kept.
func (o object) encode() ([]byte, error) {
	var buf bytes.Buffer
	err := encodeJSON(&buf, o)
	return buf.Bytes(), err
}

// get returns the value of key, or nil.
func (o object) get(key string) any {
	for _, f := range o {
		if f.key == key {
			return f.value
		}
	}
	return nil
}

func encodeJSON(buf *bytes.Buffer, v any) error {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	buf.Truncate(buf.Len() - 1) // Encode ends with a newline
	return nil
}
