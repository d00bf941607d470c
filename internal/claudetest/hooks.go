package claudetest

import (
	"fmt"
	"strings"
	"time"
)

// HookEvents returns the hook calls logged so far, oldest first. It needs
// Options.RecordHooks.
func (s *Session) HookEvents() []HookEvent {
	s.t.Helper()
	if s.hooks == "" {
		s.t.Fatal("claudetest: HookEvents needs Options.RecordHooks")
	}
	events, err := readHookLog(s.hooks)
	if err != nil {
		s.t.Fatalf("claudetest: %v", err)
	}
	return events
}

// WaitForHook returns the first logged hook call, past or future, that
// pred accepts. It fails the test after timeout, listing the calls seen.
func (s *Session) WaitForHook(pred func(HookEvent) bool, what string, timeout time.Duration) HookEvent {
	s.t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	for {
		events := s.HookEvents()
		for _, e := range events {
			if pred(e) {
				return e
			}
		}
		select {
		case <-deadline.C:
			s.t.Fatalf("claudetest: wait for hook %s: not seen within %v; hooks seen: %s\n%s",
				what, timeout, hookNames(events), s.dump(s.captureOrError()))
		case <-tick.C:
		}
	}
}

// HookNamed returns a predicate for WaitForHook: a call of the named event
// made after since (zero: any time).
func HookNamed(name string, since time.Time) func(HookEvent) bool {
	return func(e HookEvent) bool { return e.Name == name && e.At.After(since) }
}

// hookNames lists events for a failure message.
func hookNames(events []HookEvent) string {
	names := make([]string, 0, len(events))
	for _, e := range events {
		names = append(names, fmt.Sprintf("%s@%s", e.Name, e.At.Format("15:04:05.000")))
	}
	return "[" + strings.Join(names, " ") + "]"
}
