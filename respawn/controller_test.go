package respawn

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"go.uber.org/goleak"

	"github.com/codeman-dev/codeman/internal/rig/wait"
)

// fakeTerminal records what it is asked and shows a settable screen. It
// lives in respawn's own tests because they cannot import a package that
// imports respawn, and they need the controller's internals.
type fakeTerminal struct {
	mu     sync.Mutex
	screen []string
	calls  []string
	sent   chan string
	err    error
}

func newFakeTerminal(screen []string) *fakeTerminal {
	return &fakeTerminal{screen: screen, sent: make(chan string, 16)}
}

func (f *fakeTerminal) Submit(ctx context.Context, text string) error {
	return f.record("submit: " + text)
}

func (f *fakeTerminal) Press(ctx context.Context, key Key) error {
	return f.record("press: " + string(key))
}

func (f *fakeTerminal) record(call string) error {
	f.mu.Lock()
	f.calls = append(f.calls, call)
	err := f.err
	f.mu.Unlock()
	f.sent <- call
	return err
}

func (f *fakeTerminal) Snapshot(ctx context.Context) (Screen, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return Screen{Lines: append([]string(nil), f.screen...), Width: 200, Height: 50}, nil
}

// waitDecision waits, under a real deadline, for a decision containing substr.
func waitDecision(t *testing.T, ch <-chan Decision, substr string) Decision {
	t.Helper()
	return wait.Receive(t, fmt.Sprintf("a decision containing %q", substr), 5*time.Second, ch,
		func(d Decision) bool { return strings.Contains(d.String(), substr) })
}

func TestController_CyclesAnIdlePane(t *testing.T) {
	defer goleak.VerifyNone(t)
	clock := clockwork.NewFakeClock()
	term := newFakeTerminal(idleScreen())
	cfg := testConfig()
	cfg.SendClear, cfg.SendInit = false, false
	var statuses []string
	c := NewController(ControllerOptions{Pane: "tmux:/tmp/t:%1", Config: cfg, Agent: claudeReader, Terminal: term, Clock: clock,
		OnStatus: func(s string) { statuses = append(statuses, s) }})
	decisions, cancel := c.Subscribe()
	defer cancel()
	c.Start(context.Background())
	defer c.Stop()

	c.Output([]byte(chunkCompletion))
	waitDecision(t, decisions, "completion line")
	// completion_confirm, then inter_step_delay; the loop keeps one timer.
	clock.Advance(10 * time.Second)
	waitDecision(t, decisions, "cycle 1 starts")
	if err := clock.BlockUntilContext(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Second)
	select {
	case got := <-term.sent:
		if got != "submit: "+DefaultUpdatePrompt {
			t.Fatalf("sent %q", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the update prompt was not typed")
	}
	waitDecision(t, decisions, "update typed")
	st, err := c.Status(5)
	if err != nil || st.State != "waiting_update" || st.Cycles != 1 {
		t.Fatalf("status = %+v, %v", st, err)
	}
}

func TestController_HookDuringWork(t *testing.T) {
	defer goleak.VerifyNone(t)
	clock := clockwork.NewFakeClock()
	term := newFakeTerminal(workingScreen())
	c := NewController(ControllerOptions{Pane: "p", Config: testConfig(), Agent: claudeReader, Terminal: term, Clock: clock})
	decisions, cancel := c.Subscribe()
	defer cancel()
	c.Start(context.Background())
	c.Hook(Hook{Kind: HookQuestionPending, Tool: "AskUserQuestion", At: clock.Now()})
	waitDecision(t, decisions, "question_pending")
	c.Stop()
	if _, err := c.Status(1); !errors.Is(err, ErrStopped) {
		t.Fatalf("Status after Stop: %v", err)
	}
	if len(term.calls) != 0 {
		t.Fatalf("terminal calls: %v", term.calls)
	}
}

// Output that only moves the silence deadline later wakes no loop, so the
// timer fires at the deadline it was armed for: that tick finds nothing
// due, and the idle pane is cycled a full silence after its last output.
func TestController_SilenceCountsFromLastOutputWithALazyTimer(t *testing.T) {
	defer goleak.VerifyNone(t)
	clock := clockwork.NewFakeClock()
	c := NewController(ControllerOptions{Pane: "p", Config: testConfig(), Agent: claudeReader, Terminal: newFakeTerminal(idleScreen()), Clock: clock})
	decisions, cancel := c.Subscribe()
	defer cancel()
	c.Start(context.Background())
	defer c.Stop()
	waitDecision(t, decisions, "started")
	var last time.Time
	for range 10 {
		clock.Advance(DefaultNoOutputTimeout / 3)
		last = clock.Now()
		c.Output([]byte(chunkText))
	}
	clock.Advance(DefaultNoOutputTimeout)
	d := waitDecision(t, decisions, "cycle 1 starts")
	if want := last.Add(DefaultNoOutputTimeout); d.At.Before(want) {
		t.Fatalf("cycle started at %s, before %s of silence after the last output at %s",
			d.At.Format(time.TimeOnly), DefaultNoOutputTimeout, last.Format(time.TimeOnly))
	}
}

// A core or a controller without an agent could read no screen: building
// one panics at once, naming what is missing, rather than at the first
// output.
func TestNew_NeedsAgent(t *testing.T) {
	for name, build := range map[string]func(){
		"NewCore": func() { NewCore("p", testConfig(), nil) },
		"NewController": func() {
			NewController(ControllerOptions{Pane: "p", Config: testConfig(), Terminal: newFakeTerminal(idleScreen())})
		},
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if msg, _ := recover().(string); !strings.Contains(msg, name+" without") || !strings.Contains(msg, "Agent") {
					t.Errorf("%s without an agent panicked with %q; want a message naming it and the Agent", name, msg)
				}
			}()
			build()
		})
	}
}
