package hooks_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/hooks"
	"github.com/codeman-dev/codeman/internal/rig/wait"
	"github.com/codeman-dev/codeman/respawn"
)

const (
	askPayload      = `{"hook_event_name":"PreToolUse","tool_name":"AskUserQuestion","tool_input":{}}`
	postBashPayload = `{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`
	stopPayloadBare = `{"hook_event_name":"Stop","background_tasks":[]}`
)

// TestHandle_SpoolCoalescesByKind: with no daemon to consume them, a
// thousand events leave one marker per pane and kind, each the newest of
// its kind.
func TestHandle_SpoolCoalescesByKind(t *testing.T) {
	env, spool := tmuxEnv(t)
	payloads := []string{promptPayload, bashPayload, askPayload, postBashPayload, stopPayloadBare}
	newest := map[string]time.Time{}
	for i := range 1000 {
		p := payloads[i%len(payloads)]
		at := t0.Add(time.Duration(i) * time.Millisecond)
		fire(t, env, p, at)
		newest[p] = at
	}
	ms := readMarkers(t, spool)
	if len(ms) != len(payloads) {
		t.Fatalf("%d markers after 1000 events, want %d: %v", len(ms), len(payloads), markerFiles(t, spool))
	}
	var got, want []time.Time
	for _, m := range ms {
		got = append(got, m.At)
	}
	for _, at := range newest {
		want = append(want, at)
	}
	slices.SortFunc(got, time.Time.Compare)
	slices.SortFunc(want, time.Time.Compare)
	if !slices.Equal(got, want) {
		t.Errorf("marker times %v, want the newest of each kind %v", got, want)
	}
}

// TestHandle_SpoolPrunesStale: markers older than the watcher's stale age
// go at the next prune, however many panes left them.
func TestHandle_SpoolPrunesStale(t *testing.T) {
	env, spool := tmuxEnv(t)
	for i := range 300 {
		env["TMUX_PANE"] = fmt.Sprintf("%%%d", i)
		fire(t, env, promptPayload, t0.Add(time.Duration(i)*time.Millisecond))
	}
	if n := len(markerFiles(t, spool)); n != 300 {
		t.Fatalf("%d markers for 300 panes, want 300", n)
	}
	later := t0.Add(hooks.DefaultMaxAge + time.Minute)
	env["TMUX_PANE"] = "%1000"
	fire(t, env, promptPayload, later)
	ms := readMarkers(t, spool)
	if len(ms) != 1 || !ms[0].At.Equal(later) {
		t.Errorf("after a prune %d markers left, want only the fresh one", len(ms))
	}
}

// TestHandle_SpoolCountBound: past MaxSpoolMarkers fresh markers, a prune
// keeps the newest.
func TestHandle_SpoolCountBound(t *testing.T) {
	env, spool := tmuxEnv(t)
	total := hooks.MaxSpoolMarkers + 100
	for i := range total {
		env["TMUX_PANE"] = fmt.Sprintf("%%%d", i)
		fire(t, env, promptPayload, t0.Add(time.Duration(i)*time.Millisecond))
	}
	last := t0.Add(2 * time.Minute) // the next prune is due
	env["TMUX_PANE"] = "%99999"
	fire(t, env, promptPayload, last)
	ms := readMarkers(t, spool)
	if len(ms) != hooks.MaxSpoolMarkers {
		t.Fatalf("%d markers after a prune, want %d", len(ms), hooks.MaxSpoolMarkers)
	}
	oldestKept := t0.Add(time.Duration(total-hooks.MaxSpoolMarkers+1) * time.Millisecond)
	for _, m := range ms {
		if m.At.Before(oldestKept) {
			t.Errorf("kept a marker of %v, older than the newest %d", m.At, hooks.MaxSpoolMarkers)
		}
	}
}

// TestWatcher_BacklogKeepsEachKind: a backlog left while no daemon ran is
// delivered in time order, one event per kind: a pending question is not
// swallowed by a later ordinary tool call.
func TestWatcher_BacklogKeepsEachKind(t *testing.T) {
	checkNoLeak(t)
	env, spool := tmuxEnv(t)
	fire(t, env, askPayload, t0)
	fire(t, env, bashPayload, t0.Add(1*time.Second))
	fire(t, env, postBashPayload, t0.Add(2*time.Second))
	fire(t, env, bashPayload, t0.Add(3*time.Second))
	r := newFakeRouter()
	startWatcher(t, spool, r, clockwork.NewFakeClockAt(t0.Add(time.Minute)))
	got := r.waitCalls(t, 3)
	checkRouted(t, got, []routed{
		{testPane, respawn.Hook{Kind: respawn.HookQuestionPending, At: t0, Event: "PreToolUse", Tool: "AskUserQuestion"}},
		{testPane, respawn.Hook{Kind: respawn.HookToolFinished, At: t0.Add(2 * time.Second), Event: "PostToolUse", Tool: "Bash"}},
		{testPane, respawn.Hook{Kind: respawn.HookToolStarted, At: t0.Add(3 * time.Second), Event: "PreToolUse", Tool: "Bash"}},
	})
}

// TestWatcher_LiveBurstInOrder: events fired faster than the watcher takes
// them arrive in time order, and the last one of each kind arrives.
func TestWatcher_LiveBurstInOrder(t *testing.T) {
	checkNoLeak(t)
	env, spool := tmuxEnv(t)
	r := newFakeRouter()
	startWatcher(t, spool, r, clockwork.NewFakeClockAt(t0))
	payloads := []string{promptPayload, bashPayload, postBashPayload, askPayload, bashPayload, postBashPayload, stopPayloadBare}
	var last time.Time
	for i := range 70 {
		last = t0.Add(time.Duration(i) * time.Millisecond)
		fire(t, env, payloads[i%len(payloads)], last)
	}
	var got []routed
	wait.For(t, "the last event", waitLimit, func() bool {
		r.mu.Lock()
		got = slices.Clone(r.calls)
		r.mu.Unlock()
		return len(got) > 0 && got[len(got)-1].Hook.At.Equal(last)
	})
	for i := 1; i < len(got); i++ {
		if !got[i].Hook.At.After(got[i-1].Hook.At) {
			t.Errorf("hook %d at %v after one at %v: out of order", i, got[i].Hook.At, got[i-1].Hook.At)
		}
	}
	kinds := map[respawn.HookKind]time.Time{}
	for _, c := range got {
		kinds[c.Hook.Kind] = c.Hook.At
	}
	wantLast := map[respawn.HookKind]time.Time{
		respawn.HookStop:            last,
		respawn.HookToolFinished:    last.Add(-time.Millisecond),
		respawn.HookToolStarted:     last.Add(-2 * time.Millisecond),
		respawn.HookQuestionPending: last.Add(-3 * time.Millisecond),
		respawn.HookPromptSubmitted: last.Add(-6 * time.Millisecond),
	}
	for k, at := range wantLast {
		if !kinds[k].Equal(at) {
			t.Errorf("last %v routed at %v, want %v", k, kinds[k], at)
		}
	}
}
