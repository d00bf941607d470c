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
	sorted := slices.Clone(records)
	slices.SortStableFunc(sorted, func(a, b Record) int { return a.At.Compare(b.At) })
	r := NewReporter(from, to)
	for _, rec := range sorted {
		r.Add(rec)
	}
	return r.Digests()
}

// ReportDir is Report over the history files in dir, read as they are
// streamed (Each), so that its memory does not grow with their size.
func ReportDir(dir string, from, to time.Time) ([]Digest, Skipped, error) {
	r := NewReporter(from, to)
	skipped, err := Each(dir, "", time.Time{}, func(rec Record) error { r.Add(rec); return nil })
	if err != nil {
		return nil, skipped, err
	}
	return r.Digests(), skipped, nil
}

// Reporter digests records over [from, to) as they come, each pane's in
// time order; it keeps a few figures per pane, never the records.
type Reporter struct {
	from, to time.Time
	panes    map[string]*paneDigest
}

// NewReporter returns a Reporter of the span [from, to).
func NewReporter(from, to time.Time) *Reporter {
	return &Reporter{from: from, to: to, panes: map[string]*paneDigest{}}
}

// Add counts one record; those of a pane come in time order.
func (r *Reporter) Add(rec Record) {
	p := r.panes[rec.Pane]
	if p == nil {
		p = &paneDigest{d: Digest{Pane: rec.Pane, From: r.from, To: r.to}}
		r.panes[rec.Pane] = p
	}
	p.add(rec, r.from, r.to)
}

// Digests returns a Digest per pane known before the span's end, ordered
// by pane.
func (r *Reporter) Digests() []Digest {
	var out []Digest
	for _, p := range r.panes {
		if d, ok := p.finish(r.from, r.to); ok {
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

// paneDigest is one pane's Digest being added up.
type paneDigest struct {
	d      Digest
	m      model
	c      counts
	last   time.Time
	inSpan bool
	ended  bool // a record at or after the span's end came
}

func (p *paneDigest) add(r Record, from, to time.Time) {
	if p.ended || !r.At.Before(to) {
		p.ended = true
		return
	}
	if p.m.known {
		p.d.Time.add(p.m.bucket(), overlap(p.last, r.At, from, to))
	} else if r.At.After(from) {
		p.d.From = r.At
	}
	p.last = r.At
	p.m.apply(r)
	if !r.At.Before(from) {
		p.inSpan = true
		p.d.count(r, &p.c)
	}
}

func (p *paneDigest) finish(from, to time.Time) (Digest, bool) {
	if !p.m.known || (!p.inSpan && p.m.bucket() == bucketNotControlled) {
		return Digest{}, false
	}
	d := p.d
	d.Time.add(p.m.bucket(), overlap(p.last, to, from, to))
	d.Holds, d.Warnings = p.c.holds.top(), p.c.warns.top()
	d.NeedsYou = p.c.needEvents
	if d.NeedsYou == nil {
		d.NeedsYou = p.c.needWaits
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
