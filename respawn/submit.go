package respawn

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jonboulle/clockwork"
)

// Keys is a pane's input as a backend offers it: the primitives that
// Submit, the one policy for typing into a pane, is made of. tmux and
// screen each implement it; neither carries a send loop of its own.
type Keys interface {
	// Type puts text into the pane's input without submitting it. Text
	// with a newline arrives as one bracketed paste.
	Type(ctx context.Context, text string) error
	// Press sends one key as an input event of its own.
	Press(ctx context.Context, key Key) error
	// Look returns the pane's screen as bytes, only to tell whether it
	// changed.
	Look(ctx context.Context) ([]byte, error)
}

// ScreenKeys is Keys that also captures the rendered screen, from which
// Submit reads the prompt box (SendTiming.Prompt).
type ScreenKeys interface {
	Keys
	Screen(ctx context.Context) (Screen, error)
}

// SendTiming is the timing of Submit, and how it reads the prompt box.
// Every timing field means what it says: a zero pause is no pause, zero
// retries are none.
type SendTiming struct {
	// Pause is the wait between the text and its Enter: Claude Code's
	// input reads an Enter that comes with the text as a newline.
	Pause time.Duration
	// EnterRetries is how often Enter is pressed again when the screen
	// did not change after it.
	EnterRetries int
	// VerifyTimeout is how long the screen may take to change after one
	// Enter, and the box to show what was typed.
	VerifyTimeout time.Duration
	// VerifyInterval is how often the screen is looked at meanwhile.
	VerifyInterval time.Duration
	// Prompt reads the pane's prompt box with the pane's agent; the daemon
	// sets it. With it, Submit types only into an empty box in which
	// letters are text (pressing vim's i first in NORMAL mode), presses
	// Enter only once the box shows what was typed, and takes its text
	// back out when cancelled before Enter; the Keys must be ScreenKeys.
	// Without it (nil), Submit never looks at the box.
	Prompt *PromptReader
}

// Send defaults.
const (
	DefaultSendPause      = 100 * time.Millisecond
	DefaultEnterRetries   = 3
	DefaultVerifyTimeout  = time.Second
	DefaultVerifyInterval = 200 * time.Millisecond
)

// takeBackTimeout bounds taking typed text back out of the box. The
// caller's context is done by then, so this is a context of its own.
const takeBackTimeout = 3 * time.Second

// DefaultSendTiming returns the default timing: 100ms pause, 3 retries,
// each Enter given 1s, the screen looked at every 200ms.
func DefaultSendTiming() SendTiming {
	return SendTiming{Pause: DefaultSendPause, EnterRetries: DefaultEnterRetries, VerifyTimeout: DefaultVerifyTimeout, VerifyInterval: DefaultVerifyInterval}
}

// Submit types text, pauses, presses Enter as its own event and checks
// that the screen changed, pressing Enter again up to EnterRetries times:
// an Enter that lands while Claude Code redraws can be lost. With
// t.Prompt it first makes sure the box takes letters as text, and before
// Enter that the box shows exactly the text typed (a person's Enter would
// otherwise submit whatever vim or a stray key made of it). Cancelled
// after the text was typed and before Enter, it deletes that text again,
// so that a person's next Enter does not submit it; cancelled after an
// Enter, it presses nothing more.
func Submit(ctx context.Context, k Keys, text string, t SendTiming, clock clockwork.Clock) error {
	var box *promptBox
	if t.Prompt != nil {
		sk, ok := k.(ScreenKeys)
		if !ok {
			return errors.New("the prompt box cannot be read from this terminal; nothing typed")
		}
		box = &promptBox{k: sk, t: t, clock: clock}
		if err := box.readyToType(ctx); err != nil {
			return err
		}
	}
	if err := k.Type(ctx, text); err != nil {
		if ctx.Err() != nil {
			// Part of the text, or all of it, may be in the box.
			return box.takeBack(ctx, text, err)
		}
		return err
	}
	if err := Sleep(ctx, clock, t.Pause); err != nil {
		return box.takeBack(ctx, text, err)
	}
	if box != nil {
		if err := box.waitShows(ctx, text); err != nil {
			if ctx.Err() != nil {
				return box.takeBack(ctx, text, err)
			}
			return err
		}
	}
	before, err := k.Look(ctx)
	if err != nil {
		return box.takeBack(ctx, text, err)
	}
	before = bytes.Clone(before)
	presses := 1 + t.EnterRetries
	for range presses {
		// From the first Enter on, a cancel stops here and nothing more is
		// pressed. The text may be submitted, so the send counts as done:
		// reported as not typed, it would be typed a second time.
		if err := k.Press(ctx, KeyEnter); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		changed, err := waitForChange(ctx, k, before, t, clock)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil || !changed {
			if err != nil {
				return err
			}
			continue
		}
		if box == nil {
			return nil
		}
		// The screen changed, but an Enter can be taken short of a submit:
		// OpenCode's first Enter completes a slash command from its popup
		// into the box. While the box still shows the text, press again.
		held, err := box.stillHolds(ctx, text)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil || !held {
			return err
		}
		if before, err = k.Look(ctx); err != nil {
			return err
		}
		before = bytes.Clone(before)
	}
	return fmt.Errorf("text typed, but the screen did not change after %d Enter presses %s apart", presses, t.VerifyTimeout)
}

// stillHolds reports whether the box shows exactly text for as long as an
// Enter is given to take effect: a box that empties at any look within
// it took the Enter.
func (b *promptBox) stillHolds(ctx context.Context, text string) (bool, error) {
	deadline := b.clock.Now().Add(b.t.VerifyTimeout)
	for {
		f, err := b.read(ctx)
		if err != nil {
			return false, err
		}
		if !f.PromptBox || !boxShows(f.Input, text) {
			return false, nil
		}
		if !b.clock.Now().Before(deadline) {
			return true, nil
		}
		if err := Sleep(ctx, b.clock, b.t.VerifyInterval); err != nil {
			return false, err
		}
	}
}

// promptBox is Submit's view of the prompt box, through the pane's agent.
type promptBox struct {
	k     ScreenKeys
	t     SendTiming
	clock clockwork.Clock
}

func (b *promptBox) read(ctx context.Context) (ScreenFacts, error) {
	s, err := b.k.Screen(ctx)
	if err != nil {
		return ScreenFacts{}, fmt.Errorf("read the prompt box: %w", err)
	}
	return b.t.Prompt.Read(s), nil
}

// readyToType checks that the box is empty and takes letters as text,
// pressing vim's i when it is in NORMAL mode.
func (b *promptBox) readyToType(ctx context.Context) error {
	f, err := b.read(ctx)
	switch {
	case err != nil:
		return err
	case !f.PromptBox:
		return errors.New("no prompt box on screen; nothing typed")
	case f.Input != "":
		return fmt.Errorf("the prompt box already holds %q; nothing typed", clipText(f.Input, 60))
	case f.EditorMode == EditorVisual:
		return errors.New("the prompt box is in vim VISUAL mode, where typed letters are commands; nothing typed")
	case f.EditorMode == EditorNormal:
		return b.enterInsert(ctx)
	}
	return nil
}

// enterInsert presses i in vim's NORMAL mode, as a person would, and waits
// for the box to show "-- INSERT --". An i that shows in the box instead
// means vim was turned off: it is taken back and forgotten.
func (b *promptBox) enterInsert(ctx context.Context) error {
	if err := b.k.Press(ctx, KeyVimInsert); err != nil {
		return err
	}
	deadline := b.clock.Now().Add(b.t.VerifyTimeout)
	for {
		if err := Sleep(ctx, b.clock, b.t.VerifyInterval); err != nil {
			return b.takeBack(ctx, string(KeyVimInsert), err)
		}
		f, err := b.read(ctx)
		switch {
		case err != nil:
			return b.takeBack(ctx, string(KeyVimInsert), err)
		case f.PromptBox && f.Input == string(KeyVimInsert):
			b.t.Prompt.vimOff()
			return b.takeBack(ctx, string(KeyVimInsert), errors.New("the prompt box seemed in vim NORMAL mode, but i went into it as text: vim mode is off; nothing else typed"))
		case f.PromptBox && f.Input == "" && f.EditorMode == EditorInsert:
			return nil
		}
		if !b.clock.Now().Before(deadline) {
			return fmt.Errorf("pressed i to leave vim NORMAL mode, but after %s the prompt box shows %s; nothing typed", b.t.VerifyTimeout, describeBox(f))
		}
	}
}

// waitShows waits up to VerifyTimeout for the box to show text and
// nothing else.
func (b *promptBox) waitShows(ctx context.Context, text string) error {
	deadline := b.clock.Now().Add(b.t.VerifyTimeout)
	for {
		f, err := b.read(ctx)
		if err != nil {
			return err
		}
		if f.PromptBox && boxShows(f.Input, text) {
			return nil
		}
		if !b.clock.Now().Before(deadline) {
			return fmt.Errorf("text typed, but the prompt box shows %s, not %q; Enter not pressed", describeBox(f), clipText(text, 60))
		}
		if err := Sleep(ctx, b.clock, b.t.VerifyInterval); err != nil {
			return err
		}
	}
}

// takeBack deletes text that Submit typed and did not submit, with
// Backspace over exactly that text, and only when the box shows exactly
// it: anything else in the box may be a person's. The caller's context is
// done, so it runs on one of its own. It returns cause, saying what became
// of the text. A nil box (no Prompt) cannot look, and deletes nothing.
func (b *promptBox) takeBack(ctx context.Context, text string, cause error) error {
	if b == nil {
		return cause
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), takeBackTimeout)
	defer cancel()
	f, err := b.read(ctx)
	if err != nil {
		return fmt.Errorf("%w; the text typed may be left in the prompt box: %v", cause, err)
	}
	if !f.PromptBox || f.Input == "" {
		return cause // nothing of it arrived
	}
	if !boxShows(f.Input, text) {
		return fmt.Errorf("%w; the prompt box shows %s, not only the text typed, and was left alone", cause, describeBox(f))
	}
	n := len([]rune(text))
	if isPlaceholder(f.Input) {
		n = 1 // one Backspace deletes a paste's placeholder
	}
	for range n {
		if err := b.k.Press(ctx, KeyBackspace); err != nil {
			return fmt.Errorf("%w; taking the text typed back out of the prompt box failed: %v", cause, err)
		}
	}
	deadline := b.clock.Now().Add(b.t.VerifyTimeout)
	for {
		if f, err = b.read(ctx); err == nil && f.PromptBox && f.Input == "" {
			return fmt.Errorf("%w; the text typed was taken back out of the prompt box", cause)
		}
		if err != nil || !b.clock.Now().Before(deadline) || Sleep(ctx, b.clock, b.t.VerifyInterval) != nil {
			return fmt.Errorf("%w; after %d Backspace presses the prompt box shows %s", cause, n, describeBox(f))
		}
	}
}

// describeBox says what the box shows, for an error.
func describeBox(f ScreenFacts) string {
	var s string
	switch {
	case !f.PromptBox:
		return "no prompt box"
	case f.Input == "":
		s = "nothing"
	default:
		s = strconv.Quote(clipText(f.Input, 60))
	}
	if f.EditorMode != EditorPlain {
		s += " (vim " + strings.ToUpper(string(f.EditorMode)) + " mode)"
	}
	return s
}

// waitForChange looks at the screen until it differs from before or
// VerifyTimeout has passed.
func waitForChange(ctx context.Context, k Keys, before []byte, t SendTiming, clock clockwork.Clock) (bool, error) {
	deadline := clock.Now().Add(t.VerifyTimeout)
	for {
		if err := Sleep(ctx, clock, t.VerifyInterval); err != nil {
			return false, err
		}
		now, err := k.Look(ctx)
		if err != nil {
			return false, err
		}
		if !bytes.Equal(now, before) {
			return true, nil
		}
		if !clock.Now().Before(deadline) {
			return false, nil
		}
	}
}

// Sleep waits d on clock, or until ctx is done.
func Sleep(ctx context.Context, clock clockwork.Clock, d time.Duration) error {
	timer := clock.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.Chan():
		return nil
	}
}
