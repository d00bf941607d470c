package tmux

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/respawn"
)

var _ respawn.Terminal = (*PaneTerminal)(nil)

// Runner runs one tmux command, given as its words, and returns what it
// printed. Server runs a tmux process per command; Client sends the
// command over its control connection.
type Runner interface {
	Run(ctx context.Context, args ...string) (string, error)
}

// maxSendKeysBytes is the longest single-line text typed with send-keys;
// longer text is pasted. tmux refuses a command line over its message
// size (16 KiB, "command too long") and load-buffer reads from stdin.
const maxSendKeysBytes = 4096

// TerminalOptions tunes a PaneTerminal.
type TerminalOptions struct {
	// Timing is how Submit types and verifies, given once: the terminal
	// keeps its own copy. The zero SendTiming means
	// respawn.DefaultSendTiming.
	Timing respawn.SendTiming
	Runner Runner // runs commands; default the Server itself
	Clock  clockwork.Clock
}

func (o TerminalOptions) withDefaults(srv Server) TerminalOptions {
	if o.Timing == (respawn.SendTiming{}) {
		o.Timing = respawn.DefaultSendTiming()
	}
	if o.Runner == nil {
		o.Runner = srv
	}
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	return o
}

// PaneTerminal is one tmux pane as a respawn.Terminal. It targets the pane
// only by its id, which stays valid when windows are renamed or moved.
type PaneTerminal struct {
	srv  Server
	pane string
	opts TerminalOptions
}

// NewPaneTerminal returns the terminal for paneID ("%3") on srv.
func NewPaneTerminal(srv Server, paneID string, opts TerminalOptions) *PaneTerminal {
	return &PaneTerminal{srv: srv, pane: paneID, opts: opts.withDefaults(srv)}
}

// Address returns the pane's canonical address.
func (t *PaneTerminal) Address() string { return "tmux:" + t.srv.Socket + ":" + t.pane }

// Submit types text literally, pauses, presses Enter as its own command
// and checks that the screen changed (respawn.Submit). Text with a newline
// is pasted as one bracketed paste, so that its lines are not submitted
// one by one.
func (t *PaneTerminal) Submit(ctx context.Context, text string) error {
	if err := t.checkPane(); err != nil {
		return err
	}
	if err := respawn.Submit(ctx, paneKeys{t}, text, t.opts.Timing, t.opts.Clock); err != nil {
		return fmt.Errorf("submit to pane %s: %w", t.pane, err)
	}
	return nil
}

// paneKeys gives respawn.Submit the pane's primitives.
type paneKeys struct{ t *PaneTerminal }

var _ respawn.ScreenKeys = paneKeys{}

func (k paneKeys) Type(ctx context.Context, text string) error { return k.t.typeText(ctx, text) }

func (k paneKeys) Press(ctx context.Context, key respawn.Key) error { return k.t.press(ctx, key) }

func (k paneKeys) Look(ctx context.Context) ([]byte, error) {
	s, err := k.t.captureText(ctx)
	return []byte(s), err
}

func (k paneKeys) Screen(ctx context.Context) (respawn.Screen, error) { return k.t.Snapshot(ctx) }

// typeText puts text into the pane's input without submitting it.
func (t *PaneTerminal) typeText(ctx context.Context, text string) error {
	switch {
	case text == "":
		return nil
	case strings.ContainsAny(text, "\r\n") || len(text) > maxSendKeysBytes:
		return t.paste(ctx, text)
	}
	// -l sends the text as literal UTF-8 keys (no key names, no formats);
	// "--" ends the flags, so text starting with '-' is text.
	_, err := t.opts.Runner.Run(ctx, "send-keys", "-t", t.pane, "-l", "--", text)
	if err != nil {
		return fmt.Errorf("type text: %w", err)
	}
	return nil
}

// pasteSeq makes buffer names unique within the process: two panes pasting
// at once must not swap their buffers.
var pasteSeq atomic.Uint64

// paste loads text into a private buffer from stdin and pastes it with -p
// (bracketed paste, when the program asked for it) and -d (delete the
// buffer afterwards). Both run in one tmux process, always through srv:
// a command sent over a control connection has no stdin to load from.
func (t *PaneTerminal) paste(ctx context.Context, text string) error {
	name := fmt.Sprintf("codeman-%d-%d", os.Getpid(), pasteSeq.Add(1))
	paste := []string{"paste-buffer", "-p", "-d", "-b", name, "-t", t.pane}
	raw, err := t.pastesEscaped(ctx)
	if err != nil {
		return fmt.Errorf("paste text: %w", err)
	}
	if raw {
		paste = append(paste, "-S")
	}
	_, err = t.srv.exec(ctx, strings.NewReader(text), append([]string{"load-buffer", "-b", name, "-", ";"}, paste...)...)
	if err != nil {
		// The paste failed after the load: drop the buffer. Its own error
		// adds nothing to the one returned.
		_, _ = t.srv.Run(context.WithoutCancel(ctx), "delete-buffer", "-b", name)
		return fmt.Errorf("paste text: %w", err)
	}
	return nil
}

// firstEscapedPaste is the first tmux whose paste-buffer passes the
// buffer through vis(3) (ESC arrives as ^[) unless -S is given.
var firstEscapedPaste = Version{Major: 3, Minor: 7}

// pastesEscaped reports whether the pane's server needs paste-buffer -S.
func (t *PaneTerminal) pastesEscaped(ctx context.Context) (bool, error) {
	v, err := runnerVersion(ctx, t.opts.Runner)
	if err != nil {
		return false, err
	}
	return !v.Less(firstEscapedPaste), nil
}

// pressKeys maps the keys Press accepts to tmux key names. Escape is left
// out on purpose (twice opens Claude's Rewind), and so is C-l.
var pressKeys = map[respawn.Key]string{
	respawn.KeyEnter:     "Enter",
	respawn.KeyBackspace: "BSpace", // DEL, as a terminal sends for Backspace
	"Up":                 "Up",
	"Down":               "Down",
	"Tab":                "Tab",
	"BTab":               "BTab",
}

// Press sends one key. Digits and vim's i are sent literally.
func (t *PaneTerminal) Press(ctx context.Context, key respawn.Key) error {
	if err := t.checkPane(); err != nil {
		return err
	}
	if err := t.press(ctx, key); err != nil {
		return fmt.Errorf("press %s in pane %s: %w", key, t.pane, err)
	}
	return nil
}

func (t *PaneTerminal) press(ctx context.Context, key respawn.Key) error {
	if literalKey(key) {
		if _, err := t.opts.Runner.Run(ctx, "send-keys", "-t", t.pane, "-l", "--", string(key)); err != nil {
			return fmt.Errorf("send %s: %w", key, err)
		}
		return nil
	}
	name, ok := pressKeys[key]
	if !ok {
		return fmt.Errorf("%q is not a key codeman sends", key)
	}
	return t.sendKey(ctx, name)
}

// literalKey reports a key that is a character typed as it is.
func literalKey(key respawn.Key) bool {
	return key == respawn.KeyVimInsert || len(key) == 1 && key[0] >= '0' && key[0] <= '9'
}

// sendKey sends one named key as a command of its own: Claude's Ink input
// reads an Enter that arrives with the text as a newline in the prompt.
func (t *PaneTerminal) sendKey(ctx context.Context, name string) error {
	if _, err := t.opts.Runner.Run(ctx, "send-keys", "-t", t.pane, name); err != nil {
		return fmt.Errorf("send %s: %w", name, err)
	}
	return nil
}

// checkPane rejects a target that is not a pane id: a name such as
// "work:1" follows windows as they move, an id does not.
func (t *PaneTerminal) checkPane() error {
	if !validPaneID([]byte(t.pane)) {
		return fmt.Errorf("tmux pane terminal: %q is not a pane id such as %%3", t.pane)
	}
	return nil
}
