package simclaude

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// eventKind says what an input event carries.
type eventKind int

const (
	evText  eventKind = iota + 1 // printable characters typed in one go
	evKey                        // one named key
	evPaste                      // one bracketed paste, newlines kept
)

// inputEvent is one decoded piece of terminal input.
type inputEvent struct {
	kind eventKind
	text string // evText, evPaste
	key  string // evKey: a keyXxx name
}

// Key names, as they appear in the log.
const (
	keyEnter     = "enter"
	keyNewline   = "ctrl+j"
	keyEscape    = "escape"
	keyBackspace = "backspace"
	keyTab       = "tab"
	keyShiftTab  = "shift+tab"
	keyUp        = "up"
	keyDown      = "down"
	keyLeft      = "left"
	keyRight     = "right"
	keyCtrlC     = "ctrl+c"
	keyCtrlD     = "ctrl+d"
	keyCtrlU     = "ctrl+u"
)

const (
	pasteStart = "\x1b[200~"
	pasteEnd   = "\x1b[201~"
)

// decoder turns raw tty bytes into input events. It keeps an incomplete
// escape sequence, UTF-8 rune or paste until more bytes arrive; a lone ESC
// stays pending until flush, which the loop calls after a short silence.
type decoder struct {
	buf     []byte
	pasting bool
	paste   []byte
}

// pending reports whether bytes wait for more input or a flush.
func (d *decoder) pending() bool { return len(d.buf) > 0 && !d.pasting }

// feed decodes p together with whatever was pending.
func (d *decoder) feed(p []byte) []inputEvent {
	d.buf = append(d.buf, p...)
	var out []inputEvent
	for len(d.buf) > 0 {
		ev, n := d.next()
		if n == 0 {
			break
		}
		d.buf = d.buf[n:]
		if ev.kind != 0 {
			out = appendEvent(out, ev)
		}
	}
	return out
}

// flush resolves a pending ESC as the Escape key after the silence that
// tells a keypress from the start of a sequence.
func (d *decoder) flush() []inputEvent {
	if !d.pending() {
		return nil
	}
	if d.buf[0] != 0x1b {
		d.buf = nil // an incomplete UTF-8 rune that never completed
		return nil
	}
	rest := d.buf[1:]
	d.buf = nil
	return append([]inputEvent{{kind: evKey, key: keyEscape}}, d.feed(rest)...)
}

// appendEvent merges consecutive text so that one typed word is one event.
func appendEvent(out []inputEvent, ev inputEvent) []inputEvent {
	if n := len(out); n > 0 && ev.kind == evText && out[n-1].kind == evText {
		out[n-1].text += ev.text
		return out
	}
	return append(out, ev)
}

// next decodes one event from the front of d.buf and reports how many bytes
// it used; 0 means the front is incomplete.
func (d *decoder) next() (inputEvent, int) {
	if d.pasting {
		return d.nextPaste()
	}
	b := d.buf[0]
	switch {
	case b == 0x1b:
		return d.nextEscape()
	case b == '\r':
		return inputEvent{kind: evKey, key: keyEnter}, 1
	case b == '\n':
		return inputEvent{kind: evKey, key: keyNewline}, 1
	case b == 0x7f || b == 0x08:
		return inputEvent{kind: evKey, key: keyBackspace}, 1
	case b == '\t':
		return inputEvent{kind: evKey, key: keyTab}, 1
	case b < 0x20:
		return inputEvent{kind: evKey, key: "ctrl+" + string(rune('a'+b-1))}, 1
	}
	if !utf8.FullRune(d.buf) {
		return inputEvent{}, 0
	}
	r, n := utf8.DecodeRune(d.buf)
	if r == utf8.RuneError {
		return inputEvent{}, n // drop a byte that is not UTF-8
	}
	return inputEvent{kind: evText, text: string(r)}, n
}

// nextEscape decodes ESC-prefixed input: CSI and SS3 keys, paste start, or
// a plain Escape when another byte follows that starts no sequence.
func (d *decoder) nextEscape() (inputEvent, int) {
	if len(d.buf) < 2 {
		return inputEvent{}, 0
	}
	switch d.buf[1] {
	case '[':
		return d.nextCSI()
	case 'O':
		if len(d.buf) < 3 {
			return inputEvent{}, 0
		}
		return keyEvent(arrowKey(d.buf[2])), 3
	}
	// tmux sends Escape alone; whatever follows in the same read is a
	// separate keypress, not an Alt chord.
	return inputEvent{kind: evKey, key: keyEscape}, 1
}

// nextCSI decodes ESC [ params final.
func (d *decoder) nextCSI() (inputEvent, int) {
	for i := 2; i < len(d.buf); i++ {
		c := d.buf[i]
		if c < 0x40 || c > 0x7e {
			continue
		}
		seq := string(d.buf[:i+1])
		switch {
		case seq == pasteStart:
			d.pasting = true
			d.paste = d.paste[:0]
			return inputEvent{}, i + 1
		case seq == "\x1b[Z":
			return inputEvent{kind: evKey, key: keyShiftTab}, i + 1
		case i == 2 && arrowKey(c) != "":
			return keyEvent(arrowKey(c)), i + 1
		}
		// Focus reports (CSI I / CSI O) and keys codeman never sends.
		return inputEvent{}, i + 1
	}
	return inputEvent{}, 0
}

// keyEvent is the event for a named key; an empty name is no event.
func keyEvent(name string) inputEvent {
	if name == "" {
		return inputEvent{}
	}
	return inputEvent{kind: evKey, key: name}
}

func arrowKey(c byte) string {
	switch c {
	case 'A':
		return keyUp
	case 'B':
		return keyDown
	case 'C':
		return keyRight
	case 'D':
		return keyLeft
	}
	return ""
}

// nextPaste collects bytes up to the paste end marker.
func (d *decoder) nextPaste() (inputEvent, int) {
	if i := bytes.Index(d.buf, []byte(pasteEnd)); i >= 0 {
		d.paste = append(d.paste, d.buf[:i]...)
		d.pasting = false
		return inputEvent{kind: evPaste, text: normalizeNewlines(string(d.paste))}, i + len(pasteEnd)
	}
	// Keep a tail that might be the start of the end marker.
	keep := len(pasteEnd) - 1
	if len(d.buf) <= keep {
		return inputEvent{}, 0
	}
	n := len(d.buf) - keep
	d.paste = append(d.paste, d.buf[:n]...)
	return inputEvent{}, n
}

// normalizeNewlines turns the CR that terminals and tmux paste-buffer send
// for line ends into LF.
func normalizeNewlines(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}
