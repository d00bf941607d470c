package tmux

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"
)

// FuzzParse feeds arbitrary line streams to the parser and checks that it
// neither panics nor lets anything malformed through: output has a pane id
// and no more bytes than its line, a reply closes only a block that was
// opened, and errors stay short. It also checks that any bytes sent as
// %output or %extended-output come back unchanged, and that payload lines
// in a reply block come back verbatim. The seeds are a captured tmux 3.3a
// control stream, whole and line by line, and hand-made edge cases.
func FuzzParse(f *testing.F) {
	captured, err := os.ReadFile("testdata/control-3.3a.txt")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(captured)
	for _, line := range bytes.Split(captured, []byte("\n")) {
		f.Add(line)
	}
	for _, seed := range []string{
		"",
		"plain",
		"back\\slash \x1b[1m caf\xc3\xa9 \t\r\n",
		"split \xe2\x9c",
		"%begin 1 2 1\n%end 1 2 1",
		"%begin 1 2 1\n%end 1 2 0\n%error 01 2 1",
		"%begin 1 2\n%end",
		"%extended-output %1 0 : x",
		"%extended-output %1 0 later words : x",
		"%extended-output %1 -5 : x\n%extended-output % 0 :",
		"\\\\\\134\\9",
		"%output %1 \\0",
		"%output %1 \\7777\\",
		"%pause %x\n%continue\n%exit too long",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkStream(t, data)

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
		// The same through %extended-output, with and without the words
		// tmux reserves before the colon.
		for _, head := range []string{"%extended-output %7 12 : ", "%extended-output %7 12 w1 w2 : "} {
			line := append([]byte(head), encodeOutput(data)...)
			ev, err := q.Parse(line)
			if err != nil {
				t.Fatalf("Parse(%q): %v", line, err)
			}
			if ev.Kind != EventOutput || ev.Pane != "%7" || ev.Age.Milliseconds() != 12 || !bytes.Equal(ev.Data, data) {
				t.Fatalf("Parse(%q) = %+v, want output %q", line, ev, data)
			}
		}

		// Payload lines come back verbatim from a reply block, however
		// much they look like notifications, unless one looks like a
		// closing guard.
		payload := strings.Split(string(data), "\n")
		if slices.ContainsFunc(payload, func(l string) bool {
			return strings.HasPrefix(l, "%end ") || strings.HasPrefix(l, "%error ")
		}) {
			return
		}
		var r Parser
		if ev, err := r.Parse([]byte("%begin 1795984711 269 1")); err != nil || ev.Kind != EventNone {
			t.Fatalf("begin: %+v, %v", ev, err)
		}
		for _, l := range payload {
			if ev, err := r.Parse([]byte(l)); err != nil || ev.Kind != EventNone {
				t.Fatalf("payload line %q: %+v, %v", l, ev, err)
			}
		}
		ev, err = r.Parse([]byte("%end 1795984711 269 1"))
		if err != nil || ev.Kind != EventReply || !slices.Equal(ev.Reply.Lines, payload) || r.InBlock() {
			t.Fatalf("reply %+v, %v; want lines %q", ev.Reply, err, payload)
		}
	})
}

// checkStream parses data line by line, as the client reads it.
func checkStream(t *testing.T, data []byte) {
	t.Helper()
	var p Parser
	begins := 0
	for _, line := range bytes.Split(data, []byte("\n")) {
		wasOpen := p.InBlock()
		if !wasOpen && bytes.HasPrefix(line, []byte("%begin")) {
			begins++
		}
		ev, err := p.Parse(line)
		if err != nil {
			if ev.Kind != EventNone {
				t.Fatalf("Parse(%q) = %+v with error %v", line, ev, err)
			}
			// The line is clipped to 80 bytes, quoted at 4 bytes a byte at most.
			if len(err.Error()) > 512 {
				t.Fatalf("error of %d bytes for a line of %d", len(err.Error()), len(line))
			}
			continue
		}
		switch ev.Kind {
		case EventOutput:
			if !validPaneID([]byte(ev.Pane)) || len(ev.Data) > len(line) || ev.Age < 0 {
				t.Fatalf("Parse(%q) = %+v", line, ev)
			}
		case EventPause, EventContinue:
			if !validPaneID([]byte(ev.Pane)) {
				t.Fatalf("Parse(%q) = %+v", line, ev)
			}
		case EventReply:
			if !wasOpen || p.InBlock() || begins == 0 {
				t.Fatalf("reply %+v at %q without an open block", ev.Reply, line)
			}
		}
		if wasOpen && ev.Kind != EventNone && ev.Kind != EventReply {
			t.Fatalf("Parse(%q) inside a block = %+v", line, ev)
		}
	}
}
