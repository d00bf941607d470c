package respawn

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Answer is a person's choice for the dialog a pane's need shows, from
// the dashboard, a shell or a phone.
type Answer struct {
	// Need is the need's ID the person saw; "" takes the need open now
	// (a person at the keyboard of the dashboard or a shell).
	Need string
	// Choice names an option: its number, its label, or in a permission
	// prompt "allow" or "deny" (Ask.Choose).
	Choice string
	// From says where the answer came from, for the decision log: "cli",
	// "dash", "ntfy".
	From string
}

// Answered is the option an answer selected.
type Answered struct {
	Need   string `json:"need"`
	Option int    `json:"option"` // its number as drawn, from 1
	Label  string `json:"label"`
}

// ErrAnswerRefused is an answer that was not typed; the error says why.
var ErrAnswerRefused = errors.New("answer refused")

// answerSettle bounds the wait for the selector to move, and then for
// the dialog to close, after a key; answerPoll is the look between.
// answerKeyGap is the least time between two keys of an answer: Claude
// Code takes an Enter that comes a few milliseconds after an arrow for
// part of a paste, and Codex one within 120 ms of other keys; a person's
// keys are a fifth of a second apart.
const (
	answerSettle = 3 * time.Second
	answerPoll   = 100 * time.Millisecond
	answerKeyGap = 250 * time.Millisecond
	// answerMinAge is how long a dialog must have shown before its first
	// key: the Codex CLI was seen to ignore an Enter that came within a
	// second of its approval prompt, and no person answers sooner.
	answerMinAge = time.Second
)

// Answer types a person's choice into the dialog of the pane's need,
// as a person would, and only into that dialog. It reads the screen again
// first and goes on only when the need is still open, is a dialog with
// that ID, the screen shows that same dialog, nothing of codeman's is
// being typed, the pane is not paused, and the choice is one of its
// options (and no text box). It moves the selector to the option with the
// arrow keys, presses Enter once the screen shows the selector there, and
// checks that the dialog closed. Anything else is refused with the
// reason, nothing typed after it; arrows that moved the selector before a
// refusal select nothing. Answers to one pane run one at a time. Every
// answer and refusal is a decision, with where it came from.
func (c *Controller) Answer(ctx context.Context, a Answer) (Answered, error) {
	c.answerMu.Lock()
	defer c.answerMu.Unlock()
	c.lastAnswerKey = time.Time{}
	got, err := c.answer(ctx, a)
	from := a.From
	if from == "" {
		from = "an unnamed client"
	}
	_ = c.do(func(now time.Time) {
		if err != nil {
			c.core.decide(now, DecisionSkip, fmt.Sprintf("answer from %s not typed: %v", from, err))
			return
		}
		c.core.decide(now, DecisionSend, fmt.Sprintf("answer from %s typed: option %d %q of need %s", from, got.Option, got.Label, got.Need))
	})
	return got, err
}

func (c *Controller) answer(ctx context.Context, a Answer) (Answered, error) {
	if err := c.awaitFirstScreen(ctx); err != nil {
		return Answered{}, err
	}
	var need Need
	var refuse error
	if err := c.do(func(time.Time) {
		need = c.core.need.cur
		switch {
		case c.core.paused:
			refuse = errors.New("the pane is paused")
		case need.Kind == "":
			refuse = errors.New("the pane needs no answer now")
		case a.Need != "" && a.Need != need.ID:
			refuse = fmt.Errorf("need %s is answered or gone", a.Need)
			if need.ID != "" {
				refuse = fmt.Errorf("need %s is answered or gone; the pane now shows need %s", a.Need, need.ID)
			}
		case need.Ask == nil:
			refuse = fmt.Errorf("the pane's need (%s) is no dialog codeman can read the options of", need.Kind)
		case len(c.sends) > 0:
			refuse = errors.New("codeman is typing into the pane")
		}
	}); err != nil {
		return Answered{}, err
	}
	if refuse != nil {
		return Answered{}, fmt.Errorf("%w: %v", ErrAnswerRefused, refuse)
	}
	ask := *need.Ask
	i, err := ask.Choose(a.Choice)
	if err != nil {
		return Answered{}, fmt.Errorf("%w: %v", ErrAnswerRefused, err)
	}
	if ask.TakesText(i) {
		return Answered{}, fmt.Errorf("%w: option %d (%s) asks for text, which codeman does not type", ErrAnswerRefused, i+1, ask.Options[i])
	}
	got := Answered{Need: need.ID, Option: i + 1, Label: ask.Options[i]}
	if wait := answerMinAge - c.clock.Since(need.Shown); !need.Shown.IsZero() && wait > 0 {
		if err := c.sleep(ctx, wait); err != nil {
			return got, err
		}
	}
	on, err := c.askOnScreen(ctx, need.ID)
	if err != nil {
		return got, err
	}
	for on.Selected != i {
		key := Key("Down")
		if on.Selected > i {
			key = "Up"
		}
		from := on.Selected
		if err := c.pressAfterGap(ctx, key); err != nil {
			return got, err
		}
		if on, err = c.awaitAsk(ctx, need.ID, func(s Ask) bool { return s.Selected != from }); err != nil {
			return got, err
		}
	}
	if err := c.pressAfterGap(ctx, KeyEnter); err != nil {
		return got, err
	}
	if err := c.awaitClosed(ctx, need.ID); err != nil {
		return got, err
	}
	return got, nil
}

// Note records a decision made outside the controller about its pane,
// such as an answer refused before it reached the pane.
func (c *Controller) Note(kind DecisionKind, reason string) error {
	return c.do(func(now time.Time) { c.core.decide(now, kind, reason) })
}

// awaitFirstScreen waits, for at most answerSettle, until a controller
// that just started (a daemon started again) has read its pane's screen
// once, so that an answer pressed meanwhile meets the need on it.
func (c *Controller) awaitFirstScreen(ctx context.Context) error {
	_, err := c.poll(ctx, func() (bool, error) {
		var read bool
		err := c.do(func(time.Time) { read = !c.core.screen.At.IsZero() })
		return read, err
	})
	return err
}

// poll calls done every answerPoll until it reports true or an error, for
// at most answerSettle; timedOut says it never did.
func (c *Controller) poll(ctx context.Context, done func() (bool, error)) (timedOut bool, err error) {
	deadline := c.clock.Now().Add(answerSettle)
	for {
		if ok, err := done(); ok || err != nil {
			return false, err
		}
		if c.clock.Now().After(deadline) {
			return true, nil
		}
		if err := c.sleep(ctx, answerPoll); err != nil {
			return false, err
		}
	}
}

// pressAfterGap presses key once answerKeyGap has passed since the
// last key of the answer (the first has none before it).
func (c *Controller) pressAfterGap(ctx context.Context, key Key) error {
	if !c.lastAnswerKey.IsZero() {
		if wait := answerKeyGap - c.clock.Since(c.lastAnswerKey); wait > 0 {
			if err := c.sleep(ctx, wait); err != nil {
				return err
			}
		}
	}
	err := c.press(ctx, key)
	c.lastAnswerKey = c.clock.Now()
	return err
}

// press sends one key, bounded by IOTimeout.
func (c *Controller) press(ctx context.Context, key Key) error {
	ctx, cancel := context.WithTimeout(ctx, c.opts.IOTimeout)
	defer cancel()
	return c.opts.Terminal.Press(ctx, key)
}

// readAsk reads the screen and the dialog on it.
func (c *Controller) readAsk(ctx context.Context) (Ask, error) {
	ctx, cancel := context.WithTimeout(ctx, c.opts.IOTimeout)
	defer cancel()
	s, err := c.opts.Terminal.Snapshot(ctx)
	if err != nil {
		return Ask{}, fmt.Errorf("read the screen: %w", err)
	}
	return c.opts.Agent.Classify(s).Ask, nil
}

// askOnScreen reads the screen and returns its dialog, refusing unless it
// is the dialog id names.
func (c *Controller) askOnScreen(ctx context.Context, id string) (Ask, error) {
	on, err := c.readAsk(ctx)
	if err != nil {
		return on, err
	}
	if fp := on.Fingerprint(); fp != id {
		if fp == "" {
			return on, fmt.Errorf("%w: the dialog is no longer on screen", ErrAnswerRefused)
		}
		return on, fmt.Errorf("%w: another dialog is on screen now (%s)", ErrAnswerRefused, fp)
	}
	return on, nil
}

// awaitAsk reads the screen until its dialog, still the one id names,
// satisfies ok, for at most answerSettle.
func (c *Controller) awaitAsk(ctx context.Context, id string, ok func(Ask) bool) (Ask, error) {
	var on Ask
	timedOut, err := c.poll(ctx, func() (bool, error) {
		var err error
		on, err = c.askOnScreen(ctx, id)
		return err == nil && ok(on), err
	})
	if timedOut {
		return on, fmt.Errorf("%w: the selector did not move within %s", ErrAnswerRefused, answerSettle)
	}
	return on, err
}

// awaitClosed reads the screen until the dialog id names is gone, for at
// most answerSettle.
func (c *Controller) awaitClosed(ctx context.Context, id string) error {
	timedOut, err := c.poll(ctx, func() (bool, error) {
		on, err := c.readAsk(ctx)
		return err == nil && on.Fingerprint() != id, err
	})
	if timedOut {
		return fmt.Errorf("pressed Enter, but the dialog still shows after %s", answerSettle)
	}
	return err
}

// sleep waits d on the controller's clock.
func (c *Controller) sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-c.clock.After(d):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-c.done:
		return ErrStopped
	}
}
