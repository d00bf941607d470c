package screen

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/respawn"
)

var _ respawn.Terminal = (*WindowTerminal)(nil)

// TerminalOptions tunes a WindowTerminal. Zero values mean the defaults.
type TerminalOptions struct {
	// Timing is how Submit types and verifies, given once: the terminal
	// keeps its own copy. The zero SendTiming means
	// respawn.DefaultSendTiming.
	Timing         respawn.SendTiming
	CaptureTimeout time.Duration // wait for each hardcopy; default 2s
	TempDir        string        // where private files for hardcopies and pastes go; default os.TempDir()
	Runner         Runner        // default ExecRunner
	Clock          clockwork.Clock
}

func (o TerminalOptions) withDefaults() TerminalOptions {
	if o.Timing == (respawn.SendTiming{}) {
		o.Timing = respawn.DefaultSendTiming()
	}
	if o.CaptureTimeout <= 0 {
		o.CaptureTimeout = DefaultCaptureTimeout
	}
	if o.TempDir == "" {
		o.TempDir = os.TempDir()
	}
	if o.Runner == nil {
		o.Runner = ExecRunner{}
	}
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	return o
}

// WindowTerminal is one screen window as a respawn.Terminal. Every
// command names the window with -p: without it, -X acts on whatever
// window a person attached to the session is looking at. Its methods run
// one at a time.
type WindowTerminal struct {
	w    Window
	opts TerminalOptions

	mu     sync.Mutex
	decode rowDecoder // set on first use, from `screen -v`
	width  int        // the window's size as last seen; 0 before the first snapshot
	height int
}

// NewWindowTerminal returns the terminal for w.
func NewWindowTerminal(w Window, opts TerminalOptions) *WindowTerminal {
	return &WindowTerminal{w: w, opts: opts.withDefaults()}
}

// Window returns the window the terminal types into.
func (t *WindowTerminal) Window() Window { return t.w }

// Address returns the window's canonical address.
func (t *WindowTerminal) Address() string { return t.w.Address() }

// Submit pastes text, pauses, presses Enter as its own command and checks
// that the screen changed (respawn.Submit). Text with a newline is pasted
// as one bracketed paste (see pasteData).
func (t *WindowTerminal) Submit(ctx context.Context, text string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	op, err := t.begin()
	if err != nil {
		return fmt.Errorf("submit to %s: %w", t.w.Address(), err)
	}
	// The paste file is removed with op, after a hardcopy: the session
	// handles commands in order, so by then it has read the file. A
	// directory that cannot be removed is left in TempDir; the send's own
	// result is what the caller needs.
	defer op.close()
	if err := respawn.Submit(ctx, windowKeys{t, op}, text, t.opts.Timing, t.opts.Clock); err != nil {
		return fmt.Errorf("submit to %s: %w", t.w.Address(), err)
	}
	return nil
}

// windowKeys gives respawn.Submit the window's primitives for one call.
type windowKeys struct {
	t  *WindowTerminal
	op *capturer
}

var _ respawn.ScreenKeys = windowKeys{}

// Screen is a snapshot within Submit, which holds t.mu.
func (k windowKeys) Screen(ctx context.Context) (respawn.Screen, error) { return k.t.snapshot(ctx) }

func (k windowKeys) Type(ctx context.Context, text string) error { return k.t.paste(ctx, k.op, text) }

func (k windowKeys) Press(ctx context.Context, key respawn.Key) error { return k.t.sendKey(ctx, key) }

func (k windowKeys) Look(ctx context.Context) ([]byte, error) {
	if err := k.t.learnSize(ctx); err != nil {
		return nil, err
	}
	return k.op.capture(ctx, k.t.height)
}

// begin makes the private directory for one call's files.
func (t *WindowTerminal) begin() (*capturer, error) {
	return newCapturer(t.w, t.opts.Runner, t.opts.Clock, t.opts.CaptureTimeout, t.opts.TempDir)
}

// sessionLocks serialises readbuf+paste per session: the paste buffer
// belongs to the session, not to a window, so two windows of one session
// pasting at once could swap their texts.
var sessionLocks sync.Map // session name -> *sync.Mutex

// paste puts text into the window's input without submitting it:
// `readbuf FILE` loads the session's paste buffer from a private file and
// `paste .` types it. Text never goes through `stuff`, which rewrites
// "$VAR", "^X" and "\ooo" (screen manual, "stuff").
func (t *WindowTerminal) paste(ctx context.Context, op *capturer, text string) error {
	if text == "" {
		return nil
	}
	path := filepath.Join(op.dir, "paste")
	if err := os.WriteFile(path, pasteData(text), 0o600); err != nil {
		return fmt.Errorf("write paste file: %w", err)
	}
	mu, _ := sessionLocks.LoadOrStore(t.w.Session, new(sync.Mutex))
	mu.(*sync.Mutex).Lock()
	defer mu.(*sync.Mutex).Unlock()
	// Two commands, each with -p: `eval "readbuf F" "paste ."` would run
	// in the window an attached person looks at, whatever -p says.
	if err := send(ctx, t.opts.Runner, t.w, "readbuf", path); err != nil {
		return fmt.Errorf("load paste buffer: %w", err)
	}
	if err := send(ctx, t.opts.Runner, t.w, "paste", "."); err != nil {
		return fmt.Errorf("paste text: %w", err)
	}
	return nil
}

// Bracketed paste markers (xterm): Claude Code enables bracketed paste
// and reads everything between them as one paste.
const (
	pasteStart = "\x1b[200~"
	pasteEnd   = "\x1b[201~"
)

// pasteData returns the bytes to paste for text. screen's paste types the
// buffer as keys, and a newline typed is Enter to Claude Code, which
// would submit line by line; screen (4.x) neither tracks nor adds
// bracketed paste. So text with a newline is wrapped in the markers here,
// which Claude Code, having asked for bracketed paste, reads as one paste
// with its newlines kept. Inside, each newline is written as a CR, as a
// terminal pastes it: readbuf would turn only the first of two LFs in a
// row into a CR (it looks at the byte before, already turned), and the
// "\r\n" left would read as one newline, dropping a blank line. Markers
// in the text itself are dropped so that it cannot end the paste early.
// Single-line text is pasted bare, as if typed.
func pasteData(text string) []byte {
	b := []byte(text)
	b = bytes.ReplaceAll(b, []byte(pasteStart), nil)
	b = bytes.ReplaceAll(b, []byte(pasteEnd), nil)
	b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\r"))
	b = bytes.ReplaceAll(b, []byte("\n"), []byte("\r"))
	if !bytes.Contains(b, []byte("\r")) {
		return b
	}
	out := make([]byte, 0, len(pasteStart)+len(b)+len(pasteEnd))
	out = append(out, pasteStart...)
	out = append(out, b...)
	return append(out, pasteEnd...)
}

// pressKeys maps the keys Press accepts to what `stuff` types, in
// screen's octal notation, which stuff turns into bytes. Escape alone is
// left out on purpose (twice opens Claude's Rewind), and so is Ctrl+L.
var pressKeys = map[respawn.Key]string{
	respawn.KeyEnter:     `\015`, // CR, as a terminal sends for Enter; a LF would be Ctrl+J
	respawn.KeyBackspace: `\177`, // DEL, as a terminal sends for Backspace
	respawn.KeyVimInsert: "i",
	"Up":                 `\033[A`,
	"Down":               `\033[B`,
	"Tab":                `\011`,
	"BTab":               `\033[Z`,
}

// Press sends one key. Digits are sent as they are.
func (t *WindowTerminal) Press(ctx context.Context, key respawn.Key) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.sendKey(ctx, key); err != nil {
		return fmt.Errorf("press %s in %s: %w", key, t.w.Address(), err)
	}
	return nil
}

// sendKey types one key with `stuff`, as a command of its own: Claude's
// Ink input reads an Enter that arrives with the text as a newline in
// the prompt.
func (t *WindowTerminal) sendKey(ctx context.Context, key respawn.Key) error {
	seq, ok := pressKeys[key]
	if len(key) == 1 && key[0] >= '0' && key[0] <= '9' {
		seq, ok = string(key), true
	}
	if !ok {
		return fmt.Errorf("%q is not a key codeman sends", key)
	}
	if err := send(ctx, t.opts.Runner, t.w, "stuff", seq); err != nil {
		return fmt.Errorf("send %s: %w", key, err)
	}
	return nil
}
