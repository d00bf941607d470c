package respawn

import (
	"fmt"
	"strings"
	"time"
)

// NeedKind says why a pane needs a person.
type NeedKind string

const (
	NeedQuestion    NeedKind = "question"    // AskUserQuestion waits for an answer
	NeedPermission  NeedKind = "permission"  // a tool waits for permission
	NeedElicitation NeedKind = "elicitation" // an MCP server asks for input
	NeedMenu        NeedKind = "menu"        // a dialog codeman will not answer
	NeedStuck       NeedKind = "stuck"       // the watchdog's recoveries are exhausted
	NeedAuth        NeedKind = "auth"        // an authentication or billing error
	NeedSendFailed  NeedKind = "send-failed" // typing into the pane failed repeatedly
	NeedError       NeedKind = "error"       // turns keep failing after the backoffs
)

// Need is a pane's call for a person. The controller raises it when it
// holds on something only a person can resolve and clears it when the
// screen or the hooks show the session moving again. A session waiting
// on its own background work needs nobody.
type Need struct {
	Kind   NeedKind  `json:"kind"`
	Reason string    `json:"reason"`
	Since  time.Time `json:"since"`
	// ID names the dialog a person may answer (the fingerprint of Ask);
	// "" when the need is not a dialog on screen whose options the agent
	// read.
	ID string `json:"id,omitempty"`
	// Ask is that dialog: what it asks and its options.
	Ask *Ask `json:"ask,omitempty"`
	// Shown is when a screen first showed that dialog.
	Shown time.Time `json:"shown,omitzero"`
}

func (n Need) String() string {
	if n.Kind == "" {
		return ""
	}
	return fmt.Sprintf("%s: %s", n.Kind, n.Reason)
}

// maxAPIErrorWaits is how many API-error backoffs in a row codeman waits
// out before it stops resuming and calls a person: a turn that fails
// after three backoffs will not be fixed by a fourth.
const maxAPIErrorWaits = 3

// needState is what the core knows beyond the screen and the hooks'
// dialogs: conditions it raised itself.
type needState struct {
	cur          Need
	stuck        string    // recoveries exhausted, with why; "" when not
	sendFailed   string    // typing failed sendRetries times; "" when not
	sendFailedAt time.Time // when typing failed for the last time
	apiErrors    int       // API-error waits in a row
	gaveUp       string    // the failed turn's line once apiErrors ran out
	gaveUpAt     time.Time
}

// updateNeed raises, changes or clears the pane's need from what the core
// knows now, and says so in the decisions and the status line.
func (c *Core) updateNeed(now time.Time) {
	kind, reason := c.findNeed(now)
	ask := c.screenAsk(kind)
	old := c.need.cur
	if kind == old.Kind && reason == old.Reason && ask.Fingerprint() == old.ID {
		if ask.Open() {
			c.need.cur.Ask = &ask // the selector may have moved
		}
		return
	}
	switch {
	case kind == "":
		c.need.cur = Need{}
		c.decide(now, DecisionWait, "no longer needs a person ("+old.String()+")")
	case kind == old.Kind && (ask.Fingerprint() == old.ID || old.ID == "" || !ask.Open()):
		// The same need: the hook raised it before the screen showed the
		// dialog's options, or the screen no longer shows them.
		c.need.cur.Reason, c.need.cur.ID, c.need.cur.Ask = reason, "", nil
		if ask.Open() {
			c.need.cur.ID, c.need.cur.Ask = ask.Fingerprint(), &ask
			if old.ID != c.need.cur.ID {
				c.need.cur.Shown = c.screen.At
			}
		}
	default:
		c.need.cur = Need{Kind: kind, Reason: reason, Since: now}
		if ask.Open() {
			c.need.cur.ID, c.need.cur.Ask, c.need.cur.Shown = ask.Fingerprint(), &ask, c.screen.At
		}
		c.decide(now, DecisionWait, "needs a person: "+c.need.cur.String())
	}
	c.emit(Action{Kind: ActNeed, Need: c.need.cur})
	c.setStatus()
}

// screenAsk is the dialog on the last screen, with its options, when it
// is what the need of that kind is about: read before any work came
// after it.
func (c *Core) screenAsk(kind NeedKind) Ask {
	f := &c.facts
	if kind == "" || !f.Ask.Open() || f.Ask.Kind != kind || c.screen.At.IsZero() || c.screen.At.Before(c.lastWorking) {
		return Ask{}
	}
	return f.Ask
}

// findNeed returns the strongest reason a person is needed, or "".
func (c *Core) findNeed(now time.Time) (NeedKind, string) {
	if c.state == Stopped {
		return "", ""
	}
	// A dialog on the last screen counts until work came after it: an
	// answered prompt lets Claude go on.
	f := &c.facts
	screenValid := !c.screen.At.IsZero() && !c.screen.At.Before(c.lastWorking)
	if screenValid {
		switch {
		case f.Question:
			return NeedQuestion, firstNonEmpty(c.hooks.questionText, f.BlockerText, "a question on screen")
		case f.Permission:
			return NeedPermission, firstNonEmpty(c.hooks.permissionText, f.BlockerText, "a permission prompt on screen")
		case f.Dialog:
			return NeedMenu, dialogReason(f)
		case f.PlanMenu && !c.cfg.AutoAcceptPrompts:
			return NeedMenu, "plan approval menu (auto_accept_prompts is off)"
		}
	}
	h := &c.hooks
	for _, d := range []struct {
		since  time.Time
		kind   NeedKind
		asks   string
		absent string
	}{
		{h.question, NeedQuestion, h.questionText, "AskUserQuestion pending"},
		{h.permission, NeedPermission, h.permissionText, "permission prompt pending"},
		{h.elicitation, NeedElicitation, h.elicitationText, "elicitation dialog pending"},
	} {
		if !d.since.IsZero() && !c.hookDialogExpired(now, d.since) {
			return d.kind, firstNonEmpty(d.asks, d.absent)
		}
	}
	if line := c.authFailure(screenValid); line != "" {
		return NeedAuth, line
	}
	switch {
	case c.need.gaveUp != "":
		return NeedError, c.need.gaveUp
	case c.need.stuck != "" && c.hooks.background == 0 && c.facts.BackgroundWait == 0:
		// Silence while background work runs is Claude waiting on it.
		return NeedStuck, c.need.stuck
	case c.need.sendFailed != "":
		return NeedSendFailed, c.need.sendFailed
	}
	return "", ""
}

// authFailure returns the failed turn's line when it is an authentication
// or billing error: no backoff fixes those.
func (c *Core) authFailure(screenValid bool) string {
	if c.wait.active() && c.wait.kind != waitUsageLimit && isAuthError(c.wait.line) {
		return c.wait.line
	}
	if screenValid && isAuthError(c.facts.APIError) {
		return c.facts.APIError
	}
	return ""
}

// isAuthError reports whether an API error line or a StopFailure error is
// about credentials or billing.
func isAuthError(line string) bool {
	l := strings.ToLower(line)
	for _, s := range []string{"invalid api key", "invalid x-api-key", "authentication", "401", "403", "billing", "credit balance", "oauth token", "please run /login"} {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}

func dialogReason(f *ScreenFacts) string {
	name := f.DialogName
	switch name {
	case "limit_menu", "rate_limit_menu":
		name = "usage limit menu"
	case "trust_dialog":
		name = "workspace trust dialog"
	case "", "dialog_footer":
		name = "dialog"
	default:
		name = strings.ReplaceAll(name, "_", " ")
	}
	if f.BlockerText != "" {
		return name + ": " + f.BlockerText
	}
	return name
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

func joinNonEmpty(sep string, s ...string) string {
	var out []string
	for _, v := range s {
		if v != "" {
			out = append(out, v)
		}
	}
	return strings.Join(out, sep)
}
