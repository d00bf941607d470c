package claudetest

import (
	"fmt"
	"strings"
	"time"
)

// pollInterval is how often a wait captures the pane.
const pollInterval = 100 * time.Millisecond

// Capture returns the pane's screen as plain text, one line per row.
func (s *Session) Capture() string {
	s.t.Helper()
	return s.Tmux("capture-pane", "-p", "-t", s.pane)
}

// CaptureANSI returns the pane's screen with its colours and attributes as
// escape sequences (capture-pane -e).
func (s *Session) CaptureANSI() string {
	s.t.Helper()
	return s.Tmux("capture-pane", "-p", "-e", "-t", s.pane)
}

// WaitFor captures the pane until pred holds and returns that screen. It
// fails the test, dumping the pane and the fake API's log, when timeout
// passes or claude exits first; what names the awaited condition.
func (s *Session) WaitFor(pred func(screen string) bool, what string, timeout time.Duration) string {
	s.t.Helper()
	screen, err := s.poll(pred, timeout)
	if err != nil {
		s.t.Fatalf("claudetest: wait for %s: %v\n%s", what, err, s.dump(screen))
	}
	return screen
}

// poll is WaitFor without the failure.
func (s *Session) poll(pred func(string) bool, timeout time.Duration) (string, error) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	for {
		screen, dead, err := s.captureState()
		if err != nil {
			return screen, err
		}
		if pred(screen) {
			return screen, nil
		}
		if dead != "" {
			return screen, fmt.Errorf("claude exited (status %s)", dead)
		}
		select {
		case <-deadline.C:
			return screen, fmt.Errorf("not seen within %v", timeout)
		case <-tick.C:
		}
	}
}

// captureState captures the screen and, in the same tmux call, whether the
// pane's program has exited (its exit status then, else "").
func (s *Session) captureState() (screen, deadStatus string, err error) {
	out, err := s.tmux.run("capture-pane", "-p", "-t", s.pane, ";",
		"display-message", "-p", "-t", s.pane, "#{?pane_dead,dead #{pane_dead_status},alive}")
	if err != nil {
		return "", "", err
	}
	out = strings.TrimSuffix(out, "\n")
	cut := strings.LastIndexByte(out, '\n')
	screen, state := out[:cut+1], out[cut+1:]
	if status, ok := strings.CutPrefix(state, "dead "); ok {
		deadStatus = status
		if deadStatus == "" {
			deadStatus = "unknown"
		}
	}
	return strings.TrimSuffix(screen, "\n"), deadStatus, nil
}

// captureOrError returns the screen, or why it could not be read.
func (s *Session) captureOrError() string {
	screen, _, err := s.captureState()
	if err != nil {
		return err.Error()
	}
	return screen
}

// dump shows a failed wait's last screen and the fake API's recent
// requests.
func (s *Session) dump(screen string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "--- pane %s ---\n%s\n--- fake API requests ---\n", s.pane, screen)
	reqs := s.api.Requests()
	if len(reqs) > 10 {
		fmt.Fprintf(&b, "(%d earlier)\n", len(reqs)-10)
		reqs = reqs[len(reqs)-10:]
	}
	for _, r := range reqs {
		text := r.LastUserText
		if len(text) > 80 {
			text = text[:80] + "…"
		}
		fmt.Fprintf(&b, "%s %s %s status=%d tool_result=%t title=%t %q\n",
			r.At.Format("15:04:05.000"), r.Method, r.Path, r.Status, r.ToolResult, r.Title, text)
	}
	return b.String()
}
