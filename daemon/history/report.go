package history

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/codeman-dev/codeman/respawn"
)

// TopReasons is how many reasons a Tally lists.
const TopReasons = 5

// Digest is what a pane's history says about a span of time.
type Digest struct {
	Pane string `json:"pane"`
	// From and To are the span Time covers: the report's, or from the
	// pane's first record when that is later.
	From   time.Time            `json:"from"`
	To     time.Time            `json:"to"`
	Time   Times                `json:"time"`
	Cycles Cycles               `json:"cycles"`
	Sends  map[respawn.Step]int `json:"sends,omitempty"` // by step
	// Holds are the veto, skip and wait decisions but those of a need for
	// a person: what was not done, and why.
	Holds    Tally `json:"holds"`
	Warnings Tally `json:"warnings"` // warn decisions
	// NeedsYou counts the times a person was called, by kind (question,
	// permission, …): the needs-you records, or the controller's "needs a
	// person" decisions in a history that has none.
	NeedsYou map[string]int `json:"needs_you,omitempty"`
	Other    int            `json:"other,omitempty"` // records of kinds a report does not read
}

// Times is how a pane's time divides between the buckets (model says how
// each is decided). They add up to To - From.
type Times struct {
	Working       time.Duration `json:"working"`
	Idle          time.Duration `json:"idle"`
	Limits        time.Duration `json:"waiting_on_limits"`
	Person        time.Duration `json:"needing_a_person"`
	NotControlled time.Duration `json:"not_controlled"`
}

// Cycles counts the respawn cycles that started and that completed
// (CompletesCycle) in the span.
type Cycles struct {
	Started   int `json:"started"`
	Completed int `json:"completed"`
}

// Tally counts decisions and lists their most frequent reasons. Reasons
// that differ only in their numbers count together, under the newest one.
type Tally struct {
	Count int           `json:"count"`
	Top   []ReasonCount `json:"top,omitempty"` // at most TopReasons, most frequent first
}

// ReasonCount is one reason of a Tally.
type ReasonCount struct {
	Reason string `json:"reason"`
	Count  int    `json:"count"`
}

// Report digests records (any order, any panes) over [from, to), one
// Digest per pane, ordered by pane. Records before from only set where a
// pane stands at from. A pane is left out when nothing is known of it
// before to, or when it was not controlled for the whole span.
func Report(records []Record, from, to time.Time) []Digest {
	byPane := map[string][]Record{}
	for _, r := range records {
		byPane[r.Pane] = append(byPane[r.Pane], r)
	}
	var out []Digest
	for pane, recs := range byPane {
		slices.SortStableFunc(recs, func(a, b Record) int { return a.At.Compare(b.At) })
		if d, ok := digest(pane, recs, from, to); ok {
			out = append(out, d)
		}
	}
	slices.SortFunc(out, func(a, b Digest) int { return cmp.Compare(a.Pane, b.Pane) })
	return out
}

// counts are the figures of a span being added up.
type counts struct {
	holds, warns          tally
	needEvents, needWaits map[string]int
}

func digest(pane string, recs []Record, from, to time.Time) (Digest, bool) {
	d := Digest{Pane: pane, From: from, To: to}
	var m model
	var c counts
	last, inSpan := time.Time{}, false
	for _, r := range recs {
		if !r.At.Before(to) {
			break
		}
		if m.known {
			d.Time.add(m.bucket(), overlap(last, r.At, from, to))
		} else if r.At.After(from) {
			d.From = r.At
		}
		last = r.At
		m.apply(r)
		if !r.At.Before(from) {
			inSpan = true
			d.count(r, &c)
		}
	}
	if !m.known || (!inSpan && m.bucket() == bucketNotControlled) {
		return Digest{}, false
	}
	d.Time.add(m.bucket(), overlap(last, to, from, to))
	d.Holds, d.Warnings = c.holds.top(), c.warns.top()
	d.NeedsYou = c.needEvents
	if d.NeedsYou == nil {
		d.NeedsYou = c.needWaits
	}
	return d, true
}

// count adds r to the figures of the span.
func (d *Digest) count(r Record, c *counts) {
	switch r.Kind {
	case KindAttach, KindDetach, KindNotAdopted, KindResolved:
		return
	case KindNeedsYou:
		c.needEvents = addNeed(c.needEvents, r.Reason)
		return
	case KindDecision:
	default:
		d.Other++
		return
	}
	if r.Decision == nil {
		d.Other++
		return
	}
	dec := *r.Decision
	switch dec.Kind {
	case respawn.DecisionState:
		if dec.To == respawn.SendingUpdate.String() {
			d.Cycles.Started++
		}
		if CompletesCycle(dec) {
			d.Cycles.Completed++
		}
	case respawn.DecisionSend:
		if d.Sends == nil {
			d.Sends = map[respawn.Step]int{}
		}
		d.Sends[dec.Step]++
	case respawn.DecisionWait:
		switch need, ok := strings.CutPrefix(dec.Reason, needPrefix); {
		case ok:
			c.needWaits = addNeed(c.needWaits, need)
		case !strings.HasPrefix(dec.Reason, needGonePrefix):
			c.holds.add(dec.Reason)
		}
	case respawn.DecisionVeto, respawn.DecisionSkip:
		c.holds.add(dec.Reason)
	case respawn.DecisionWarn:
		c.warns.add(dec.Reason)
	}
}

// addNeed counts a need, "<kind>: <reason>", by its kind.
func addNeed(m map[string]int, need string) map[string]int {
	if m == nil {
		m = map[string]int{}
	}
	kind, _, _ := strings.Cut(need, ":")
	m[strings.TrimSpace(kind)]++
	return m
}

func (t *Times) add(b bucket, d time.Duration) {
	switch b {
	case bucketWorking:
		t.Working += d
	case bucketIdle:
		t.Idle += d
	case bucketLimits:
		t.Limits += d
	case bucketPerson:
		t.Person += d
	case bucketNotControlled:
		t.NotControlled += d
	}
}

// Total is the time the buckets cover.
func (t Times) Total() time.Duration {
	return t.Working + t.Idle + t.Limits + t.Person + t.NotControlled
}

// overlap is how much of [a, b) lies in [from, to).
func overlap(a, b, from, to time.Time) time.Duration {
	if a.Before(from) {
		a = from
	}
	if b.After(to) {
		b = to
	}
	return max(b.Sub(a), 0)
}

// tally groups reasons by their text without numbers.
type tally struct {
	count  int
	groups map[string]*ReasonCount
}

var digits = regexp.MustCompile(`[0-9]+`)

func (t *tally) add(reason string) {
	t.count++
	if t.groups == nil {
		t.groups = map[string]*ReasonCount{}
	}
	key := digits.ReplaceAllString(reason, "#")
	g := t.groups[key]
	if g == nil {
		g = &ReasonCount{}
		t.groups[key] = g
	}
	g.Reason = reason
	g.Count++
}

func (t tally) top() Tally {
	out := Tally{Count: t.count}
	for _, g := range t.groups {
		out.Top = append(out.Top, *g)
	}
	slices.SortFunc(out.Top, func(a, b ReasonCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Reason, b.Reason))
	})
	if len(out.Top) > TopReasons {
		out.Top = out.Top[:TopReasons]
	}
	return out
}
