package tmux

import (
	"bytes"
	"testing"
)

// FuzzParse checks that no input makes the parser panic, and that any
// bytes written as an %output line come back unchanged.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"",
		"plain",
		"back\\slash \x1b[1m caf\xc3\xa9 \t\r\n",
		"split \xe2\x9c",
		"%begin 1 2 1\n%end 1 2 1",
		"%extended-output %1 0 : x",
		"\\\\\\134\\9",
		"%output %1 \\0",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// Any line sequence: no panic, and the parser keeps going.
		var p Parser
		for _, line := range bytes.Split(data, []byte("\n")) {
			_, _ = p.Parse(line) // errors are expected for garbage
		}

		// decode(encode(x)) == x through a whole %output line.
		line := append([]byte("%output %42 "), encodeOutput(data)...)
		var q Parser
		ev, err := q.Parse(line)
		if err != nil {
			t.Fatalf("Parse(%q): %v", line, err)
		}
		if ev.Kind != EventOutput || ev.Pane != "%42" || !bytes.Equal(ev.Data, data) {
			t.Fatalf("Parse(%q) = %+v, want output %q", line, ev, data)
		}
	})
}
