package tmux

import (
	"bufio"
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// encodeOutput escapes data the way tmux writes %output data
// (control.c control_append_data): bytes below 0x20 and '\' as \ooo.
func encodeOutput(data []byte) []byte {
	var b bytes.Buffer
	for _, c := range data {
		if c < ' ' || c == '\\' {
			b.WriteByte('\\')
			b.WriteByte('0' + c>>6)
			b.WriteByte('0' + c>>3&7)
			b.WriteByte('0' + c&7)
			continue
		}
		b.WriteByte(c)
	}
	return b.Bytes()
}

// parseAll feeds lines to one parser and returns the events that are not
// EventNone, and the errors.
func parseAll(lines []string) ([]Event, []error) {
	var p Parser
	var events []Event
	var errs []error
	for _, l := range lines {
		ev, err := p.Parse([]byte(l))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if ev.Kind != EventNone {
			events = append(events, ev)
		}
	}
	return events, errs
}

func output(pane, data string) Event {
	return Event{Kind: EventOutput, Name: "output", Pane: pane, Data: []byte(data)}
}

func TestParser_Parse(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  []Event
	}{
		{
			name:  "OctalEscapes",
			lines: []string{`%output %3 back\134slash \033[1mbold\033[0m tab\011x\015\012`},
			want:  []Event{output("%3", "back\\slash \x1b[1mbold\x1b[0m tab\tx\r\n")},
		},
		{
			name:  "DoubleBackslash",
			lines: []string{`%output %3 a\\b`},
			want:  []Event{output("%3", `a\b`)},
		},
		{
			name:  "MalformedEscapesKept",
			lines: []string{`%output %3 \9 \47 \477x \`},
			want:  []Event{output("%3", `\9 \47 \477x \`)},
		},
		{
			name:  "UTF8SplitAcrossLines",
			lines: []string{"%output %1 split \xe2\x9c", "%output %1 \xbb done"},
			want:  []Event{output("%1", "split \xe2\x9c"), output("%1", "\xbb done")},
		},
		{
			name:  "SpacesInData",
			lines: []string{"%output %1   two  spaces  "},
			want:  []Event{output("%1", "  two  spaces  ")},
		},
		{
			name:  "EmptyOutput",
			lines: []string{"%output %1 ", "%output %2"},
			want:  []Event{output("%1", ""), output("%2", "")},
		},
		{
			name:  "ExtendedOutput",
			lines: []string{`%extended-output %7 1500 : x : y\012`, `%extended-output %7 0 reserved words : z`},
			want: []Event{
				{Kind: EventOutput, Name: "extended-output", Pane: "%7", Data: []byte("x : y\n"), Age: 1500 * time.Millisecond},
				{Kind: EventOutput, Name: "extended-output", Pane: "%7", Data: []byte("z")},
			},
		},
		{
			name: "PercentLinesInsideReply",
			lines: []string{
				"%begin 1795984711 269 1",
				"%%%0 80",
				"%output %9 not output",
				"%end 1795984711 269 0",   // wrong flags: payload
				"%end 1795984711 268 1",   // wrong number: payload
				"%error 1795984712 269 1", // wrong time: payload
				"%end 1795984711 269 1",
			},
			want: []Event{{Kind: EventReply, Name: "end", Reply: Reply{
				Time: 1795984711, Number: 269, Flags: 1,
				Lines: []string{"%%%0 80", "%output %9 not output", "%end 1795984711 269 0", "%end 1795984711 268 1", "%error 1795984712 269 1"},
			}}},
		},
		{
			name:  "ErrorReply",
			lines: []string{"%begin 5 272 1", "parse error: unknown command: nosuchcommand", "%error 5 272 1"},
			want: []Event{{Kind: EventReply, Name: "end", Reply: Reply{
				Time: 5, Number: 272, Flags: 1, Lines: []string{"parse error: unknown command: nosuchcommand"}, Failed: true,
			}}},
		},
		{
			name: "InterleavedNotifications",
			lines: []string{
				"%begin 1 264 0", "%end 1 264 0",
				"%session-changed $0 cap",
				"%output %0 a",
				"%window-add @1",
				"%begin 2 273 1", "%end 2 273 1",
				"%layout-change @1 b25d,80x24,0,0,2 b25d,80x24,0,0,2 *",
				"%window-close @1",
				"%unlinked-window-close @2",
				"%sessions-changed",
				"%output %0 b",
			},
			want: []Event{
				{Kind: EventReply, Name: "end", Reply: Reply{Time: 1, Number: 264}},
				{Kind: EventNotification, Name: "session-changed", Args: "$0 cap"},
				output("%0", "a"),
				{Kind: EventNotification, Name: "window-add", Args: "@1"},
				{Kind: EventReply, Name: "end", Reply: Reply{Time: 2, Number: 273, Flags: 1}},
				{Kind: EventNotification, Name: "layout-change", Args: "@1 b25d,80x24,0,0,2 b25d,80x24,0,0,2 *"},
				{Kind: EventNotification, Name: "window-close", Args: "@1"},
				{Kind: EventNotification, Name: "unlinked-window-close", Args: "@2"},
				{Kind: EventNotification, Name: "sessions-changed"},
				output("%0", "b"),
			},
		},
		{
			name:  "PauseContinue",
			lines: []string{"%pause %0", "%continue %12"},
			want: []Event{
				{Kind: EventPause, Name: "pause", Pane: "%0"},
				{Kind: EventContinue, Name: "continue", Pane: "%12"},
			},
		},
		{
			name:  "Exit",
			lines: []string{"%exit", "%exit too far behind"},
			want: []Event{
				{Kind: EventExit, Name: "exit"},
				{Kind: EventExit, Name: "exit", Reason: "too far behind"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, errs := parseAll(tt.lines)
			if len(errs) > 0 {
				t.Fatalf("errors: %v", errs)
			}
			normalize(got)
			normalize(tt.want)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("events:\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// normalize makes empty and nil data compare equal.
func normalize(events []Event) {
	for i := range events {
		if len(events[i].Data) == 0 {
			events[i].Data = nil
		}
	}
}

func TestParser_ParseErrors(t *testing.T) {
	tests := []string{
		"plain text outside a block",
		"",
		"%end 1 2 1",
		"%error 1 2 1",
		"%output 3 missing percent",
		"%output %x bad id",
		"%extended-output %1 notanumber : x",
		"%extended-output %1 5 no colon",
		"%pause",
		"%begin 1 2",
		"%begin a b c",
	}
	for _, line := range tests {
		var p Parser
		if ev, err := p.Parse([]byte(line)); err == nil {
			t.Errorf("Parse(%q) = %+v, want an error", line, ev)
		}
		// The parser stays usable.
		if ev, err := p.Parse([]byte("%output %1 ok")); err != nil || string(ev.Data) != "ok" {
			t.Errorf("after %q: Parse = %+v, %v", line, ev, err)
		}
	}
}

func TestParser_BeginInsideBlockIsPayload(t *testing.T) {
	got, errs := parseAll([]string{"%begin 1 1 1", "%begin 2 2 1", "%end 2 2 1", "%end 1 1 1"})
	if len(errs) > 0 || len(got) != 1 {
		t.Fatalf("got %+v, errors %v; want one reply", got, errs)
	}
	if want := []string{"%begin 2 2 1", "%end 2 2 1"}; !reflect.DeepEqual(got[0].Reply.Lines, want) {
		t.Errorf("lines = %q, want %q", got[0].Reply.Lines, want)
	}
}

// TestParser_CapturedStream replays what tmux 3.3a wrote to a control
// client: the attach reply, list-panes output starting with '%', a parse
// error, window notifications, output with escapes and a UTF-8 character
// split across two lines, %pause, and a %continue inside the reply block
// of the refresh-client that caused it.
func TestParser_CapturedStream(t *testing.T) {
	f, err := os.Open("testdata/control-3.3a.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var p Parser
	var kinds []string
	var out []byte
	var replies []Reply
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		ev, err := p.Parse(sc.Bytes())
		if err != nil {
			t.Fatalf("Parse(%q): %v", sc.Text(), err)
		}
		switch ev.Kind {
		case EventNone:
			continue
		case EventOutput:
			out = append(out, ev.Data...)
		case EventReply:
			replies = append(replies, ev.Reply)
		}
		kinds = append(kinds, ev.Kind.String()+":"+ev.Name)
	}
	if p.InBlock() {
		t.Error("stream ended inside a reply block")
	}
	wantOut := "\r\nback\\slash \x1b[1mbold\x1b[0m café tab\there\r\nsplit ✻ done\r\n"
	if !strings.HasPrefix(string(out), wantOut) {
		t.Errorf("output starts %q, want %q", out[:min(len(out), len(wantOut))], wantOut)
	}
	if got := replies[1].Lines; !reflect.DeepEqual(got, []string{"%%%0 80"}) {
		t.Errorf("list-panes reply = %q", got)
	}
	if r := replies[4]; !r.Failed || r.Lines[0] != "parse error: unknown command: nosuchcommand" {
		t.Errorf("reply 4 = %+v, want the parse error", r)
	}
	if r := replies[8]; r.Number != 278 || !reflect.DeepEqual(r.Lines, []string{"%continue %0"}) {
		t.Errorf("refresh-client reply = %+v, want %%continue inside it", r)
	}
	joined := strings.Join(kinds, " ")
	for _, want := range []string{"notification:session-changed", "notification:window-add",
		"notification:unlinked-window-close", "pause:pause", "notification:sessions-changed", "exit:exit"} {
		if !strings.Contains(joined, want) {
			t.Errorf("events lack %s: %s", want, joined)
		}
	}
}

func TestAppendDecoded_RoundTrip(t *testing.T) {
	var all []byte
	for i := 0; i < 256; i++ {
		all = append(all, byte(i))
	}
	for _, data := range [][]byte{nil, []byte("plain"), []byte(`\\\`), []byte("\\134"), all} {
		if got := AppendDecoded(nil, encodeOutput(data)); !bytes.Equal(got, data) {
			t.Errorf("decode(encode(%q)) = %q", data, got)
		}
	}
}

func TestAppendDecoded_Appends(t *testing.T) {
	got := AppendDecoded([]byte("pre:"), []byte(`a\012b`))
	if string(got) != "pre:a\nb" {
		t.Errorf("got %q", got)
	}
}

// The control connection's parser decodes output into one buffer, which the
// next line overwrites, and names a pane with one string.
func TestParser_ReusedBufferAndPaneIDs(t *testing.T) {
	p := Parser{reuse: true}
	first, err := p.Parse([]byte(`%output %3 ab\015\012`))
	if err != nil || string(first.Data) != "ab\r\n" {
		t.Fatalf("first = %+v, %v", first, err)
	}
	second, err := p.Parse([]byte(`%extended-output %3 20 : cd`))
	if err != nil || string(second.Data) != "cd" || second.Age != 20*time.Millisecond {
		t.Fatalf("second = %+v, %v", second, err)
	}
	if &first.Data[0] != &second.Data[0] {
		t.Fatal("the second line's data is not in the reused buffer")
	}
	if first.Pane != "%3" || unsafe.StringData(first.Pane) != unsafe.StringData(second.Pane) {
		t.Fatalf("pane ids %q and %q are two strings", first.Pane, second.Pane)
	}

	var own Parser // without reuse each event owns its data
	a, _ := own.Parse([]byte(`%output %3 ab`))
	b, _ := own.Parse([]byte(`%output %3 cd`))
	if string(a.Data) != "ab" || string(b.Data) != "cd" {
		t.Fatalf("owned data changed: %q, %q", a.Data, b.Data)
	}
}
