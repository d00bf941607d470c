package dash

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/codeman-dev/codeman/agents"
	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/internal/safetext"
)

// group is where a row sorts: what asks most of a person comes first.
type group int

const (
	groupNeedsYou group = iota
	groupWorking
	groupIdle
	groupWaiting
	groupPaused
	groupNotControlled
)

// recentWork is how long a watching pane counts as working after the
// screen last showed Claude at work.
const recentWork = time.Minute

// row is one pane as the daemon last described it. Its shown strings are
// what the pane controls (its target, its agent's questions, the reasons
// of decisions made from its screen), so they are made safe to show once,
// when st or the group changes (show), never in each frame.
type row struct {
	st      api.PaneStatus
	seq     uint64    // the request that read st: an older answer never replaces it
	fetched time.Time // when st was read: the evidence's durations count from then
	group   group
	label   string // the target, with its tmux server when there are several
	state   string // stateText, shown safe
	last    string // lastText, shown safe
	prof    string // profile, shown safe
}

// show sets the row's group and what it shows.
func (r *row) show(g group) {
	r.group = g
	r.state = safetext.Line(r.stateText())
	r.last = safetext.Line(r.lastText())
	r.prof = safetext.Line(r.profile())
}

// classify puts a pane in its group. A watching pane is working while the
// screen it was last read from showed work, or did within recentWork.
func classify(st api.PaneStatus, fetched, now time.Time) group {
	s, ev := st.Status, st.Status.Evidence
	switch {
	case st.Problem != "":
		return groupNotControlled
	case s.NeedsYou != nil:
		return groupNeedsYou
	case s.Paused:
		return groupPaused
	case s.Wait != "":
		return groupWaiting
	case s.State != "watching" && s.State != "stopped" && s.State != "":
		return groupWorking // a cycle, or codeman confirming that Claude is idle
	case ev.Working:
		return groupWorking
	case ev.SinceWorking > 0 && ev.SinceWorking+now.Sub(fetched) < recentWork:
		return groupWorking
	}
	return groupIdle
}

// stateText is the STATE column.
func (r *row) stateText() string {
	switch r.group {
	case groupNeedsYou:
		return "needs you"
	case groupIdle:
		return "idle"
	case groupWaiting:
		return "waiting"
	case groupPaused:
		return "paused"
	case groupNotControlled:
		return "not controlled"
	}
	if s := r.st.Status.State; s != "watching" {
		return strings.ReplaceAll(s, "_", " ")
	}
	return "working"
}

// since is when the row's state began, for the FOR column.
func (r *row) since() time.Time {
	s := r.st.Status
	switch r.group {
	case groupNeedsYou:
		return s.NeedsYou.Since
	case groupNotControlled:
		return r.st.ProblemAt
	case groupPaused:
		// The pause is the newest decision until another one comes.
		if n := len(s.Decisions); n > 0 && strings.HasPrefix(s.Decisions[n-1].Reason, "paused") {
			return s.Decisions[n-1].At
		}
	}
	return s.Since
}

// lastText is the LAST column: what the pane waits for when it waits,
// else the newest decision and its reason.
func (r *row) lastText() string {
	s := r.st.Status
	switch {
	case r.group == groupNeedsYou:
		return s.NeedsYou.String()
	case r.group == groupNotControlled:
		return r.st.Problem
	case r.group == groupWaiting:
		return s.Wait
	case len(s.Decisions) > 0:
		return s.Decisions[len(s.Decisions)-1].String()
	}
	return "-"
}

// profile is the pane's profile, after its agent when that is not the
// default one: "codex/overnight".
func (r *row) profile() string {
	profile := r.st.Profile
	if profile == "" {
		profile = "default"
	}
	if r.st.Agent != "" && r.st.Agent != agents.Default {
		return r.st.Agent + "/" + profile
	}
	return profile
}

// matches reports whether the row has filter (lower case) in what it
// shows or in its address.
func (r *row) matches(filter string) bool {
	if filter == "" {
		return true
	}
	for _, s := range []string{r.label, r.st.Pane, r.state, r.prof, r.st.Command} {
		if strings.Contains(strings.ToLower(s), filter) {
			return true
		}
	}
	return false
}

// compareRows orders rows by group, then by what they show, then by
// address so that the order is total.
func compareRows(a, b *row) int {
	return cmp.Or(cmp.Compare(a.group, b.group), strings.Compare(a.label, b.label), strings.Compare(a.st.Pane, b.st.Pane))
}

// labelRows names each row's target, prefixed with its tmux server when
// the rows span more than one: the socket's name, or its whole path where
// two names are alike.
func labelRows(rows map[string]*row) {
	addrs := make([]string, 0, len(rows))
	for _, r := range rows {
		addrs = append(addrs, r.st.Pane)
	}
	labels := api.ServerLabels(addrs)
	for _, r := range rows {
		r.label = cmp.Or(r.st.Target, r.st.Pane)
		if l := labels[api.TmuxSocket(r.st.Pane)]; l != "" {
			r.label = l + " " + r.label
		}
		r.label = safetext.Line(r.label)
	}
}

// sortedRows returns the rows in display order.
func sortedRows(rows map[string]*row) []*row {
	out := make([]*row, 0, len(rows))
	for _, r := range rows {
		out = append(out, r)
	}
	slices.SortFunc(out, compareRows)
	return out
}
