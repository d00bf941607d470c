package hooks_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"go.uber.org/goleak"

	"github.com/codeman-dev/codeman/hooks"
	"github.com/codeman-dev/codeman/internal/rig/wait"
	"github.com/codeman-dev/codeman/respawn"
)

// waitLimit bounds every wait on the file system.
const waitLimit = 5 * time.Second

var t0 = time.Date(2026, 11, 29, 19, 0, 0, 0, time.UTC)

type routed struct {
	Pane string
	Hook respawn.Hook
}

// fakeRouter records every call; it refuses the panes in refuse.
type fakeRouter struct {
	refuse map[string]bool

	mu     sync.Mutex
	calls  []routed
	called chan struct{}
}

func newFakeRouter(refuse ...string) *fakeRouter {
	r := &fakeRouter{refuse: map[string]bool{}, called: make(chan struct{}, 100)}
	for _, p := range refuse {
		r.refuse[p] = true
	}
	return r
}

func (r *fakeRouter) RouteHook(pane string, h respawn.Hook) bool {
	r.mu.Lock()
	r.calls = append(r.calls, routed{pane, h})
	r.mu.Unlock()
	r.called <- struct{}{}
	return !r.refuse[pane]
}

// waitCalls waits for n calls and returns all calls so far.
func (r *fakeRouter) waitCalls(t *testing.T, n int) []routed {
	t.Helper()
	deadline := time.After(waitLimit)
	for {
		r.mu.Lock()
		calls := slices.Clone(r.calls)
		r.mu.Unlock()
		if len(calls) >= n {
			return calls
		}
		select {
		case <-r.called:
		case <-deadline:
			t.Fatalf("%d routed hooks after %s, want %d: %+v", len(calls), waitLimit, n, calls)
		}
	}
}

// checkNoLeak verifies, after every other cleanup, that the test left no
// goroutine behind.
func checkNoLeak(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) })
}

func startWatcher(t *testing.T, dir string, r hooks.Router, clock clockwork.Clock) *hooks.Watcher {
	t.Helper()
	w := hooks.NewWatcher(dir, r, hooks.WatcherOptions{Clock: clock, MaxSize: 4096})
	if err := w.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := w.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return w
}

// fire runs the hook handler for a payload at a time.
func fire(t *testing.T, env map[string]string, payload string, at time.Time) string {
	t.Helper()
	path, err := hooks.Handle(strings.NewReader(payload), envOf(env), at)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

func gone(path string) func() bool {
	return func() bool { _, err := os.Lstat(path); return os.IsNotExist(err) }
}

const (
	promptPayload = `{"hook_event_name":"UserPromptSubmit","prompt":"hello"}`
	bashPayload   = `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`
	startPayload  = `{"hook_event_name":"SessionStart","source":"startup"}`
	bgStopPayload = `{"hook_event_name":"Stop","background_tasks":[{"status":"running"}]}`
)

func TestWatcher_ExistingMarkersInOrder(t *testing.T) {
	checkNoLeak(t)
	env, spool := tmuxEnv(t)
	// Written out of order: the watcher goes by the marker's time.
	fire(t, env, bgStopPayload, t0.Add(2*time.Second))
	fire(t, env, promptPayload, t0)
	fire(t, env, bashPayload, t0.Add(time.Second))
	r := newFakeRouter()
	startWatcher(t, spool, r, clockwork.NewFakeClockAt(t0.Add(time.Minute)))

	got := r.waitCalls(t, 3)
	want := []routed{
		{testPane, respawn.Hook{Kind: respawn.HookPromptSubmitted, At: t0, Event: "UserPromptSubmit"}},
		{testPane, respawn.Hook{Kind: respawn.HookToolStarted, At: t0.Add(time.Second), Event: "PreToolUse", Tool: "Bash"}},
		{testPane, respawn.Hook{Kind: respawn.HookStop, At: t0.Add(2 * time.Second), Event: "Stop", Background: 1}},
	}
	checkRouted(t, got, want)
	wait.For(t, "the spool dir to empty", waitLimit, func() bool { return len(markerFiles(t, spool)) == 0 })
}

func checkRouted(t *testing.T, got, want []routed) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("routed %d hooks, want %d:\n%+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i].Pane != want[i].Pane || got[i].Hook != want[i].Hook || !got[i].Hook.At.Equal(want[i].Hook.At) {
			t.Errorf("call %d = %+v\nwant     %+v", i, got[i], want[i])
		}
	}
}

func TestWatcher_NewMarkers(t *testing.T) {
	checkNoLeak(t)
	env, spool := tmuxEnv(t)
	r := newFakeRouter()
	w := startWatcher(t, spool, r, clockwork.NewFakeClockAt(t0))
	if w.Active() {
		t.Error("Active before any marker")
	}
	if _, _, ok := w.LastEvent(testPane); ok {
		t.Error("LastEvent before any marker")
	}

	fire(t, env, promptPayload, t0)
	r.waitCalls(t, 1)
	fire(t, env, bashPayload, t0.Add(time.Second))
	got := r.waitCalls(t, 2)
	checkRouted(t, got, []routed{
		{testPane, respawn.Hook{Kind: respawn.HookPromptSubmitted, At: t0, Event: "UserPromptSubmit"}},
		{testPane, respawn.Hook{Kind: respawn.HookToolStarted, At: t0.Add(time.Second), Event: "PreToolUse", Tool: "Bash"}},
	})
	if name, at, ok := w.LastEvent(testPane); !ok || name != "PreToolUse" || !at.Equal(t0.Add(time.Second)) {
		t.Errorf("LastEvent = %s, %v, %v; want PreToolUse at t0+1s", name, at, ok)
	}
	if !w.Active() {
		t.Error("not Active after markers")
	}
}

func TestWatcher_StaleMarkers(t *testing.T) {
	checkNoLeak(t)
	env, spool := tmuxEnv(t)
	now := t0.Add(hooks.DefaultMaxAge + time.Minute)
	stale := fire(t, env, bgStopPayload, t0) // 11 minutes old
	fire(t, env, promptPayload, now.Add(-time.Minute))
	r := newFakeRouter()
	w := startWatcher(t, spool, r, clockwork.NewFakeClockAt(now))

	got := r.waitCalls(t, 1)
	wait.For(t, "the stale marker's removal", waitLimit, gone(stale))
	checkRouted(t, got, []routed{
		{testPane, respawn.Hook{Kind: respawn.HookPromptSubmitted, At: now.Add(-time.Minute), Event: "UserPromptSubmit"}},
	})
	if name, _, _ := w.LastEvent(testPane); name != "UserPromptSubmit" {
		t.Errorf("LastEvent = %s; a stale marker must not count", name)
	}
}

// TestWatcher_UncontrolledPane: a refused hook is dropped, its marker
// removed, and the pane's last event still known.
func TestWatcher_UncontrolledPane(t *testing.T) {
	checkNoLeak(t)
	env, spool := tmuxEnv(t)
	r := newFakeRouter(testPane)
	w := startWatcher(t, spool, r, clockwork.NewFakeClockAt(t0))
	path := fire(t, env, promptPayload, t0)
	r.waitCalls(t, 1)
	wait.For(t, "the refused marker's removal", waitLimit, gone(path))
	if name, _, ok := w.LastEvent(testPane); !ok || name != "UserPromptSubmit" {
		t.Errorf("LastEvent = %s, %v; want UserPromptSubmit", name, ok)
	}
}

// TestWatcher_NoSignal: an event without a signal is not routed but counts
// as activity.
func TestWatcher_NoSignal(t *testing.T) {
	checkNoLeak(t)
	env, spool := tmuxEnv(t)
	r := newFakeRouter()
	w := startWatcher(t, spool, r, clockwork.NewFakeClockAt(t0))
	path := fire(t, env, startPayload, t0)
	wait.For(t, "the marker's removal", waitLimit, gone(path))
	fire(t, env, promptPayload, t0.Add(time.Second))
	got := r.waitCalls(t, 1)
	if len(got) != 1 || got[0].Hook.Kind != respawn.HookPromptSubmitted {
		t.Errorf("routed %+v, want only the prompt", got)
	}
	if !w.Active() {
		t.Error("SessionStart did not count as activity")
	}
}

func TestWatcher_Junk(t *testing.T) {
	checkNoLeak(t)
	env, spool := tmuxEnv(t)
	valid := fire(t, env, promptPayload, t0) // also creates the spool dir
	outside := filepath.Join(t.TempDir(), "outside.json")
	big := strings.Repeat(" ", 5000) + `{}`
	files := map[string]string{
		".1-1-1.json.tmp": "{}",       // the handler's temp file: not a marker yet
		"notes.txt":       "keep me",  // not a marker
		"1-1-1.json":      "garbage",  // unreadable marker: dropped
		"1-1-2.json":      big,        // over MaxSize: dropped
		"1-1-3.json":      `{"x":1}`,  // no pane, event or time: dropped
		"1-1-4.json":      `["list"]`, // not an object: dropped
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(spool, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(outside, []byte(`{"pane":"`+testPane+`","event":"Stop","at":"2026-11-29T19:00:00Z"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(spool, "1-1-5.json")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}

	r := newFakeRouter()
	startWatcher(t, spool, r, clockwork.NewFakeClockAt(t0))
	got := r.waitCalls(t, 1)
	for _, name := range []string{filepath.Base(valid), "1-1-1.json", "1-1-2.json", "1-1-3.json", "1-1-4.json", "1-1-5.json"} {
		wait.For(t, name+" to be dropped", waitLimit, gone(filepath.Join(spool, name)))
	}
	// The valid marker's claim is removed only after it was routed.
	want := []string{".1-1-1.json.tmp", ".pruned", "notes.txt"}
	if err := wait.Until("the claim's removal", waitLimit, func() bool { return slices.Equal(dirNames(t, spool), want) }); err != nil {
		t.Errorf("spool dir holds %v, want only the temp file, the prune stamp and notes.txt", dirNames(t, spool))
	}
	if _, err := os.Stat(outside); err != nil {
		t.Errorf("link target touched: %v", err)
	}
	if len(got) != 1 || got[0].Hook.Kind != respawn.HookPromptSubmitted {
		t.Errorf("routed %+v, want only the prompt", got)
	}
}

// TestWatcher_DirDeleted: the spool dir removed or moved away under a
// running watcher is recreated and watched again.
func TestWatcher_DirDeleted(t *testing.T) {
	for _, how := range []string{"Removed", "Moved"} {
		t.Run(how, func(t *testing.T) {
			checkNoLeak(t)
			env, spool := tmuxEnv(t)
			r := newFakeRouter()
			startWatcher(t, spool, r, clockwork.NewFakeClockAt(t0))
			fire(t, env, promptPayload, t0)
			r.waitCalls(t, 1)

			var err error
			if how == "Removed" {
				err = os.RemoveAll(spool)
			} else {
				err = os.Rename(spool, spool+".old")
			}
			if err != nil {
				t.Fatal(err)
			}
			// Only the watcher creates it again: the handler has not run.
			wait.For(t, "the spool dir to come back", waitLimit, func() bool { _, err := os.Stat(spool); return err == nil })
			fire(t, env, bgStopPayload, t0.Add(time.Second))
			got := r.waitCalls(t, 2)
			if got[1].Hook.Kind != respawn.HookStop {
				t.Errorf("after recreation routed %+v, want the Stop", got[1])
			}
		})
	}
}

func TestWatcher_Close(t *testing.T) {
	checkNoLeak(t)
	_, spool := tmuxEnv(t)
	w := hooks.NewWatcher(spool, newFakeRouter(), hooks.WatcherOptions{})
	if err := w.Close(); err != nil {
		t.Errorf("Close before Start: %v", err)
	}
	w = hooks.NewWatcher(spool, newFakeRouter(), hooks.WatcherOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	if err := w.Start(ctx); err != nil {
		t.Fatal(err)
	}
	cancel() // the loop ends with its context; Close still releases the rest
	if err := w.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestWatcher_StartRefusesUnsafeDir(t *testing.T) {
	checkNoLeak(t)
	parent := t.TempDir()
	spool := filepath.Join(parent, "spool")
	if err := os.Symlink(t.TempDir(), spool); err != nil {
		t.Fatal(err)
	}
	w := hooks.NewWatcher(spool, newFakeRouter(), hooks.WatcherOptions{})
	if err := w.Start(context.Background()); err == nil {
		w.Close()
		t.Fatal("Start accepted a symlinked spool dir")
	}
}
