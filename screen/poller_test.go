package screen

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"go.uber.org/goleak"
)

type event struct {
	data string
	at   time.Time
}

// startPoller starts a poller on window 0 of f with a fake clock and
// returns it with the channel its output arrives on. opts may change the
// options first.
func startPoller(t *testing.T, f *fakeScreen, opts ...func(*PollerOptions)) (*Poller, *clockwork.FakeClock, chan event) {
	t.Helper()
	clock := clockwork.NewFakeClock()
	dir := t.TempDir()
	o := PollerOptions{Runner: f, Clock: clock, TempDir: dir}
	for _, set := range opts {
		set(&o)
	}
	p := NewPoller(Window{Session: f.session, Window: "0"}, o)
	events := make(chan event, 16)
	p.Subscribe(func(data []byte, at time.Time) { events <- event{string(data), at} })
	if err := p.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Error(err)
		}
		if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) > 0 {
			t.Errorf("files left after Close: %v", left)
		}
	})
	return p, clock, events
}

// tick waits until the poller waits for its ticker and moves the clock
// one interval on.
func tick(t *testing.T, clock *clockwork.FakeClock) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := clock.BlockUntilContext(ctx, 1); err != nil {
		t.Fatal("poller never waited for its ticker")
	}
	clock.Advance(DefaultPollInterval)
}

func nextEvent(t *testing.T, events <-chan event) event {
	t.Helper()
	select {
	case e := <-events:
		return e
	case <-time.After(5 * time.Second):
		t.Fatal("no output event")
		return event{}
	}
}

func TestPoller_StartTakesFirstSnapshot(t *testing.T) {
	f := newFakeScreen("77.work")
	f.addWindow("0", 100, "hello", "", "$ ", "")
	p, clock, events := startPoller(t, f)
	s, ok := p.Snapshot()
	if !ok {
		t.Fatal("no snapshot after Start")
	}
	if strings.Join(s.Lines, "|") != "hello||$|" {
		t.Errorf("lines = %q", s.Lines)
	}
	if s.Width != 100 || s.Height != 4 || !s.At.Equal(clock.Now()) {
		t.Errorf("snapshot %dx%d at %v, want 100x4 at %v", s.Width, s.Height, s.At, clock.Now())
	}
	select {
	case e := <-events:
		t.Errorf("the first screen was reported as output: %q", e.data)
	default:
	}
}

func TestPoller_ReportsChangesOnly(t *testing.T) {
	f := newFakeScreen("77.work")
	f.addWindow("0", 80, "$ ", "", "")
	p, clock, events := startPoller(t, f)

	tick(t, clock) // unchanged: no event
	f.setRows("0", "$ ls", "a.txt", "")
	tick(t, clock)
	e := nextEvent(t, events)
	if e.data != "$ ls\na.txt\n" || !e.at.Equal(clock.Now()) {
		t.Errorf("event %q at %v, want the two changed rows at %v", e.data, e.at, clock.Now())
	}
	s, _ := p.Snapshot()
	if strings.Join(s.Lines, "|") != "$ ls|a.txt|" {
		t.Errorf("snapshot lines = %q", s.Lines)
	}
	tick(t, clock) // unchanged again
	f.setRows("0", "$ ls", "a.txt", "$ ")
	tick(t, clock)
	if e := nextEvent(t, events); e.data != "$\n" {
		t.Errorf("event %q, want only the new prompt row", e.data)
	}
	if n := strings.Count(strings.Join(f.commands(), ";"), "Q info"); n != 1 {
		t.Errorf("-Q info asked %d times, want once (at start)", n)
	}
}

func TestPoller_ResizeAsksForSizeAgain(t *testing.T) {
	f := newFakeScreen("77.work")
	f.addWindow("0", 80, "a", "b")
	p, clock, events := startPoller(t, f)
	f.mu.Lock()
	f.windows["0"].width = 120
	f.windows["0"].rows = []string{"a", "b", "c"}
	f.mu.Unlock()
	tick(t, clock)
	// A hardcopy with more rows than the window had is complete once it
	// stopped growing, which takes clock time.
	advanceUntilEvent(t, clock, events)
	s, _ := p.Snapshot()
	if s.Width != 120 || s.Height != 3 {
		t.Errorf("snapshot %dx%d after resize, want 120x3", s.Width, s.Height)
	}
}

func TestPoller_RepairsLegacyHardcopy(t *testing.T) {
	f := newFakeScreen("77.work")
	f.addWindow("0", 80, string([]byte{0, 0, 0}), "o\xa0", string([]byte{0, 0, 0}))
	p, _, _ := startPoller(t, f)
	s, _ := p.Snapshot()
	if got := strings.Join(s.Lines, "|"); got != "───|❯\u00a0|───" {
		t.Errorf("screen 4.9 lines = %q, want the prompt box repaired", got)
	}

	f5 := newFakeScreen("78.work")
	f5.version = "Screen version 5.0.1 (build on 2025-05-12 19:00:00)\n"
	f5.addWindow("0", 80, "───", "❯\u00a0", "o no")
	p5, _, _ := startPoller(t, f5)
	s, _ = p5.Snapshot()
	if got := strings.Join(s.Lines, "|"); got != "───|❯\u00a0|o no" {
		t.Errorf("screen 5 lines = %q, want them as written", got)
	}
}

func TestPoller_SessionEndStopsWithReason(t *testing.T) {
	f := newFakeScreen("77.work")
	f.addWindow("0", 80, "x")
	p, clock, _ := startPoller(t, f)
	f.end()
	tick(t, clock)
	waitDone(t, p)
	err := p.Err()
	if !errors.Is(err, ErrNoSession) || !strings.Contains(err.Error(), "session 77.work ended") {
		t.Errorf("Err() = %v, want the session's end", err)
	}
}

func TestPoller_ClosedWindowStopsWithReason(t *testing.T) {
	f := newFakeScreen("77.work")
	f.addWindow("0", 80, "x")
	f.addWindow("1", 80, "y")
	p, clock, _ := startPoller(t, f)
	f.closeWindow("0")
	tick(t, clock)
	// -X hardcopy to a closed window is dropped without a word: the poller
	// waits out the capture timeout, then asks.
	advanceUntilDone(t, clock, p)
	err := p.Err()
	if !errors.Is(err, ErrNoWindow) || !strings.Contains(err.Error(), "window screen:77.work:0 closed") {
		t.Errorf("Err() = %v, want the window's end", err)
	}
}

// A window whose number now runs another program stops the poller before
// the new program's screen reaches anyone.
func TestPoller_ReplacedWindowStopsWithReason(t *testing.T) {
	f := newFakeScreen("77.work")
	f.addWindow("0", 80, "claude")
	var mu sync.Mutex
	proc := Process{PID: 100, Start: 5}
	p, clock, events := startPoller(t, f, func(o *PollerOptions) {
		o.Identify = func(w Window) (Process, bool) {
			mu.Lock()
			defer mu.Unlock()
			return proc, w.Window == "0"
		}
	})
	f.setRows("0", "claude working")
	tick(t, clock)
	if e := nextEvent(t, events); !strings.Contains(e.data, "claude working") {
		t.Fatalf("output %q", e.data)
	}

	f.setRows("0", "$ vim notes")
	mu.Lock()
	proc = Process{PID: 100, Start: 9} // the same PID, reused
	mu.Unlock()
	tick(t, clock)
	waitDone(t, p)
	err := p.Err()
	if !errors.Is(err, ErrWindowReplaced) || !strings.Contains(err.Error(), "window screen:77.work:0 now runs another program") {
		t.Errorf("Err() = %v, want the window replaced", err)
	}
	select {
	case e := <-events:
		t.Errorf("the new program's screen was delivered: %q", e.data)
	default:
	}
}

func TestPoller_MissedHardcopyIsRetried(t *testing.T) {
	f := newFakeScreen("77.work")
	f.addWindow("0", 80, "x")
	p, clock, events := startPoller(t, f)
	f.mu.Lock()
	f.silentHC = true
	f.mu.Unlock()
	tick(t, clock)
	advanceUntil(t, clock, func() bool { return strings.Contains(strings.Join(f.commands(), ";"), "Q number") })
	f.mu.Lock()
	f.silentHC = false
	f.windows["0"].rows = []string{"y"}
	f.mu.Unlock()
	if e := advanceUntilEvent(t, clock, events); e.data != "y\n" {
		t.Errorf("event %q after a missed hardcopy, want y", e.data)
	}
	if p.Err() != nil {
		t.Errorf("Err() = %v after one missed hardcopy", p.Err())
	}
}

func TestPoller_StartErrors(t *testing.T) {
	f := newFakeScreen("77.work")
	f.addWindow("0", 80, "x")
	for name, tt := range map[string]struct {
		w    Window
		opts PollerOptions
		want string
	}{
		"ShortInterval": {Window{"77.work", "0"}, PollerOptions{PollInterval: 100 * time.Millisecond}, "under the minimum of 200ms"},
		"NoWindow":      {Window{"77.work", "5"}, PollerOptions{}, "no such screen window: screen:77.work:5"},
		"NoSession":     {Window{"78.other", "0"}, PollerOptions{}, "no such screen session: 78.other"},
	} {
		t.Run(name, func(t *testing.T) {
			tt.opts.Runner, tt.opts.TempDir = f, t.TempDir()
			p := NewPoller(tt.w, tt.opts)
			err := p.Start(context.Background())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Start() = %v, want %q", err, tt.want)
			}
			select {
			case <-p.Done():
			default:
				t.Error("Done not closed after a failed Start")
			}
			if err := p.Close(); err != nil {
				t.Errorf("Close after a failed Start: %v", err)
			}
		})
	}
	old := newFakeScreen("77.work")
	old.version = "Screen version 4.00.03 (FAU) 23-Oct-06\n"
	old.addWindow("0", 80, "x")
	err := NewPoller(Window{"77.work", "0"}, PollerOptions{Runner: old, TempDir: t.TempDir()}).Start(context.Background())
	if err == nil || !strings.Contains(err.Error(), "too old") {
		t.Errorf("Start on screen 4.0 = %v, want too old", err)
	}
}

func TestPoller_CloseLeavesNothingRunning(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	f := newFakeScreen("77.work")
	f.addWindow("0", 80, "x")
	dir := t.TempDir()
	p := NewPoller(Window{"77.work", "0"}, PollerOptions{Runner: f, Clock: clockwork.NewFakeClock(), TempDir: dir})
	if err := p.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	<-p.Done()
	if p.Err() != nil {
		t.Errorf("Err() = %v after Close, want nil", p.Err())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("hardcopy directory left behind: %v", entries)
	}
}

// advanceUntilEvent moves the fake clock on in small steps until an
// output event arrives.
func advanceUntilEvent(t *testing.T, clock *clockwork.FakeClock, events <-chan event) event {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		select {
		case e := <-events:
			return e
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("no output event")
		}
		clock.Advance(captureMaxWait)
		runtime.Gosched()
	}
}

func waitDone(t *testing.T, p *Poller) {
	t.Helper()
	select {
	case <-p.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("poller did not stop")
	}
}

// advanceUntilDone moves the fake clock on, in capture waits, until the
// poller stops.
func advanceUntilDone(t *testing.T, clock *clockwork.FakeClock, p *Poller) {
	t.Helper()
	advanceUntil(t, clock, func() bool {
		select {
		case <-p.Done():
			return true
		default:
			return false
		}
	})
}

// advanceUntil moves the fake clock on whenever the poller waits on a
// timer besides its ticker, until cond holds.
func advanceUntil(t *testing.T, clock *clockwork.FakeClock, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition never held")
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
		if clock.BlockUntilContext(ctx, 2) == nil {
			clock.Advance(captureMaxWait)
		}
		cancel()
	}
}
