package screen

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

// scriptRunner answers each run with the next of its replies (the last
// one again when they run out) and records the runs.
type scriptRunner struct {
	mu      sync.Mutex
	replies []string
	runs    [][]string
}

func (s *scriptRunner) Run(_ context.Context, args ...string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.runs = append(s.runs, args)
	reply := s.replies[min(len(s.runs), len(s.replies))-1]
	return reply, nil
}

func (s *scriptRunner) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.runs)
}

const (
	taken     = "There is already a screen running on 5.q-queryA.There is already a screen running on 5.q-queryA.\r\nTo resume it, use \"screen -r\"\r\n"
	deadTwice = "Remove dead screens with 'screen -wipe'.Remove dead screens with 'screen -wipe'.\n"
)

var queryWindow = Window{Session: "5.q", Window: "0"}

type queryResult struct {
	out string
	err error
}

// startQuery runs a -Q number in the background with a fake clock.
func startQuery(ctx context.Context, r Runner) (*clockwork.FakeClock, <-chan queryResult) {
	clock := clockwork.NewFakeClock()
	done := make(chan queryResult, 1)
	go func() {
		out, err := queryRetrying(ctx, r, clock, queryWindow, "number")
		done <- queryResult{out, err}
	}()
	return clock, done
}

// advance waits until the query waits before a retry, checks that it
// tried `tries` times so far, and moves the clock on by wait.
func advance(t *testing.T, clock *clockwork.FakeClock, r *scriptRunner, tries int, wait time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := clock.BlockUntilContext(ctx, 1); err != nil {
		t.Fatalf("query never waited to retry after %d tries", tries)
	}
	if n := r.count(); n != tries {
		t.Fatalf("query waits to retry after %d tries, want %d", n, tries)
	}
	clock.Advance(wait - time.Nanosecond)
	if n := r.count(); n != tries {
		t.Fatalf("query retried before its wait of %s was over", wait)
	}
	clock.Advance(time.Nanosecond)
}

func result(t *testing.T, done <-chan queryResult) queryResult {
	t.Helper()
	select {
	case res := <-done:
		return res
	case <-time.After(5 * time.Second):
		t.Fatal("query did not return")
		return queryResult{}
	}
}

func TestQueryRetriesLostReplies(t *testing.T) {
	for _, lost := range []string{taken, "", "\r\n", deadTwice} {
		r := &scriptRunner{replies: []string{lost, lost, "0 (claude)"}}
		clock, done := startQuery(context.Background(), r)
		advance(t, clock, r, 1, 20*time.Millisecond)
		advance(t, clock, r, 2, 40*time.Millisecond)
		res := result(t, done)
		if res.err != nil || res.out != "0 (claude)" || r.count() != 3 {
			t.Errorf("after two replies %q: query = %q, %v in %d tries; want the third reply", lost, res.out, res.err, r.count())
		}
	}
}

func TestQueryGivesUpAfterFiveTries(t *testing.T) {
	r := &scriptRunner{replies: []string{taken}}
	clock, done := startQuery(context.Background(), r)
	wait := 20 * time.Millisecond
	for tries := 1; tries < queryAttempts; tries++ {
		advance(t, clock, r, tries, wait)
		wait *= 2
	}
	res := result(t, done)
	if !errors.Is(res.err, errQueryLost) || r.count() != queryAttempts {
		t.Fatalf("query = %v in %d tries; want errQueryLost in %d", res.err, r.count(), queryAttempts)
	}
	for _, want := range []string{"-Q number", "session 5.q", msgQueryTaken, "5 tries"} {
		if !strings.Contains(res.err.Error(), want) {
			t.Errorf("error %q does not say %q", res.err, want)
		}
	}
}

func TestQueryStopsRetryingWhenContextEnds(t *testing.T) {
	r := &scriptRunner{replies: []string{""}}
	ctx, cancel := context.WithCancel(context.Background())
	clock, done := startQuery(ctx, r)
	bctx, bcancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer bcancel()
	if err := clock.BlockUntilContext(bctx, 1); err != nil {
		t.Fatal("query never waited to retry")
	}
	cancel()
	res := result(t, done)
	if !errors.Is(res.err, context.Canceled) || !errors.Is(res.err, errQueryLost) || r.count() != 1 {
		t.Errorf("query = %v in %d tries; want the lost reply and context.Canceled after 1", res.err, r.count())
	}
}

func TestQueryDoesNotRetryAnswers(t *testing.T) {
	for reply, want := range map[string]error{
		"0 (claude)":                   nil,
		deadTwice + "0 (bash)":         nil,
		msgNoSession + "\n":            ErrNoSession,
		msgNoWindow:                    ErrNoWindow,
		"-X: unknown command 'number'": nil, // an error, but not a lost reply
	} {
		r := &scriptRunner{replies: []string{reply}}
		out, err := queryRetrying(context.Background(), r, clockwork.NewFakeClock(), queryWindow, "number")
		if r.count() != 1 || errors.Is(err, errQueryLost) {
			t.Errorf("reply %q: %d tries, err %v; want one try", reply, r.count(), err)
		}
		if want != nil && !errors.Is(err, want) {
			t.Errorf("reply %q: err %v, want %v", reply, err, want)
		}
		if want == nil && err == nil && strings.HasPrefix(out, "Remove") {
			t.Errorf("reply %q: out %q keeps the dead-screen notice", reply, out)
		}
	}
}

func TestStripDeadNotice(t *testing.T) {
	for in, want := range map[string]string{
		"0 (bash)":              "0 (bash)",
		deadTwice + "0 (bash)":  "0 (bash)",
		msgDeadScreens + "\r\n": "",
		"0 (Remove dead screens with 'screen -wipe'.)": "0 (Remove dead screens with 'screen -wipe'.)",
	} {
		if got := stripDeadNotice(in); got != want {
			t.Errorf("stripDeadNotice(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLockedCommand(t *testing.T) {
	for _, tc := range []struct {
		args      []string
		key       string
		exclusive bool
		ok        bool
	}{
		{[]string{"-S", "123.work", "-p", "0", "-Q", "number"}, "123", true, true},
		{[]string{"-S", "0123.work", "-p", "0", "-X", "hardcopy", "/f"}, "123", false, true},
		{[]string{"-S", "work", "-Q", "info"}, "work", true, true},
		{[]string{"-S", "123.work", "-X", "stuff", "-Q"}, "123", false, true},
		{[]string{"-ls"}, "", false, false},
		{[]string{"-v"}, "", false, false},
		{[]string{"-Q", "number"}, "", false, false}, // no session: STY is scrubbed, screen finds none
	} {
		key, exclusive, ok := lockedCommand(tc.args)
		if ok != tc.ok || (ok && (key != tc.key || exclusive != tc.exclusive)) {
			t.Errorf("lockedCommand(%q) = %q, %v, %v; want %q, %v, %v", tc.args, key, exclusive, ok, tc.key, tc.exclusive, tc.ok)
		}
	}
}
