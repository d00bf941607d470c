package simclaude

import (
	"fmt"
	"strings"
	"testing"
)

func describe(events []inputEvent) string {
	var parts []string
	for _, e := range events {
		switch e.kind {
		case evText:
			parts = append(parts, fmt.Sprintf("text(%q)", e.text))
		case evKey:
			parts = append(parts, e.key)
		case evPaste:
			parts = append(parts, fmt.Sprintf("paste(%q)", e.text))
		}
	}
	return strings.Join(parts, " ")
}

func TestDecoder_Feed(t *testing.T) {
	for _, tc := range []struct {
		name   string
		chunks []string
		want   string
	}{
		{"typed text", []string{"hello there"}, `text("hello there")`},
		{"enter apart", []string{"hello", "\r"}, `text("hello") enter`},
		{"enter together", []string{"hi\r"}, `text("hi") enter`},
		{"line feed", []string{"a\nb"}, `text("a") ctrl+j text("b")`},
		{"utf-8", []string{"héllo ❯"}, `text("héllo ❯")`},
		{"utf-8 split", []string{"\xe2\x9d", "\xaf!"}, `text("❯!")`},
		{"controls", []string{"\x7f\x08\t\x03\x15"}, `backspace backspace tab ctrl+c ctrl+u`},
		{"arrows", []string{"\x1b[A\x1b[B\x1b[C\x1b[D\x1bOA"}, `up down right left up`},
		{"shift tab", []string{"\x1b[Z"}, `shift+tab`},
		{"focus reports ignored", []string{"\x1b[I\x1b[Ox"}, `text("x")`},
		{"csi split", []string{"\x1b", "[", "A"}, `up`},
		{"escape then text", []string{"\x1bhello"}, `escape text("hello")`},
		{"two escapes", []string{"\x1b\x1b["}, `escape`},
		{"paste", []string{"\x1b[200~line one\nline two\x1b[201~"}, `paste("line one\nline two")`},
		{"paste with CR", []string{"\x1b[200~a\r\nb\rc\x1b[201~\r"}, `paste("a\nb\nc") enter`},
		{"paste in pieces", []string{"\x1b[200~ab", "c\x1b[2", "01~", "\r"}, `paste("abc") enter`},
		{"escape inside paste", []string{"\x1b[200~\x1b[Ax\x1b[201~"}, `paste("\x1b[Ax")`},
		{"empty paste", []string{"\x1b[200~\x1b[201~"}, `paste("")`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d decoder
			var got []inputEvent
			for _, c := range tc.chunks {
				got = append(got, d.feed([]byte(c))...)
			}
			if s := describe(got); s != tc.want {
				t.Errorf("got %s\nwant %s", s, tc.want)
			}
		})
	}
}

func TestDecoder_LoneEscapeWaitsForFlush(t *testing.T) {
	var d decoder
	if got := d.feed([]byte("\x1b")); len(got) != 0 || !d.pending() {
		t.Fatalf("lone ESC decoded at once: %s", describe(got))
	}
	if got := describe(d.flush()); got != "escape" {
		t.Errorf("flush = %s", got)
	}
	if d.pending() {
		t.Error("still pending after flush")
	}
	if got := describe(d.feed([]byte("[A"))); got != `text("[A")` {
		t.Errorf("after a flushed ESC: %s", got)
	}
}

func TestDecoder_PasteIsNotPending(t *testing.T) {
	var d decoder
	d.feed([]byte("\x1b[200~half"))
	if d.pending() {
		t.Error("an open paste asks for an Escape flush")
	}
}
