package claudetest

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/codeman-dev/codeman/internal/wait"
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
	var events []HookEvent
	found := -1
	err := wait.Until("hook "+what, timeout, func() bool {
		events = s.HookEvents()
		found = slices.IndexFunc(events, pred)
		return found >= 0
	})
	if err != nil {
		s.t.Fatalf("claudetest: %v; hooks seen: %s\n%s", err, hookNames(events), s.dump(s.captureOrError()))
	}
	return events[found]
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
