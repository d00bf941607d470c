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
	delayed  int         // holds whose first message waited for the rate limit, in all
	burst    int         // messages held back since one last went out
	newBurst bool        // a burst began since the last take

	prior      map[string]Sent // by pane: holds that notified before, not raised again yet
	priorUntil time.Time       // when prior expires
	dirty      bool            // what sent returns changed since the last take
}

// held is one pane's hold and its schedule.
type held struct {
	hold     Hold
	policy   Policy
	count    int       // messages due so far, let through or dropped
	last     time.Time // when the last one was due
	next     time.Time // when the next one is due; zero: never
	notified bool      // one of them went out
	waiting  bool      // its first message waits for the rate limit
}

// batch is what one step of the core produced.
type batch struct {
	send     []Message // to every channel
	newBurst bool      // the rate limit began dropping in this step
	dropped  int       // messages dropped in all, for the log line
	sent     []Sent    // what sent returns, when it changed; nil otherwise
	changed  bool      // sent changed (it may be empty)
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
	if !ok || hd.hold.Kind != h.Kind || h.Dialog != "" && hd.hold.Dialog != h.Dialog {
		if ok && hd.notified {
			c.dirty = true
		}
		hd = &held{}
		c.holds[h.Pane] = hd
		c.adopt(hd, &h, now)
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
	c.dropPrior(pane)
	hd, ok := c.holds[pane]
	if !ok {
		return
	}
	delete(c.holds, pane)
	c.dirty = c.dirty || hd.notified
	if at.IsZero() {
		at = now
	}
	if hd.notified && hd.policy.Resolved && !hd.policy.Muted {
		c.admit(resolvedMessage(hd.hold, hd.policy, at), now)
	}
}

// forget drops the pane's hold without a message.
func (c *core) forget(pane string) {
	c.dropPrior(pane)
	if hd, ok := c.holds[pane]; ok {
		delete(c.holds, pane)
		c.dirty = c.dirty || hd.notified
	}
}

// tick lets through the messages due at now, the earliest first, and
// schedules their next ones.
func (c *core) tick(now time.Time) {
	c.expirePrior(now)
	var due []*held
	for _, hd := range c.holds {
		if !hd.next.IsZero() && !hd.next.After(now) {
			due = append(due, hd)
		}
	}
	// Those waiting longest first: a hold that waited for the rate limit
	// goes before the ones due since.
	slices.SortFunc(due, func(a, b *held) int {
		return cmp.Or(a.next.Compare(b.next), a.hold.Since.Compare(b.hold.Since), cmp.Compare(a.hold.Pane, b.hold.Pane))
	})
	for _, hd := range due {
		if !hd.notified && !c.room(now) {
			// A first message is news a person waits for: it goes out as
			// soon as the limit allows, not a renotify later (or never).
			if !hd.waiting {
				hd.waiting = true
				c.delayed++
				c.heldBack()
			}
			hd.next = c.freeAt()
			continue
		}
		hd.count++
		hd.last = now
		if c.admit(raisedMessage(hd.hold, hd.policy, hd.count, now), now) {
			hd.notified, hd.waiting = true, false
		}
		c.dirty = c.dirty || hd.notified
		hd.schedule()
	}
}

// room reports whether the rate limit lets a message through at now.
func (c *core) room(now time.Time) bool {
	c.window = slices.DeleteFunc(c.window, func(t time.Time) bool { return !t.After(now.Add(-rateWindow)) })
	return len(c.window) < c.limit
}

// freeAt is when the rate limit lets the next message through: when the
// oldest of the last minute's leaves the window. The window is full.
func (c *core) freeAt() time.Time { return c.window[0].Add(rateWindow) }

// admit lets m through unless the rate limit is reached, in which case m
// is dropped and counted.
func (c *core) admit(m Message, now time.Time) bool {
	if !c.room(now) {
		c.dropped++
		c.heldBack()
		return false
	}
	c.window = append(c.window, now)
	c.burst = 0
	c.out = append(c.out, m)
	return true
}

// heldBack counts a message the rate limit did not let through now.
func (c *core) heldBack() {
	if c.burst == 0 {
		c.newBurst = true
	}
	c.burst++
}

// take returns what the core let through since the last take.
func (c *core) take() batch {
	b := batch{send: c.out, newBurst: c.newBurst, dropped: c.dropped, changed: c.dirty}
	if c.dirty {
		b.sent = c.sent()
	}
	c.out, c.newBurst, c.dirty = nil, false, false
	return b
}

// next returns when the earliest message is due, or the records of
// holds that notified before expire; zero when neither is.
func (c *core) next() time.Time {
	var next time.Time
	if len(c.prior) > 0 {
		next = c.priorUntil
	}
	for _, hd := range c.holds {
		if !hd.next.IsZero() && (next.IsZero() || hd.next.Before(next)) {
			next = hd.next
		}
	}
	return next
}
