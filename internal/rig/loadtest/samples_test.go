//go:build linux

package loadtest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/simclaude"
	"github.com/codeman-dev/codeman/respawn"
)

// latencySample is one turn's end and the first key of the cycle after it,
// split where the daemon's decisions allow. overhead = tail + confirm +
// step + typing.
type latencySample struct {
	pane string
	turn int
	// latency: first key - last output - completion_confirm - inter_step_delay.
	latency time.Duration
	// wait is the silence that confirmed the turn's end: completion_confirm,
	// or hookConfirm once a Stop hook arrived (byHook).
	wait   time.Duration
	byHook bool
	// overhead: first key - last output - wait - inter_step_delay.
	overhead time.Duration
	// tail: the session logs turn_end -> its last output chunk reaches a
	// control client (the write of the last frame and tmux's delivery).
	tail time.Duration
	// confirm: beyond wait from that chunk until the cycle starts (the
	// timer, the snapshot it asks for, the idle gate).
	confirm time.Duration
	// step: beyond inter_step_delay until the update is sent.
	step time.Duration
	// typing: the send decision -> the first byte reaches the program
	// (Submit's send-keys, run as a tmux process).
	typing  time.Duration
	chunks  int // output chunks from turn start to the cycle's start
	times   turnTimes
	reasons []string // the decisions in between, for the slowest samples
}

// paneSamples pairs each "load turn K" turn_end in the session log with
// the first input after it, the daemon's decisions and the pane's output
// in between.
func paneSamples(p simPane, decisions []respawn.Decision, watch *outputWatch, turns int) ([]latencySample, error) {
	entries, err := simclaude.ReadLog(p.log)
	if err != nil {
		return nil, err
	}
	var out []latencySample
	for k := 1; k <= turns; k++ {
		s, err := turnSample(entries, decisions, fmt.Sprintf("load turn %d", k))
		if err != nil {
			return out, fmt.Errorf("%s turn %d: %w", p.addr, k, err)
		}
		s.pane, s.turn = p.addr, k
		s.splitOutput(watch, p.id)
		out = append(out, s)
	}
	return out, nil
}

// turnTimes are the moments of one sample.
type turnTimes struct {
	begin, end, started, sent, firstKey time.Time
}

func turnSample(entries []simclaude.LogEntry, decisions []respawn.Decision, prompt string) (latencySample, error) {
	var s latencySample
	begin := slices.IndexFunc(entries, func(e simclaude.LogEntry) bool { return e.Kind == simclaude.LogTurnStart && e.Text == prompt })
	if begin < 0 {
		return s, fmt.Errorf("no turn_start for %q in the session log", prompt)
	}
	end := indexFrom(entries, begin, func(e simclaude.LogEntry) bool { return e.Kind == simclaude.LogTurnEnd })
	if end < 0 || entries[end].Outcome != simclaude.OutcomeDone {
		return s, fmt.Errorf("the turn on %q did not end with a completion line", prompt)
	}
	key := indexFrom(entries, end, func(e simclaude.LogEntry) bool {
		switch e.Kind {
		case simclaude.LogKey, simclaude.LogPaste, simclaude.LogSubmit, simclaude.LogQueued:
			return true
		}
		return false
	})
	if key < 0 {
		return s, fmt.Errorf("no input after the turn on %q ended", prompt)
	}
	first := entries[key]
	if first.Kind != simclaude.LogKey || first.Text == "" || !strings.HasPrefix(respawn.DefaultUpdatePrompt, first.Text) {
		return s, fmt.Errorf("the first input after the turn is %+v, not the start of the update prompt", first)
	}
	tt := turnTimes{begin: entries[begin].T, end: entries[end].T, firstKey: first.T}
	seen := decisionAt(decisions, tt.begin, func(d respawn.Decision) bool { return d.Kind == respawn.DecisionState && d.To == "confirming_idle" })
	started := decisionAt(decisions, seen.At, func(d respawn.Decision) bool { return d.Kind == respawn.DecisionState && d.To == "sending_update" })
	sent := decisionAt(decisions, started.At, func(d respawn.Decision) bool { return d.Kind == respawn.DecisionSend && d.Step == respawn.StepUpdate })
	if seen.At.IsZero() || started.At.IsZero() || sent.At.IsZero() {
		return s, fmt.Errorf("the event stream lacks the decisions of the cycle after %q", prompt)
	}
	tt.started, tt.sent = started.At, sent.At
	s.times = tt
	s.wait = latencyConfirm
	if strings.Contains(started.Reason, "Stop hook") {
		s.wait, s.byHook = hookConfirm, true
	}
	s.latency = tt.firstKey.Sub(tt.end) - latencyConfirm - latencyStep
	s.overhead = tt.firstKey.Sub(tt.end) - s.wait - latencyStep
	s.step = tt.sent.Sub(tt.started) - latencyStep
	s.typing = tt.firstKey.Sub(tt.sent)
	// From a little before turn_end: the stamps come from two processes.
	from := tt.end.Add(-5 * time.Millisecond)
	for _, d := range decisions {
		if !d.At.Before(from) && !d.At.After(tt.sent) {
			s.reasons = append(s.reasons, d.At.Format("15:04:05.000")+" "+d.String())
		}
	}
	return s, nil
}

// splitOutput splits the time from turn_end to the cycle's start at the
// last output chunk the pane printed before it.
func (s *latencySample) splitOutput(watch *outputWatch, paneID string) {
	last, n := watch.lastIn(paneID, s.times.begin, s.times.started)
	if last.IsZero() {
		last = s.times.end // no chunk seen: count it all as the daemon's
	}
	s.chunks = n
	s.tail = last.Sub(s.times.end)
	s.confirm = s.times.started.Sub(last) - s.wait
}

func indexFrom(entries []simclaude.LogEntry, after int, match func(simclaude.LogEntry) bool) int {
	for i := after + 1; i < len(entries); i++ {
		if match(entries[i]) {
			return i
		}
	}
	return -1
}

// decisionAt returns the first matching decision at or after from.
func decisionAt(ds []respawn.Decision, from time.Time, match func(respawn.Decision) bool) respawn.Decision {
	if from.IsZero() {
		return respawn.Decision{}
	}
	for _, d := range ds {
		if !d.At.Before(from) && match(d) {
			return d
		}
	}
	return respawn.Decision{}
}

// reportLatency logs the percentiles of each part and the slowest samples,
// and fails when p99 misses the target.
func reportLatency(t *testing.T, samples []latencySample) {
	t.Helper()
	if want := *latPanesFlag * *turnsFlag; len(samples) < want {
		t.Errorf("%d samples, want %d", len(samples), want)
	}
	if len(samples) == 0 {
		return
	}
	pick := func(f func(latencySample) time.Duration) Summary {
		ds := make([]time.Duration, len(samples))
		for i, s := range samples {
			ds[i] = f(s)
		}
		return Summarize(ds)
	}
	total := pick(func(s latencySample) time.Duration { return s.latency })
	byHook := 0
	for _, s := range samples {
		if s.byHook {
			byHook++
		}
	}
	t.Logf("last output -> first key, beyond completion_confirm %s and inter_step_delay %s:\n  total     %s\n"+
		"%d of %d turn ends confirmed by the Stop hook's %s, the rest by completion_confirm; beyond the wait that applied:\n"+
		"  overhead  %s\n  tail      %s\n  confirm   %s\n  step      %s\n  typing    %s",
		latencyConfirm, latencyStep, total, byHook, len(samples), hookConfirm,
		pick(func(s latencySample) time.Duration { return s.overhead }),
		pick(func(s latencySample) time.Duration { return s.tail }),
		pick(func(s latencySample) time.Duration { return s.confirm }),
		pick(func(s latencySample) time.Duration { return s.step }),
		pick(func(s latencySample) time.Duration { return s.typing }))
	slowest := slices.Clone(samples)
	slices.SortFunc(slowest, func(a, b latencySample) int { return int(b.overhead - a.overhead) })
	for _, s := range slowest[:min(3, len(slowest))] {
		t.Logf("slow: %s turn %d: overhead %s (tail %s, confirm %s, step %s, typing %s)\n    turn_end %s, last chunk of %d at +%s\n    %s",
			s.pane, s.turn, ms(s.overhead), ms(s.tail), ms(s.confirm), ms(s.step), ms(s.typing),
			s.times.end.Format("15:04:05.000"), s.chunks, ms(s.tail), strings.Join(s.reasons, "\n    "))
	}
	// The target is the daemon's own time: the wait that applied is
	// reported above, not latency.
	if over := pick(func(s latencySample) time.Duration { return s.overhead }); over.P99 >= maxLatencyP99 {
		t.Errorf("p99 overhead %s, target under %s", ms(over.P99), ms(maxLatencyP99))
	}
}
