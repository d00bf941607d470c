package e2e

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/claudetest"
	"github.com/codeman-dev/codeman/respawn"
)

// sampleEvery is how often the monitor looks at the pane. A tmux client
// per look costs a few milliseconds of CPU.
const sampleEvery = 150 * time.Millisecond

// sample is one look at the pane.
type sample struct {
	At   time.Time
	Busy bool // the footer (Codex: the status row) says esc to interrupt
	// Spinner: the pane title's spinner turns, which Codex keeps up for a
	// whole turn, also while its reply streams and no status row shows.
	Spinner bool
	Dialog  bool   // a question, permission prompt or other menu is open
	Plan    bool   // the plan approval menu is open
	Input   string // text in the prompt box, placeholders aside
	Queued  bool   // Claude shows a message that was typed while it worked
}

// inputPrefix starts Claude's input row: ❯ and a no-break space
// (docs/claude-code.md).
const inputPrefix = "❯\u00a0"

// placeholders are dimmed hints of an empty prompt box, which plain
// capture-pane cannot tell from typed text (docs/claude-code.md).
var placeholders = []string{"Resend your message to try again", "Once fixed, resend your message"}

// queuedMarkers show a message submitted while Claude worked (docs/claude-code.md).
var queuedMarkers = []string{"Press up to edit queued messages", "Queued · "}

// readSample classifies one screen.
func readSample(at time.Time, screen string) sample {
	s := sample{
		At:     at,
		Busy:   claudetest.Busy(screen),
		Dialog: claudetest.DialogOpen(screen),
		Plan:   strings.Contains(screen, "Would you like to proceed?"),
	}
	for _, m := range queuedMarkers {
		s.Queued = s.Queued || strings.Contains(screen, m)
	}
	for _, line := range strings.Split(screen, "\n") {
		if rest, ok := strings.CutPrefix(line, inputPrefix); ok {
			s.Input = strings.TrimSpace(rest)
		}
	}
	for _, p := range placeholders {
		if s.Input == p {
			s.Input = ""
		}
	}
	if strings.HasPrefix(s.Input, `Try "`) { // an empty box may suggest a prompt
		s.Input = ""
	}
	return s
}

// monitor samples a pane's screen in the background for the whole test:
// an independent timeline of when Claude worked, showed a dialog or held
// typed text, to hold codeman's sends against.
type monitor struct {
	look       func(at time.Time) (sample, error) // one look at the pane
	stop, done chan struct{}

	mu      sync.Mutex
	samples []sample
	errs    int
	lastErr error
}

// watchScreen starts a monitor on Claude's pane; it stops at the test's
// end.
func watchScreen(t *testing.T, socket, pane string) *monitor {
	return watchWith(t, func(at time.Time) (sample, error) {
		screen, err := capturePane(socket, pane)
		if err != nil {
			return sample{}, err
		}
		return readSample(at, screen), nil
	})
}

// watchWith starts a monitor that looks at a pane with look; it stops at
// the test's end.
func watchWith(t *testing.T, look func(at time.Time) (sample, error)) *monitor {
	m := &monitor{look: look, stop: make(chan struct{}), done: make(chan struct{})}
	go m.run()
	t.Cleanup(m.close)
	return m
}

func (m *monitor) run() {
	defer close(m.done)
	tick := time.NewTicker(sampleEvery)
	defer tick.Stop()
	for {
		s, err := m.look(time.Now())
		m.mu.Lock()
		if err != nil {
			m.errs++
			m.lastErr = err
		} else {
			m.samples = append(m.samples, s)
		}
		m.mu.Unlock()
		select {
		case <-m.stop:
			return
		case <-tick.C:
		}
	}
}

func (m *monitor) close() {
	close(m.stop)
	<-m.done
}

// snapshot returns the samples so far.
func (m *monitor) snapshot() []sample {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]sample(nil), m.samples...)
}

// before returns the last sample taken before at.
func (m *monitor) before(at time.Time) (sample, bool) {
	samples := m.snapshot()
	for i := len(samples) - 1; i >= 0; i-- {
		if samples[i].At.Before(at) {
			return samples[i], true
		}
	}
	return sample{}, false
}

// between returns the samples taken from from to to.
func (m *monitor) between(from, to time.Time) []sample {
	var out []sample
	for _, s := range m.snapshot() {
		if !s.At.Before(from) && !s.At.After(to) {
			out = append(out, s)
		}
	}
	return out
}

// working reports whether the sample shows the agent at work.
func (s sample) working() bool { return s.Busy || s.Spinner }

// checkNoTypingWhileBusy fails the test when the pane ever showed text in
// the prompt box or a queued message while the agent worked: keys that
// reached a working session. The first working look after an idle one
// may still show the prompt being submitted, whether or not a look caught
// it typed: Codex starts its title spinner a frame before it empties the
// composer, and the monitor samples a frame only now and then.
func (m *monitor) checkNoTypingWhileBusy(t *testing.T, start time.Time) {
	t.Helper()
	var prev sample
	for i, s := range m.snapshot() {
		submitted := i > 0 && !prev.working() && (prev.Input == s.Input || prev.Input == "")
		prev = s
		if s.Queued || (s.working() && s.Input != "" && !submitted) {
			t.Errorf("screen at %s: the agent worked (busy=%t, spinner=%t) with %q in the prompt box (queued=%t): something was typed into a working session",
				rel(start, s.At), s.Busy, s.Spinner, s.Input, s.Queued)
		}
	}
}

// checkSends fails the test unless the last look at the pane before each
// of codeman's sends showed Claude idle and no dialog open, or, for a plan
// acceptance's Enter, the plan menu open.
func (m *monitor) checkSends(t *testing.T, start time.Time, sends []respawn.Decision) {
	t.Helper()
	for _, d := range sends {
		s, ok := m.before(d.At)
		if !ok {
			t.Errorf("send at %s (%s): the pane was never seen before it", rel(start, d.At), d)
			continue
		}
		accept := d.Step == respawn.StepAutoAccept
		switch {
		case s.working():
			t.Errorf("send at %s (%s): the screen at %s showed the agent working", rel(start, d.At), d, rel(start, s.At))
		case accept && !s.Plan:
			t.Errorf("send at %s (%s): the screen at %s showed no plan approval menu", rel(start, d.At), d, rel(start, s.At))
		case !accept && (s.Dialog || s.Plan):
			t.Errorf("send at %s (%s): the screen at %s showed a dialog", rel(start, d.At), d, rel(start, s.At))
		}
	}
}

// describe lists the timeline's changes for a failure dump.
func (m *monitor) describe(start time.Time) string {
	m.mu.Lock()
	errs, lastErr := m.errs, m.lastErr
	m.mu.Unlock()
	var b strings.Builder
	var last sample
	for i, s := range m.snapshot() {
		changed := s.Busy != last.Busy || s.Spinner != last.Spinner || s.Dialog != last.Dialog || s.Plan != last.Plan || s.Input != last.Input || s.Queued != last.Queued
		if i == 0 || changed {
			fmt.Fprintf(&b, "%s busy=%t spinner=%t dialog=%t plan=%t queued=%t input=%q\n", rel(start, s.At), s.Busy, s.Spinner, s.Dialog, s.Plan, s.Queued, s.Input)
		}
		last = s
	}
	if errs > 0 {
		fmt.Fprintf(&b, "(%d captures failed, the last: %v)\n", errs, lastErr)
	}
	return b.String()
}

// capturePane returns the pane's screen as plain text.
func capturePane(socket, pane string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "tmux", "-S", socket, "capture-pane", "-p", "-t", pane).Output()
	if err != nil {
		return "", fmt.Errorf("capture %s: %w", pane, err)
	}
	return strings.TrimSuffix(string(out), "\n"), nil
}

// rel formats t relative to start: "+12.345s".
func rel(start, t time.Time) string {
	return fmt.Sprintf("%+.3fs", t.Sub(start).Seconds())
}
