package tmux

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// EventKind says what a line of the control-mode stream was.
type EventKind int

const (
	// EventNone: the line was absorbed (a %begin, or a line inside an
	// open reply block).
	EventNone EventKind = iota
	// EventOutput: %output or %extended-output; Pane, Data and Age are set.
	EventOutput
	// EventPause: %pause; tmux stopped sending Pane's output.
	EventPause
	// EventContinue: %continue; Pane's output flows again.
	EventContinue
	// EventExit: %exit; the client is leaving control mode. Reason may
	// be empty.
	EventExit
	// EventReply: a %begin ... %end or %error block closed; Reply is set.
	EventReply
	// EventNotification: any other %-notification; Name and Args are set.
	EventNotification
)

var eventKindNames = [...]string{
	EventNone:         "none",
	EventOutput:       "output",
	EventPause:        "pause",
	EventContinue:     "continue",
	EventExit:         "exit",
	EventReply:        "reply",
	EventNotification: "notification",
}

func (k EventKind) String() string {
	if k >= 0 && int(k) < len(eventKindNames) {
		return eventKindNames[k]
	}
	return "unknown"
}

// Event is one decoded line of the control-mode stream.
type Event struct {
	Kind   EventKind
	Name   string        // the notification word without '%', e.g. "output", "layout-change"
	Pane   string        // "%3" for output, pause and continue
	Data   []byte        // output bytes, octal escapes decoded; owned by the receiver unless the Parser reuses its buffer
	Age    time.Duration // %extended-output: how long tmux held the data
	Reason string        // %exit: why, when tmux said
	Args   string        // other notifications: the rest of the line, undecoded
	Reply  Reply         // EventReply only
}

// Reply is one command's answer: the lines between %begin and %end (or
// %error), and the triple that framed them.
type Reply struct {
	Time   int64    // seconds since the epoch, as tmux printed it
	Number int64    // the server-wide command number
	Flags  int      // 1 when the command came from this client's input
	Lines  []string // the output, verbatim; lines may start with '%'
	Failed bool     // the block ended with %error
}

// FromClient reports whether the command was written by this client,
// rather than being the attach-session that started it.
func (r Reply) FromClient() bool { return r.Flags&1 != 0 }

// Parser decodes the line stream of a `tmux -C` client. It is pure: no
// I/O, no clock. Feed it each line without its trailing newline.
//
// Inside a reply block every line is payload until the %end or %error
// whose triple matches the %begin: payload lines may start with '%'
// themselves (list-panes -F '#{pane_id}' prints "%3"). tmux writes no
// notifications inside a block for the synchronous commands this package
// sends.
type Parser struct {
	open  bool
	block Reply
	// reuse decodes output into buf, which the next Parse overwrites, so
	// a busy stream allocates nothing per line; the control connection
	// sets it and hands Data to subscribers that do not keep it.
	reuse bool
	buf   []byte
	panes map[string]string // the pane ids seen, so that each is one string
}

// maxPaneIDs bounds the pane ids a Parser keeps; past it they start over.
const maxPaneIDs = 1024

// Parse decodes one line. It returns an error for a line that breaks the
// protocol; the parser stays usable and the caller may go on.
func (p *Parser) Parse(line []byte) (Event, error) {
	if p.open {
		return p.parseInBlock(line), nil
	}
	if len(line) == 0 || line[0] != '%' {
		return Event{}, fmt.Errorf("parse control line %q: not a notification outside a reply block", clip(line))
	}
	name, rest := cutWord(line[1:])
	switch string(name) {
	case "begin":
		return p.begin(line, rest)
	case "end", "error":
		return Event{}, fmt.Errorf("parse control line %q: no open reply block", clip(line))
	case "output":
		return p.output(line, rest)
	case "extended-output":
		return p.extendedOutput(line, rest)
	case "pause":
		return p.paneEvent(EventPause, line, rest)
	case "continue":
		return p.paneEvent(EventContinue, line, rest)
	case "exit":
		return Event{Kind: EventExit, Name: "exit", Reason: string(rest)}, nil
	default:
		return Event{Kind: EventNotification, Name: string(name), Args: string(rest)}, nil
	}
}

// InBlock reports whether a reply block is open.
func (p *Parser) InBlock() bool { return p.open }

func (p *Parser) begin(line, rest []byte) (Event, error) {
	t, n, f, err := parseTriple(rest)
	if err != nil {
		return Event{}, fmt.Errorf("parse control line %q: %w", clip(line), err)
	}
	p.open = true
	p.block = Reply{Time: t, Number: n, Flags: f}
	return Event{}, nil
}

func (p *Parser) parseInBlock(line []byte) Event {
	var failed bool
	switch {
	case bytes.HasPrefix(line, []byte("%end ")):
	case bytes.HasPrefix(line, []byte("%error ")):
		failed = true
	default:
		p.block.Lines = append(p.block.Lines, string(line))
		return Event{}
	}
	_, rest := cutWord(line[1:])
	t, n, f, err := parseTriple(rest)
	if err != nil || t != p.block.Time || n != p.block.Number || f != p.block.Flags {
		// Not our guard: a payload line that happens to look like one.
		p.block.Lines = append(p.block.Lines, string(line))
		return Event{}
	}
	reply := p.block
	reply.Failed = failed
	p.open = false
	p.block = Reply{}
	return Event{Kind: EventReply, Name: "end", Reply: reply}
}

func (p *Parser) output(line, rest []byte) (Event, error) {
	pane, data := cutWord(rest)
	if !validPaneID(pane) {
		return Event{}, fmt.Errorf("parse control line %q: bad pane id", clip(line))
	}
	return Event{Kind: EventOutput, Name: "output", Pane: p.paneID(pane), Data: p.decode(data)}, nil
}

// extendedOutput reads "%extended-output %ID AGE ... : DATA"; tmux
// reserves the words between AGE and the colon for later use.
func (p *Parser) extendedOutput(line, rest []byte) (Event, error) {
	pane, rest := cutWord(rest)
	ageWord, rest := cutWord(rest)
	age, err := strconv.ParseInt(string(ageWord), 10, 64)
	if !validPaneID(pane) || err != nil || age < 0 {
		return Event{}, fmt.Errorf("parse control line %q: bad pane id or age", clip(line))
	}
	// rest is ": DATA", or "WORDS... : DATA" once tmux adds arguments.
	var data []byte
	switch i := bytes.Index(rest, []byte(" : ")); {
	case bytes.HasPrefix(rest, []byte(": ")):
		data = rest[2:]
	case bytes.Equal(rest, []byte(":")):
		data = nil // an empty chunk, with the space after the colon trimmed
	case i >= 0:
		data = rest[i+3:]
	default:
		return Event{}, fmt.Errorf("parse control line %q: no ':' before the data", clip(line))
	}
	return Event{
		Kind: EventOutput, Name: "extended-output", Pane: p.paneID(pane),
		Data: p.decode(data), Age: time.Duration(age) * time.Millisecond,
	}, nil
}

func (p *Parser) paneEvent(kind EventKind, line, rest []byte) (Event, error) {
	pane, _ := cutWord(rest)
	if !validPaneID(pane) {
		return Event{}, fmt.Errorf("parse control line %q: bad pane id", clip(line))
	}
	return Event{Kind: kind, Name: kind.String(), Pane: p.paneID(pane)}, nil
}

// decode decodes output data into a new slice, or into the reused buffer.
func (p *Parser) decode(data []byte) []byte {
	if !p.reuse {
		return AppendDecoded(make([]byte, 0, len(data)), data)
	}
	p.buf = AppendDecoded(p.buf[:0], data)
	return p.buf
}

// paneID returns the string of a pane id, the same one each time.
func (p *Parser) paneID(b []byte) string {
	if s, ok := p.panes[string(b)]; ok {
		return s
	}
	if p.panes == nil || len(p.panes) >= maxPaneIDs {
		p.panes = make(map[string]string)
	}
	s := string(b)
	p.panes[s] = s
	return s
}

// parseTriple reads the "TIME NUMBER FLAGS" of a %begin, %end or %error.
func parseTriple(b []byte) (t, n int64, f int, err error) {
	fields := strings.Fields(string(b))
	if len(fields) != 3 {
		return 0, 0, 0, fmt.Errorf("want time, number and flags, got %d words", len(fields))
	}
	t, err1 := strconv.ParseInt(fields[0], 10, 64)
	n, err2 := strconv.ParseInt(fields[1], 10, 64)
	f64, err3 := strconv.ParseInt(fields[2], 10, 32)
	if err1 != nil || err2 != nil || err3 != nil {
		return 0, 0, 0, fmt.Errorf("time, number and flags must be integers")
	}
	return t, n, int(f64), nil
}

// cutWord splits b at its first space.
func cutWord(b []byte) (word, rest []byte) {
	if i := bytes.IndexByte(b, ' '); i >= 0 {
		return b[:i], b[i+1:]
	}
	return b, nil
}

// validPaneID reports whether b is a pane id such as "%3".
func validPaneID(b []byte) bool {
	if len(b) < 2 || b[0] != '%' {
		return false
	}
	for _, c := range b[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// clip shortens a line for an error message.
func clip(b []byte) string {
	const max = 80
	if len(b) > max {
		return string(b[:max]) + "..."
	}
	return string(b)
}
