package notify

import (
	"slices"
	"testing"
	"time"
)

var t0 = time.Date(2026, 3, 4, 12, 0, 0, 0, time.UTC)

func at(d time.Duration) time.Time { return t0.Add(d) }

func permission(pane string) Hold {
	return Hold{Pane: pane, Target: "work:1.0 (" + pane + ")", Kind: "permission", Reason: "Claude needs your permission to use Bash"}
}

// titles returns what the core let through since the last take, by title.
func titles(c *core) []string {
	var out []string
	for _, m := range c.take().send {
		out = append(out, m.Title)
	}
	return out
}

func expectTitles(t *testing.T, c *core, when string, want ...string) {
	t.Helper()
	if got := titles(c); !slices.Equal(got, want) {
		t.Errorf("%s: sent %q, want %q", when, got, want)
	}
}

func TestCore_NotifiesAfterNotifyAfter(t *testing.T) {
	c := newCore(DefaultPolicy(), 10)
	c.raise(permission("%3"), t0)
	c.tick(at(29 * time.Second))
	expectTitles(t, c, "at 29s", nil...)
	if got := c.next(); !got.Equal(at(30 * time.Second)) {
		t.Errorf("next = %v, want 30s after the raise", got.Sub(t0))
	}
	c.tick(at(30 * time.Second))
	expectTitles(t, c, "at 30s", "work:1.0 (%3) needs you (permission, 30s)")
}

func TestCore_AnsweredAtOnceSendsNothing(t *testing.T) {
	p := DefaultPolicy()
	p.Resolved = true
	c := newCore(p, 10)
	c.raise(permission("%3"), t0)
	c.clear("%3", at(5*time.Second), at(5*time.Second))
	c.tick(at(time.Hour))
	expectTitles(t, c, "after a clear at 5s", nil...)
	if !c.next().IsZero() {
		t.Errorf("next = %v, want none", c.next())
	}
}

func TestCore_OncePerHoldThenRenotify(t *testing.T) {
	c := newCore(DefaultPolicy(), 10)
	c.raise(permission("%3"), t0)
	c.tick(at(30 * time.Second))
	c.take()
	for _, d := range []time.Duration{31 * time.Second, 5 * time.Minute, 30 * time.Minute} {
		c.raise(permission("%3"), at(d)) // the controller raises again as it sees the prompt again
		c.tick(at(d))
		expectTitles(t, c, "at "+d.String(), nil...)
	}
	c.tick(at(30*time.Minute + 30*time.Second))
	expectTitles(t, c, "after renotify", "work:1.0 (%3) still needs you (permission, 30m30s)")
	c.tick(at(60*time.Minute + 30*time.Second))
	expectTitles(t, c, "after two renotify", "work:1.0 (%3) still needs you (permission, 1h0m30s)")
}

func TestCore_RenotifyZeroNeverRepeats(t *testing.T) {
	p := DefaultPolicy()
	p.Renotify = 0
	c := newCore(p, 10)
	c.raise(permission("%3"), t0)
	c.tick(at(30 * time.Second))
	expectTitles(t, c, "at 30s", "work:1.0 (%3) needs you (permission, 30s)")
	if !c.next().IsZero() {
		t.Errorf("next = %v, want none", c.next())
	}
}

func TestCore_Resolved(t *testing.T) {
	for _, tc := range []struct {
		name     string
		resolved bool
		end      func(c *core)
		want     []string
	}{
		{"cleared with notify_resolved", true, func(c *core) { c.clear("%3", at(2*time.Minute), at(2*time.Minute+time.Second)) },
			[]string{"work:1.0 (%3) goes on (permission resolved after 2m)"}},
		{"cleared without notify_resolved", false, func(c *core) { c.clear("%3", time.Time{}, at(2*time.Minute)) }, nil},
		{"forgotten", true, func(c *core) { c.forget("%3") }, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := DefaultPolicy()
			p.Resolved = tc.resolved
			c := newCore(p, 10)
			c.raise(permission("%3"), t0)
			c.tick(at(30 * time.Second))
			c.take()
			tc.end(c)
			c.tick(at(2 * time.Hour))
			expectTitles(t, c, "after the end", tc.want...)
			if !c.next().IsZero() {
				t.Errorf("next = %v, want none", c.next())
			}
		})
	}
}

// A new kind on a held pane is a new hold: its own notify_after, its own
// count, and no resolved message for the one it replaces.
func TestCore_NewKindIsNewHold(t *testing.T) {
	p := DefaultPolicy()
	p.Resolved = true
	c := newCore(p, 10)
	c.raise(permission("%3"), t0)
	c.tick(at(30 * time.Second))
	c.take()
	q := Hold{Pane: "%3", Target: "work:1.0 (%3)", Kind: "question", Reason: "Which database?"}
	c.raise(q, at(40*time.Second))
	c.tick(at(69 * time.Second))
	expectTitles(t, c, "29s into the question", nil...)
	c.tick(at(70 * time.Second))
	expectTitles(t, c, "30s into the question", "work:1.0 (%3) needs you (question, 30s)")
}

// A new reason of the same kind updates the text and keeps the schedule
// and the start.
func TestCore_NewReasonSameHold(t *testing.T) {
	c := newCore(DefaultPolicy(), 10)
	c.raise(permission("%3"), t0)
	h := permission("%3")
	h.Reason = "Claude needs your permission to use Edit"
	h.Since = at(20 * time.Second)
	c.raise(h, at(20*time.Second))
	c.tick(at(30 * time.Second))
	sent := c.take().send
	if len(sent) != 1 || sent[0].Text != h.Reason || !sent[0].Hold.Since.Equal(t0) || sent[0].Held() != 30*time.Second {
		t.Fatalf("sent %+v, want one message with the new reason, held 30s since the first raise", sent)
	}
}

func TestCore_HoldPolicy(t *testing.T) {
	c := newCore(DefaultPolicy(), 10)
	h := permission("%3")
	h.Policy = &Policy{After: 5 * time.Second, Bell: false}
	c.raise(h, t0)
	muted := permission("%4")
	muted.Policy = &Policy{After: time.Second, Muted: true}
	c.raise(muted, t0)
	c.tick(at(5 * time.Second))
	sent := c.take().send
	if len(sent) != 1 || sent[0].Hold.Pane != "%3" || sent[0].Bell || sent[0].Hold.Policy != nil {
		t.Fatalf("sent %+v, want one message for %%3 without a bell and without the policy", sent)
	}
	c.tick(at(time.Hour))
	expectTitles(t, c, "an hour on", nil...)
}

// A hold the controller found already old (after a daemon restart)
// notifies at once.
func TestCore_OldHoldNotifiesAtOnce(t *testing.T) {
	c := newCore(DefaultPolicy(), 10)
	h := permission("%3")
	h.Since = t0.Add(-10 * time.Minute)
	c.raise(h, t0)
	c.tick(t0)
	expectTitles(t, c, "at the raise", "work:1.0 (%3) needs you (permission, 10m)")
}

func TestCore_RateLimit(t *testing.T) {
	p := DefaultPolicy()
	p.After, p.Resolved = 0, true
	c := newCore(p, 3)
	for _, pane := range []string{"%1", "%2", "%3", "%4", "%5"} {
		c.raise(permission(pane), t0)
	}
	c.tick(t0)
	b := c.take()
	if len(b.send) != 3 || !b.newBurst || b.dropped != 0 || c.delayed != 2 {
		t.Fatalf("first minute: sent %d, new burst %t, dropped %d, delayed %d; want 3, true, 0, 2", len(b.send), b.newBurst, b.dropped, c.delayed)
	}
	if got := c.next(); !got.Equal(at(time.Minute)) {
		t.Errorf("next = %v, want when the limit allows again, a minute on", got.Sub(t0))
	}
	// %4 never notified: its end says nothing. %1's end is over the
	// limit: dropped, and the burst goes on.
	c.clear("%4", time.Time{}, at(10*time.Second))
	c.clear("%1", time.Time{}, at(10*time.Second))
	if b := c.take(); len(b.send) != 0 || b.newBurst || b.dropped != 1 {
		t.Fatalf("within the minute: sent %d, new burst %t, dropped %d; want 0, false, 1", len(b.send), b.newBurst, b.dropped)
	}
	// A minute later the window is free again: %5 waited, and goes first
	// as a first message; the next holds over the limit wait in turn, a
	// new burst, logged again.
	for _, pane := range []string{"%6", "%7", "%8", "%9"} {
		c.raise(permission(pane), at(61*time.Second))
	}
	c.tick(at(61 * time.Second))
	b = c.take()
	if len(b.send) != 3 || b.send[0].Hold.Pane != "%5" || b.send[0].Count != 1 || !b.newBurst || c.delayed != 4 {
		t.Fatalf("next minute: sent %d (first %+v), new burst %t, delayed %d; want 3 with %%5 first, true, 4", len(b.send), b.send[0].Hold, b.newBurst, c.delayed)
	}
}

// A hold whose first message met the rate limit goes out as soon as the
// limit allows, whatever its renotify: another pane's flapping must not
// keep a person from hearing of a real prompt.
func TestCore_RateLimitedFirstMessageWaits(t *testing.T) {
	for _, renotify := range []time.Duration{0, DefaultRenotify} {
		p := DefaultPolicy()
		p.After, p.Renotify, p.Resolved = 0, renotify, true
		c := newCore(p, 4)
		for i := range 2 { // a flapping pane: raised, resolved, raised again
			c.raise(permission("%1"), at(time.Duration(i)*time.Second))
			c.tick(at(time.Duration(i) * time.Second))
			c.clear("%1", time.Time{}, at(time.Duration(i)*time.Second))
		}
		c.take()
		h := permission("%2")
		h.Reason = "Claude needs your permission to use Bash: rm -rf build"
		c.raise(h, at(20*time.Second))
		c.tick(at(20 * time.Second))
		expectTitles(t, c, "at the limit", nil...)
		if got := c.next(); !got.Equal(at(time.Minute)) {
			t.Fatalf("renotify %s: next = %v, want a minute after the first message", renotify, got.Sub(t0))
		}
		c.raise(h, at(30*time.Second)) // seen again while it waits
		c.tick(at(30 * time.Second))
		c.tick(at(time.Minute - time.Millisecond))
		expectTitles(t, c, "before the limit allows", nil...)
		c.tick(at(time.Minute))
		expectTitles(t, c, "once the limit allows", "work:1.0 (%2) needs you (permission, 40s)")
		if c.delayed != 1 || c.dropped != 0 {
			t.Errorf("delayed %d, dropped %d; want 1, 0", c.delayed, c.dropped)
		}
	}
}

func TestCore_Messages(t *testing.T) {
	h := Hold{Pane: "tmux:/tmp/s:%3", Kind: "question", Reason: "Which\ndatabase?\x1b", Since: t0}
	m := raisedMessage(h, DefaultPolicy(), 1, at(90*time.Second))
	if want := `tmux:/tmp/s:%3 needs you (question, 1m30s): Which database?\x1b`; m.Line() != want {
		t.Errorf("Line = %q, want %q", m.Line(), want)
	}
	if !m.Bell || m.Count != 1 || m.Event != EventRaised {
		t.Errorf("message = %+v", m)
	}
	h.Reason = ""
	if m := resolvedMessage(h, DefaultPolicy(), at(time.Hour)); m.Line() != "tmux:/tmp/s:%3 goes on (question resolved after 1h): question" {
		t.Errorf("resolved Line = %q", m.Line())
	}
}
