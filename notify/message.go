package notify

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/codeman-dev/codeman/internal/safetext"
)

// Event is what a message tells of a hold.
type Event string

// The events. A re-notification is EventRaised with a Count above 1.
const (
	EventRaised   Event = "raised"   // a pane needs a person
	EventResolved Event = "resolved" // the hold ended after it had notified
	EventTest     Event = "test"     // codeman notify test
)

// Hold is a pane that needs a person, as the controller raised it.
type Hold struct {
	Pane    string    // the pane's canonical address: holds are kept by it
	Target  string    // its human name, such as "work:1.0 (%3)"; "" shows Pane
	Kind    string    // question, permission, elicitation, menu, stuck, auth, send-failed, error
	Reason  string    // one line: what the pane waits for
	Session string    // the tmux or screen session name
	Window  string    // the window name
	Cwd     string    // the pane's working directory
	Since   time.Time // when the hold began; zero means when Raise is called
	// Policy is this pane's policy (its profile's); nil uses the
	// Notifier's.
	Policy *Policy
	// Dialog names the dialog the hold waits on when the pane shows one
	// whose options were read (the need's ID); "" otherwise. Another
	// dialog is another hold: it notifies as new, with its own buttons.
	Dialog string
	// Buttons are the answers a message of the hold offers, which the
	// url channel in ntfy's text format shows as action buttons (ntfy
	// takes three at most).
	Buttons []Button
}

// Button is one answer a message offers: pressing it sends Body to URL
// with a POST, and Headers.
type Button struct {
	Label   string
	URL     string
	Body    string
	Headers map[string]string
}

// MaxButtons is how many buttons ntfy shows on a message.
const MaxButtons = 3

// name is how messages name the hold's pane.
func (h Hold) name() string {
	if h.Target != "" {
		return oneLine(h.Target)
	}
	return oneLine(h.Pane)
}

// Policy says when a pane's holds notify.
type Policy struct {
	// After is how long a hold lasts before it notifies. Default 30s.
	After time.Duration
	// Renotify is how often a hold that lasts notifies again; 0 never.
	// Default 30m.
	Renotify time.Duration
	// Resolved also tells when a hold that notified ends. Default false.
	Resolved bool
	// Bell asks channels that can ring a bell (the daemon's tmux channel)
	// to ring it. It changes nothing here. Default true.
	Bell bool
	// Muted sends nothing for these panes. Default false.
	Muted bool
}

// Policy defaults.
const (
	DefaultAfter    = 30 * time.Second
	DefaultRenotify = 30 * time.Minute
)

// DefaultPolicy returns the policy of a pane whose profile sets none.
func DefaultPolicy() Policy {
	return Policy{After: DefaultAfter, Renotify: DefaultRenotify, Bell: true}
}

// Message is what a channel sends.
type Message struct {
	Event Event
	Hold  Hold      // the zero Hold in a test; its Policy is nil
	At    time.Time // when the message was made
	// Count is 1 for a hold's first message, 2 for its first
	// re-notification, and so on; 0 for resolved and test messages.
	Count int
	Bell  bool   // the hold's Policy.Bell
	Title string // one line: whose pane, what kind, for how long
	Text  string // one line: the reason, or what a test is
}

// Line is the message on one line, as the command channel passes it.
func (m Message) Line() string { return m.Title + ": " + m.Text }

// Held is how long the hold had lasted when the message was made.
func (m Message) Held() time.Duration {
	if m.Hold.Since.IsZero() || m.At.Before(m.Hold.Since) {
		return 0
	}
	return m.At.Sub(m.Hold.Since)
}

// raisedMessage is the count-th message of a hold that lasts at now.
func raisedMessage(h Hold, p Policy, count int, now time.Time) Message {
	m := Message{Event: EventRaised, Hold: h, At: now, Count: count, Bell: p.Bell}
	m.Hold.Policy = nil
	verb := "needs you"
	if count > 1 {
		verb = "still needs you"
	}
	m.Title = fmt.Sprintf("%s %s (%s, %s)", h.name(), verb, oneLine(h.Kind), formatDuration(m.Held()))
	m.Text = reasonText(h)
	return m
}

// resolvedMessage tells that a hold ended at at.
func resolvedMessage(h Hold, p Policy, at time.Time) Message {
	m := Message{Event: EventResolved, Hold: h, At: at, Bell: p.Bell}
	m.Hold.Policy = nil
	m.Title = fmt.Sprintf("%s goes on (%s resolved after %s)", h.name(), oneLine(h.Kind), formatDuration(m.Held()))
	m.Text = reasonText(h)
	return m
}

// TestMessage is the message of codeman notify test, made at now.
func TestMessage(now time.Time) Message {
	host, err := os.Hostname()
	if err != nil {
		host = "this machine" // the name only decorates the text
	}
	return Message{
		Event: EventTest,
		At:    now,
		Title: "codeman test notification",
		Text:  fmt.Sprintf("codeman notify test on %s: this channel works", oneLine(host)),
	}
}

func reasonText(h Hold) string {
	if r := oneLine(h.Reason); r != "" {
		return r
	}
	return oneLine(h.Kind)
}

// oneLine makes text from a pane or a server one line that shows as it
// reads: line breaks and tabs become spaces, and terminal escapes, bidi
// overrides and zero-width characters show as escapes (safetext.Line), so
// that it can act on no terminal, forge no header and hide nothing in a
// notification. It trims.
func oneLine(s string) string { return strings.TrimSpace(safetext.Line(s)) }

// formatDuration shows a duration in whole seconds, "30s", "2m" or
// "1h30m", as the config file writes them.
func formatDuration(d time.Duration) string {
	s := d.Round(time.Second).String()
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-2]
	}
	return s
}

// showDuration is formatDuration for a bound or a wait, which may be
// shorter than a second.
func showDuration(d time.Duration) string {
	if d < time.Second {
		return d.String()
	}
	return formatDuration(d)
}
