package remote

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/internal/safetext"
	"github.com/codeman-dev/codeman/notify"
	"github.com/codeman-dev/codeman/respawn"
)

// DefaultLifetime is how long a button's token counts: an answer given
// later is refused, whatever the pane shows.
const DefaultLifetime = time.Hour

// DefaultKinds are the needs a person may answer from afar unless the
// config says otherwise.
var DefaultKinds = []respawn.NeedKind{respawn.NeedQuestion, respawn.NeedPermission}

// Answerer makes the buttons of a need's notification and takes the
// tokens the reply topic brings back: each is verified, taken once, and
// handed to Answer, which types it through the pane's press gate.
type Answerer struct {
	Key         []byte
	Used        *Used
	ReplyURL    string // where the buttons post: the reply topic
	AccessToken string // sent with each button's post when set
	Kinds       []respawn.NeedKind
	Lifetime    time.Duration
	// Answer types an answer into a pane (the daemon's Answer).
	Answer func(ctx context.Context, pane string, a respawn.Answer) (respawn.Answered, error)
	// Refused records, in the pane's decisions, an answer with a valid
	// signature that was not typed before it reached the pane (expired,
	// used already).
	Refused func(pane, reason string)
	// Tested hears of a test token that came back (codeman notify test).
	Tested func()
	Clock  clockwork.Clock // nil: the real clock
	Log    *slog.Logger    // nil: discard
}

func (a *Answerer) clock() clockwork.Clock {
	if a.Clock == nil {
		return clockwork.NewRealClock()
	}
	return a.Clock
}

func (a *Answerer) log() *slog.Logger {
	if a.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return a.Log
}

func (a *Answerer) lifetime() time.Duration {
	if a.Lifetime <= 0 {
		return DefaultLifetime
	}
	return a.Lifetime
}

// Buttons are the answers a notification of pane's need n offers: Allow
// and Deny for a permission prompt, the first options for a question or a
// menu (none that opens a text box). A need whose kind may not be
// answered from afar, or that is no dialog with options, offers none.
func (a *Answerer) Buttons(pane string, n respawn.Need) []notify.Button {
	if n.Ask == nil || n.ID == "" || !slices.Contains(a.Kinds, n.Kind) {
		return nil
	}
	type choice struct{ label, option string }
	var choices []choice
	if n.Kind == respawn.NeedPermission {
		for _, c := range []struct{ label, word string }{{"Allow", "allow"}, {"Deny", "deny"}} {
			if i, err := n.Ask.Choose(c.word); err == nil {
				choices = append(choices, choice{c.label, strconv.Itoa(i + 1)})
			}
		}
	} else {
		for i, o := range n.Ask.Options {
			if !n.Ask.TakesText(i) && len(choices) < notify.MaxButtons {
				choices = append(choices, choice{label(i, o), strconv.Itoa(i + 1)})
			}
		}
	}
	exp := a.clock().Now().Add(a.lifetime()).Unix()
	var buttons []notify.Button
	for _, c := range choices {
		token, err := Sign(a.Key, Claims{Pane: pane, Need: n.ID, Choice: c.option, Expires: exp})
		if err != nil {
			a.log().Warn("answer buttons left out", "pane", pane, "err", err)
			return nil
		}
		buttons = append(buttons, a.button(c.label, token))
	}
	return buttons
}

// TestButtons are the buttons of codeman notify test's message: pressing
// one proves that the reply topic reaches the daemon.
func (a *Answerer) TestButtons() ([]notify.Button, error) {
	token, err := Sign(a.Key, Claims{Pane: Test, Need: Test, Choice: Test, Expires: a.clock().Now().Add(a.lifetime()).Unix()})
	if err != nil {
		return nil, err
	}
	return []notify.Button{a.button("Answer test", token)}, nil
}

func (a *Answerer) button(label, token string) notify.Button {
	b := notify.Button{Label: label, URL: a.ReplyURL, Body: token}
	if a.AccessToken != "" {
		b.Headers = map[string]string{"Authorization": "Bearer " + a.AccessToken}
	}
	return b
}

// maxLabel bounds a button's label: a phone shows a short one.
const maxLabel = 24

// label is option i's button: "2. SQLite", cut short.
func label(i int, option string) string {
	l := fmt.Sprintf("%d. %s", i+1, option)
	if r := []rune(l); len(r) > maxLabel {
		l = string(r[:maxLabel-1]) + "…"
	}
	return l
}

// Take handles one message of the reply topic: a token a button posted,
// or anything else someone posted there, which is refused and logged.
func (a *Answerer) Take(ctx context.Context, body string) {
	now := a.clock().Now()
	c, err := Verify(a.Key, body, now)
	switch {
	case errors.Is(err, ErrExpired) && c.Pane != Test:
		a.refuse(c, err)
		return
	case err != nil:
		a.log().Warn("answer topic: message refused", "err", err, "message", safetext.Line(clip(body)))
		return
	}
	if err := a.Used.Take(c, now); err != nil {
		if c.Pane != Test {
			a.refuse(c, err)
		}
		return
	}
	if c.Pane == Test {
		a.log().Info("answer topic: the test answer came back")
		if a.Tested != nil {
			a.Tested()
		}
		return
	}
	got, err := a.Answer(ctx, c.Pane, respawn.Answer{Need: c.Need, Choice: c.Choice, From: "ntfy"})
	if err != nil {
		a.log().Warn("answer topic: answer not typed", "pane", c.Pane, "need", c.Need, "err", err)
		return
	}
	a.log().Info("answer topic: answer typed", "pane", c.Pane, "need", c.Need, "option", got.Option)
}

// refuse records a signed answer that was not typed.
func (a *Answerer) refuse(c Claims, err error) {
	a.log().Warn("answer topic: answer refused", "pane", c.Pane, "need", c.Need, "err", err)
	if a.Refused != nil {
		a.Refused(c.Pane, fmt.Sprintf("answer from ntfy not typed: %v (need %s, option %s)", err, c.Need, c.Choice))
	}
}

// clip shortens what someone posted, for the log.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
