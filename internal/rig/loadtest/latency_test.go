//go:build linux

package loadtest

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/internal/rig/wait"
	"github.com/codeman-dev/codeman/respawn"
)

// Waits of the latency measurement, subtracted from what is measured.
const (
	latencyConfirm = 2 * time.Second
	latencyStep    = 100 * time.Millisecond // the smallest inter_step_delay allowed
	maxLatencyP99  = 50 * time.Millisecond
	// hookConfirm is the silence that confirms a Stop hook: respawn's
	// hookConfirmDelay (3s) or completion_confirm, the shorter.
	hookConfirm = min(3*time.Second, latencyConfirm)
)

// latencyConfig cycles with the update prompt alone: the path from a
// turn's end to the first key is the same in a full cycle, and /clear and
// /init would only make each round longer.
var latencyConfig = fmt.Sprintf(`
[respawn]
completion_confirm = "%s"
inter_step_delay = "%s"
send_clear = false
send_init = false
kickstart_prompt = ""

[respawn.ai_idle_check]
enabled = false

[respawn.ai_plan_check]
enabled = false
`, latencyConfirm, latencyStep)

// simPane is one simulated session of the latency measurement.
type simPane struct {
	id, addr, log string
}

// measureLatency runs the turns with Claude's hooks going to the daemon
// (hooks) or without them, where only the screen tells a turn's end.
func measureLatency(t *testing.T, codeman string, hooks bool) {
	r := newRig(t, codeman, latencyConfig)
	sims := r.startSims(*latPanesFlag, hooks)
	var busy workingPanes
	if *busyFlag > 0 {
		busy = r.startWorkingPanes("b", *busyFlag, max(*busyFlag/10, 1))
	}
	watch := r.watchOutput(t, simIDs(sims))
	r.startDaemon()
	tr := newTracker()
	events, stopEvents := context.WithCancel(context.Background())
	streamDone := make(chan error, 1)
	go func() { streamDone <- r.client.Events(events, "", tr.on) }()
	for _, p := range sims {
		r.attach(p.addr)
	}
	for _, id := range busy.ids {
		r.attach(r.address(id))
	}
	t.Logf("%d simulated sessions x %d turns, %d working panes watched besides; load average %s",
		len(sims), *turnsFlag, len(busy.ids), LoadAverage())

	start := time.Now()
	errs := make(chan error, len(sims))
	var wg sync.WaitGroup
	for i, p := range sims {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Sessions of different people end their turns at different
			// times; without a stagger every pane would cycle in lockstep.
			time.Sleep(time.Duration(i) * *staggerFlag)
			errs <- r.driveTurns(p, tr, *turnsFlag)
		}()
	}
	wg.Wait()
	close(errs)
	stopEvents()
	if err := <-streamDone; err != nil {
		t.Errorf("event stream: %v", err)
	}
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	t.Logf("turns done in %s; load average %s", time.Since(start).Round(time.Second), LoadAverage())

	var samples []latencySample
	for _, p := range sims {
		s, err := paneSamples(p, tr.decisions(p.addr), watch, *turnsFlag)
		if err != nil {
			t.Error(err)
		}
		samples = append(samples, s...)
	}
	reportLatency(t, samples)
	t.Logf("tmux round trips from here, for comparison:\n%s", r.roundTrips(t, watch.client("s0"), sims[0].id, 30))
	if busy.ids != nil {
		r.checkBusyUntouched(t, busy)
	}
}

// startSims starts n simulated sessions, five to a tmux session, with
// Claude's hooks going to the rig's daemon when hooks is set, and waits
// for their prompt box.
func (r *rig) startSims(n int, hooks bool) []simPane {
	r.t.Helper()
	sims := make([]simPane, n)
	run := filepath.Join(r.dir, "run")
	ids := r.newPanes("s", n, 5, func(i int) []string {
		sims[i].log = filepath.Join(r.dir, fmt.Sprintf("sim%d.jsonl", i))
		argv := []string{"env", "XDG_RUNTIME_DIR=" + run, r.codeman, "sim-claude",
			"--work", "1s", "--seed", fmt.Sprint(i + 1), "--log", sims[i].log}
		if hooks {
			// codeman hook finds the pane from TMUX and TMUX_PANE, which
			// tmux sets, and its spool dir from XDG_RUNTIME_DIR, set above.
			argv = append(argv, "--hook-cmd", r.codeman+" hook")
		}
		return argv
	})
	for i, id := range ids {
		sims[i].id, sims[i].addr = id, r.address(id)
	}
	r.waitScreens(ids, "❯", 30*time.Second)
	return sims
}

func simIDs(sims []simPane) []string {
	ids := make([]string, len(sims))
	for i, p := range sims {
		ids[i] = p.id
	}
	return ids
}

// driveTurns plays the person at the keyboard: it submits a prompt, lets
// the daemon cycle the pane after the turn ends, and does it again once
// the cycle is over.
func (r *rig) driveTurns(p simPane, tr *tracker, turns int) error {
	for k := 1; k <= turns; k++ {
		ready := func(pt paneTrack) bool { return pt.updates == k-1 && (k == 1 || pt.state == "watching") }
		if err := tr.wait(p.addr, "the previous cycle to end", 60*time.Second, ready); err != nil {
			return fmt.Errorf("%s turn %d: %w", p.addr, k, err)
		}
		if err := r.submit(p.id, fmt.Sprintf("load turn %d", k)); err != nil {
			return fmt.Errorf("%s turn %d: %w", p.addr, k, err)
		}
		if err := tr.wait(p.addr, "the update prompt", 60*time.Second, func(pt paneTrack) bool { return pt.updates == k }); err != nil {
			return fmt.Errorf("%s turn %d: %w", p.addr, k, err)
		}
	}
	done := func(pt paneTrack) bool { return pt.state == "watching" }
	if err := tr.wait(p.addr, "the last cycle to end", 60*time.Second, done); err != nil {
		return fmt.Errorf("%s: %w", p.addr, err)
	}
	return nil
}

// submit types text and Enter as separate commands, as a person would. It
// runs outside the test's goroutine, so it returns errors.
func (r *rig) submit(paneID, text string) error {
	if _, err := r.tmux.Run("send-keys", "-t", paneID, "-l", "--", text); err != nil {
		return err
	}
	time.Sleep(100 * time.Millisecond) // Claude's input wants Enter as its own event
	_, err := r.tmux.Run("send-keys", "-t", paneID, "Enter")
	return err
}

// tracker follows every pane's decisions from the daemon's event stream.
type tracker struct {
	mu    sync.Mutex
	panes map[string]*paneTrack
}

// paneTrack is what the stream said about one pane.
type paneTrack struct {
	state     string
	updates   int // update prompts typed
	decisions []respawn.Decision
}

func newTracker() *tracker { return &tracker{panes: map[string]*paneTrack{}} }

func (tr *tracker) on(e api.Event) error {
	if e.Decision == nil {
		return nil
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	pt := tr.panes[e.Pane]
	if pt == nil {
		pt = &paneTrack{}
		tr.panes[e.Pane] = pt
	}
	d := *e.Decision
	pt.decisions = append(pt.decisions, d)
	switch {
	case d.Kind == respawn.DecisionState:
		pt.state = d.To
	case d.Kind == respawn.DecisionSend && d.Step == respawn.StepUpdate:
		pt.updates++
	}
	return nil
}

// wait polls the pane's track until cond holds; a timeout names what it
// waited for and the track's last state.
func (tr *tracker) wait(addr, what string, timeout time.Duration, cond func(paneTrack) bool) error {
	var pt paneTrack
	err := wait.Until(what, timeout, func() bool {
		tr.mu.Lock()
		pt = paneTrack{}
		if p := tr.panes[addr]; p != nil {
			pt = *p
		}
		tr.mu.Unlock()
		return cond(pt)
	})
	if err != nil {
		return fmt.Errorf("%w (state %q, %d update prompts)", err, pt.state, pt.updates)
	}
	return nil
}

func (tr *tracker) decisions(addr string) []respawn.Decision {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if p := tr.panes[addr]; p != nil {
		return append([]respawn.Decision(nil), p.decisions...)
	}
	return nil
}

// checkBusyUntouched fails for any input that reached the working panes
// watched during the latency measurement.
func (r *rig) checkBusyUntouched(t *testing.T, busy workingPanes) {
	t.Helper()
	if n := busy.inputs(t); n == 0 {
		t.Logf("no input reached the %d working panes", len(busy.ids))
	}
}
