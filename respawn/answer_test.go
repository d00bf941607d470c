package respawn

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"go.uber.org/goleak"

	"github.com/codeman-dev/codeman/internal/rig/claudescreen"
)

// dialogTerminal shows a question whose selector the arrow keys move and
// whose Enter answers it, as Claude Code's picker does; every key is
// recorded.
type dialogTerminal struct {
	*fakeTerminal
	mu       sync.Mutex
	options  []string
	sel      int
	stuck    bool // the selector ignores the arrows
	sticky   bool // Enter leaves the dialog on screen
	answered string
}

func newDialogTerminal() *dialogTerminal {
	d := &dialogTerminal{fakeTerminal: newFakeTerminal(nil), options: []string{"PostgreSQL", "SQLite", "Type something."}}
	d.redraw()
	return d
}

func (d *dialogTerminal) redraw() {
	rows := []string{claudescreen.Rule, " ☐ Database", "", "Which database should the project use?", ""}
	for i, o := range d.options {
		mark := "  "
		if i == d.sel {
			mark = "❯ "
		}
		rows = append(rows, fmt.Sprintf("%s%d. %s", mark, i+1, o))
	}
	rows = append(rows, "", "Enter to select · ↑/↓ to navigate · Esc to cancel")
	d.show(claudescreen.Of(rows...))
}

func (d *dialogTerminal) Press(ctx context.Context, key Key) error {
	d.mu.Lock()
	switch {
	case d.answered != "":
	case key == "Down" && !d.stuck && d.sel < len(d.options)-1:
		d.sel++
		d.redraw()
	case key == "Up" && !d.stuck && d.sel > 0:
		d.sel--
		d.redraw()
	case key == KeyEnter && !d.sticky:
		d.answered = d.options[d.sel]
		d.show(workingScreen())
	}
	d.mu.Unlock()
	return d.fakeTerminal.Press(ctx, key)
}

func (d *dialogTerminal) keys() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.calls...)
}

// startAsked starts a controller on term and waits until it holds on the
// question, returning the need's ID.
func startAsked(t *testing.T, clock clockwork.Clock, term Terminal) (*Controller, <-chan Decision, string) {
	t.Helper()
	c := NewController(ControllerOptions{Pane: "p", Config: testConfig(), Agent: claudeReader, Terminal: term, Clock: clock})
	decisions, cancel := c.Subscribe()
	t.Cleanup(cancel)
	c.Start(context.Background())
	t.Cleanup(c.Stop)
	c.Output([]byte(chunkText))
	waitDecision(t, decisions, "needs a person: question")
	st, err := c.Status(0)
	if err != nil || st.NeedsYou == nil || st.NeedsYou.ID == "" || st.NeedsYou.Ask == nil {
		t.Fatalf("status %+v, %v: want a need with an ID and its dialog", st.NeedsYou, err)
	}
	return c, decisions, st.NeedsYou.ID
}

// A person's choice is typed as a person would: the selector moved to it
// with the arrows, Enter once it is there; the answer is a decision that
// names where it came from.
func TestGuard_AnswerTypesTheChoice(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, tc := range []struct{ choice, want string }{{"SQLite", "SQLite"}, {"2", "SQLite"}, {"postg", "PostgreSQL"}} {
		t.Run(tc.choice, func(t *testing.T) {
			term := newDialogTerminal()
			c, decisions, id := startAsked(t, clockwork.NewRealClock(), term)
			got, err := c.Answer(context.Background(), Answer{Need: id, Choice: tc.choice, From: "test"})
			if err != nil || got.Label != tc.want || got.Need != id {
				t.Fatalf("Answer = %+v, %v; want %s", got, err, tc.want)
			}
			if term.answered != tc.want {
				t.Errorf("the dialog took %q, want %q (keys %v)", term.answered, tc.want, term.keys())
			}
			waitDecision(t, decisions, "answer from test typed: option")
		})
	}
}

// Each check of the press gate refuses on its own, with its reason, and
// nothing is pressed.
func TestGuard_AnswerRefused(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, tc := range []struct {
		name   string
		break_ func(c *Controller, term *dialogTerminal, a *Answer)
		reason string
	}{
		{"OtherNeed", func(_ *Controller, _ *dialogTerminal, a *Answer) { a.Need = "0123456789abcdef" }, "is answered or gone"},
		{"UnknownOption", func(_ *Controller, _ *dialogTerminal, a *Answer) { a.Choice = "MySQL" }, "no such option"},
		{"OutOfRange", func(_ *Controller, _ *dialogTerminal, a *Answer) { a.Choice = "9" }, "options 1 to 3"},
		{"TextOption", func(_ *Controller, _ *dialogTerminal, a *Answer) { a.Choice = "3" }, "asks for text"},
		{"Paused", func(c *Controller, _ *dialogTerminal, _ *Answer) { _ = c.Pause() }, "paused"},
		{"DialogGone", func(_ *Controller, term *dialogTerminal, _ *Answer) { term.show(idleScreen()) }, "no longer on screen"},
		{"AnotherDialog", func(_ *Controller, term *dialogTerminal, _ *Answer) { term.show(permissionScreen()) }, "another dialog"},
		{"OptionsChanged", func(_ *Controller, term *dialogTerminal, _ *Answer) {
			term.options[1] = "MySQL"
			term.redraw()
		}, "another dialog"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			term := newDialogTerminal()
			c, decisions, id := startAsked(t, clockwork.NewRealClock(), term)
			a := Answer{Need: id, Choice: "SQLite", From: "test"}
			tc.break_(c, term, &a)
			_, err := c.Answer(context.Background(), a)
			if !errors.Is(err, ErrAnswerRefused) || !strings.Contains(err.Error(), tc.reason) {
				t.Fatalf("Answer = %v, want refused: %s", err, tc.reason)
			}
			if keys := term.keys(); len(keys) != 0 {
				t.Errorf("pressed %v", keys)
			}
			waitDecision(t, decisions, "answer from test not typed")
		})
	}
}

// answerOnFakeClock runs an answer while advancing the fake clock its
// waits run on, and returns its error.
func answerOnFakeClock(t *testing.T, c *Controller, clock *clockwork.FakeClock, a Answer) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { _, err := c.Answer(context.Background(), a); done <- err }()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case err := <-done:
			return err
		case <-deadline:
			t.Fatal("Answer did not return")
		case <-time.After(time.Millisecond):
			clock.Advance(answerPoll)
		}
	}
}

// A selector that does not move stops the answer before Enter.
func TestGuard_AnswerSelectorStuck(t *testing.T) {
	defer goleak.VerifyNone(t)
	term := newDialogTerminal()
	term.stuck = true
	clock := clockwork.NewFakeClock()
	c, _, id := startAsked(t, clock, term)
	err := answerOnFakeClock(t, c, clock, Answer{Need: id, Choice: "SQLite"})
	c.Stop()
	if !errors.Is(err, ErrAnswerRefused) || !strings.Contains(err.Error(), "selector did not move") {
		t.Fatalf("Answer = %v, want the selector named", err)
	}
	if keys := term.keys(); strings.Contains(strings.Join(keys, " "), "Enter") {
		t.Errorf("pressed %v, Enter among them", keys)
	}
}

// An Enter the dialog did not take is reported, not pressed again.
func TestGuard_AnswerEnterNotTaken(t *testing.T) {
	defer goleak.VerifyNone(t)
	term := newDialogTerminal()
	term.sticky = true
	clock := clockwork.NewFakeClock()
	c, _, id := startAsked(t, clock, term)
	err := answerOnFakeClock(t, c, clock, Answer{Need: id, Choice: "1"})
	c.Stop()
	if err == nil || !strings.Contains(err.Error(), "still shows") {
		t.Fatalf("Answer = %v, want the dialog that stayed named", err)
	}
	if keys := term.keys(); len(keys) != 1 || keys[0] != "press: Enter" {
		t.Errorf("pressed %v, want Enter once", keys)
	}
}

// Two answers at once, from two places: one is typed, the other finds
// the dialog gone and types nothing.
func TestGuard_AnswerOneOfTwo(t *testing.T) {
	defer goleak.VerifyNone(t)
	term := newDialogTerminal()
	c, _, id := startAsked(t, clockwork.NewRealClock(), term)
	errs := make(chan error, 2)
	for _, choice := range []string{"PostgreSQL", "SQLite"} {
		go func() {
			_, err := c.Answer(context.Background(), Answer{Need: id, Choice: choice, From: choice})
			errs <- err
		}()
	}
	var typed, refused int
	for range 2 {
		switch err := <-errs; {
		case err == nil:
			typed++
		case errors.Is(err, ErrAnswerRefused):
			refused++
		default:
			t.Errorf("Answer = %v", err)
		}
	}
	c.Stop()
	if typed != 1 || refused != 1 {
		t.Errorf("%d typed, %d refused; want one of each (keys %v)", typed, refused, term.keys())
	}
	if n := strings.Count(strings.Join(term.keys(), " "), "Enter"); n != 1 {
		t.Errorf("Enter pressed %d times, want once", n)
	}
}
