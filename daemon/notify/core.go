package notify

import (
	"cmp"
	"slices"
	"time"
)

// core is the policy without a clock, goroutines or I/O: the holds, their
// schedules and the rate limit. Every call passes the time; the Notifier
// drives it.
type core struct {
	defaults Policy
	limit    int // messages per minute
	holds    map[string]*held
	out      []Message   // messages let through, for take
	window   []time.Time // when the messages of the last minute went out
	dropped  int         // messages the rate limit dropped, in all
	burst    int         // messages dropped since one last went out
	newBurst bool        // a burst began since the last take
}

// held is one pane's hold and its schedule.
type held struct {
	hold     Hold
	policy   Policy
	count    int       // messages due so far, let through or dropped
	last     time.Time // when the last one was due
	next     time.Time // when the next one is due; zero: never
	notified bool      // one of them went out
}

// batch is what one step of the core produced.
type batch struct {
	send     []Message // to every channel
	newBurst bool      // the rate limit began dropping in this step
	dropped  int       // messages dropped in all, for the log line
}

// Rate limit window.
const rateWindow = time.Minute

func newCore(defaults Policy, limit int) *core {
	return &core{defaults: defaults, limit: limit, holds: map[string]*held{}}
}

// raise records h at now: a new hold when the pane has none or one of
// another kind, otherwise an update of the hold's text and policy that
// keeps its schedule.
func (c *core) raise(h Hold, now time.Time) {
	p := c.defaults
	if h.Policy != nil {
		p = *h.Policy
	}
	h.Policy = nil
	if h.Since.IsZero() {
		h.Since = now
	}
	hd, ok := c.holds[h.Pane]
	if !ok || hd.hold.Kind != h.Kind {
		hd = &held{}
		c.holds[h.Pane] = hd
	} else {
		h.Since = hd.hold.Since // the same hold, whatever the caller thinks
	}
	hd.hold, hd.policy = h, p
	hd.schedule()
}

// schedule sets when the hold's next message is due.
func (hd *held) schedule() {
	switch {
	case hd.policy.Muted:
		hd.next = time.Time{}
	case hd.count == 0:
		hd.next = hd.hold.Since.Add(hd.policy.After)
	case hd.policy.Renotify <= 0:
		hd.next = time.Time{}
	default:
		hd.next = hd.last.Add(hd.policy.Renotify)
	}
}

// clear ends the pane's hold at at (zero: now) and, when it had notified
// and its policy asks, lets through a resolved message.
func (c *core) clear(pane string, at, now time.Time) {
	hd, ok := c.holds[pane]
	if !ok {
		return
	}
	delete(c.holds, pane)
	if at.IsZero() {
		at = now
	}
	if hd.notified && hd.policy.Resolved && !hd.policy.Muted {
		c.admit(resolvedMessage(hd.hold, hd.policy, at), now)
	}
}

// forget drops the pane's hold without a message.
func (c *core) forget(pane string) { delete(c.holds, pane) }

// tick lets through the messages due at now, the earliest first, and
// schedules their next ones.
func (c *core) tick(now time.Time) {
	var due []*held
	for _, hd := range c.holds {
		if !hd.next.IsZero() && !hd.next.After(now) {
			due = append(due, hd)
		}
	}
	slices.SortFunc(due, func(a, b *held) int {
		return cmp.Or(a.next.Compare(b.next), cmp.Compare(a.hold.Pane, b.hold.Pane))
	})
	for _, hd := range due {
		hd.count++
		hd.last = now
		if c.admit(raisedMessage(hd.hold, hd.policy, hd.count, now), now) {
			hd.notified = true
		}
		hd.schedule()
	}
}

// admit lets m through unless the rate limit is reached, in which case m
// is dropped and counted.
func (c *core) admit(m Message, now time.Time) bool {
	c.window = slices.DeleteFunc(c.window, func(t time.Time) bool { return !t.After(now.Add(-rateWindow)) })
	if len(c.window) >= c.limit {
		c.dropped++
		if c.burst == 0 {
			c.newBurst = true
		}
		c.burst++
		return false
	}
	c.window = append(c.window, now)
	c.burst = 0
	c.out = append(c.out, m)
	return true
}

// take returns what the core let through since the last take.
func (c *core) take() batch {
	b := batch{send: c.out, newBurst: c.newBurst, dropped: c.dropped}
	c.out, c.newBurst = nil, false
	return b
}

// next returns when the earliest message is due, zero when none is.
func (c *core) next() time.Time {
	var next time.Time
	for _, hd := range c.holds {
		if !hd.next.IsZero() && (next.IsZero() || hd.next.Before(next)) {
			next = hd.next
		}
	}
	return next
}
