package codextest

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/codeman-dev/codeman/internal/wait"
)

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
// passes or codex exits first; what names the awaited condition.
func (s *Session) WaitFor(pred func(screen string) bool, what string, timeout time.Duration) string {
	s.t.Helper()
	screen, err := s.poll(pred, what, timeout)
	if err != nil {
		s.t.Fatalf("codextest: %v\n%s", err, s.dump(screen))
	}
	return screen
}

// WaitForExit waits until codex has exited and returns the pane's last
// screen and codex's exit status.
func (s *Session) WaitForExit(timeout time.Duration) (screen, status string) {
	s.t.Helper()
	err := wait.Until("codex to exit", timeout, func() bool {
		var err error
		screen, status, err = s.captureState()
		return err != nil || status != ""
	})
	if err != nil || status == "" {
		s.t.Fatalf("codextest: %v\n%s", err, s.dump(screen))
	}
	return screen, status
}

// poll is WaitFor without the failure. It gives up early when the pane
// cannot be read or codex has exited.
func (s *Session) poll(pred func(string) bool, what string, timeout time.Duration) (string, error) {
	var screen, dead string
	var held bool
	var captureErr error
	err := wait.Until(what, timeout, func() bool {
		screen, dead, captureErr = s.captureState()
		held = captureErr == nil && pred(screen)
		return held || captureErr != nil || dead != ""
	})
	switch {
	case captureErr != nil:
		return screen, fmt.Errorf("wait for %s: %w", what, captureErr)
	case held:
		return screen, nil
	case dead != "":
		return screen, fmt.Errorf("wait for %s: codex exited (status %s)", what, dead)
	}
	return screen, err
}

// captureState captures the screen and, in the same tmux call, whether the
// pane's program has exited (its exit status then, else "").
func (s *Session) captureState() (screen, deadStatus string, err error) {
	out, err := s.tmux.Run("capture-pane", "-p", "-t", s.pane, ";",
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
		fmt.Fprintf(&b, "%s %s %s status=%d tool_output=%t title=%t %q\n",
			r.At.Format("15:04:05.000"), r.Method, r.Path, r.Status, r.ToolOutput, r.Title, text)
	}
	return b.String()
}

// Events returns the hook calls and notify runs logged so far, oldest
// first. It needs Options.RecordHooks or Options.RecordNotify.
func (s *Session) Events() []Event {
	s.t.Helper()
	if s.events == "" {
		s.t.Fatal("codextest: Events needs Options.RecordHooks or Options.RecordNotify")
	}
	events, err := readEventLog(s.events)
	if err != nil {
		s.t.Fatalf("codextest: %v", err)
	}
	return events
}

// WaitForEvent returns the first logged event, past or future, that pred
// accepts. It fails the test after timeout, listing the events seen.
func (s *Session) WaitForEvent(pred func(Event) bool, what string, timeout time.Duration) Event {
	s.t.Helper()
	var events []Event
	found := -1
	err := wait.Until(what, timeout, func() bool {
		events = s.Events()
		found = slices.IndexFunc(events, pred)
		return found >= 0
	})
	if err != nil {
		s.t.Fatalf("codextest: %v; events seen: %s\n%s", err, eventNames(events), s.dump(s.captureOrError()))
	}
	return events[found]
}

// Hook returns a predicate for WaitForEvent: a call of the named hook
// event made after since (zero: any time).
func Hook(name string, since time.Time) func(Event) bool {
	return func(e Event) bool { return e.Kind == "hook" && e.Name == name && e.At.After(since) }
}

// Notify returns a predicate for WaitForEvent: a notification of the named
// type made after since (zero: any time).
func Notify(name string, since time.Time) func(Event) bool {
	return func(e Event) bool { return e.Kind == "notify" && e.Name == name && e.At.After(since) }
}

// eventNames lists events for a failure message.
func eventNames(events []Event) string {
	names := make([]string, 0, len(events))
	for _, e := range events {
		names = append(names, fmt.Sprintf("%s:%s@%s", e.Kind, e.Name, e.At.Format("15:04:05.000")))
	}
	return "[" + strings.Join(names, " ") + "]"
}
