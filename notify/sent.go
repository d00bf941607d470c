package notify

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"time"
)

// Sent is what a Notifier keeps of a hold that has notified, so that the
// Notifier that takes over (after an edit of the config) or the one of a
// daemon started again goes on with the hold's schedule rather than tell
// it again as new: a hold of the same pane, kind and reason raised on it
// within priorGrace of its start is that hold. It is all a daemon
// persists of the holds; the reason only as a digest.
type Sent struct {
	Pane string `json:"pane"`
	Kind string `json:"kind"`
	// Digest identifies the hold's reason (the question, the command a
	// permission asks for): another prompt of the same kind on the pane
	// is another hold, and a person must hear of it.
	Digest string    `json:"digest,omitempty"`
	Since  time.Time `json:"since"` // when the hold began
	Count  int       `json:"count"` // its messages due so far
	Last   time.Time `json:"last"`  // when the last one was due
}

// priorGrace is how long a Notifier waits for the holds of Options.Sent
// to be raised again: a daemon that starts again adopts its panes and
// reads their screens within seconds. A hold raised later, or of another
// kind, is new.
const priorGrace = 2 * time.Minute

// maxSentCount bounds a Sent's Count: it only numbers messages.
const maxSentCount = 1 << 20

// restore takes the holds that notified before, at now. Records that
// cannot be of a hold that notified are skipped; times after now are
// taken as now.
func (c *core) restore(records []Sent, now time.Time) {
	for _, r := range records {
		if r.Pane == "" || r.Kind == "" || r.Count < 1 || r.Last.IsZero() {
			continue
		}
		r.Count = min(r.Count, maxSentCount)
		if r.Last.After(now) {
			r.Last = now
		}
		if r.Since.IsZero() || r.Since.After(r.Last) {
			r.Since = r.Last
		}
		if c.prior == nil {
			c.prior = map[string]Sent{}
		}
		c.prior[r.Pane] = r
	}
	if len(c.prior) > 0 {
		c.priorUntil = now.Add(priorGrace)
	}
}

// adopt makes hd, a hold new to this core raised as h at now, go on from
// the pane's record when it has one of h's kind.
func (c *core) adopt(hd *held, h *Hold, now time.Time) {
	r, ok := c.prior[h.Pane]
	if !ok || r.Kind != h.Kind || r.Digest == "" || r.Digest != reasonDigest(h.Reason) || !now.Before(c.priorUntil) {
		return // another hold may still be followed by this one
	}
	delete(c.prior, h.Pane)
	hd.count, hd.last, hd.notified = r.Count, r.Last, true
	if r.Since.Before(h.Since) {
		h.Since = r.Since
	}
	c.dirty = true
}

// dropPrior drops the pane's record: its hold ended or the pane is gone.
func (c *core) dropPrior(pane string) {
	if _, ok := c.prior[pane]; ok {
		delete(c.prior, pane)
		c.dirty = true
	}
}

// expirePrior drops the records not raised again within priorGrace.
func (c *core) expirePrior(now time.Time) {
	if len(c.prior) > 0 && !now.Before(c.priorUntil) {
		c.prior = nil
		c.dirty = true
	}
}

// sent returns the holds that notified, and the records still waiting to
// be raised again, by pane.
func (c *core) sent() []Sent {
	var out []Sent
	for _, hd := range c.holds {
		if hd.notified {
			out = append(out, Sent{Pane: hd.hold.Pane, Kind: hd.hold.Kind, Digest: reasonDigest(hd.hold.Reason), Since: hd.hold.Since, Count: hd.count, Last: hd.last})
		}
	}
	for pane, r := range c.prior {
		if hd, ok := c.holds[pane]; !ok || !hd.notified {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b Sent) int { return cmp.Compare(a.Pane, b.Pane) })
	return out
}

// reasonDigest is a hold's reason as Sent keeps it: enough to tell two
// prompts apart, nothing of what they say.
func reasonDigest(reason string) string {
	sum := sha256.Sum256([]byte(reason))
	return hex.EncodeToString(sum[:16])
}
