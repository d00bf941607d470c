package codextest_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/codextest"
	"github.com/codeman-dev/codeman/internal/rig/fakeopenai"
)

// A turn end to end: the prompt reaches the fake, the reply shows with the
// done line, and the trusted hooks and the notify program run.
func TestSession_TurnHooksAndNotify(t *testing.T) {
	s := codextest.NewSession(t, codextest.Options{RecordHooks: true, RecordNotify: true})
	s.API().Handle("say hello", fakeopenai.Reply{Text: "Hello from the test."})

	start := time.Now()
	s.Type("say hello")
	screen := s.WaitFor(codextest.Done(1), "the done line", 20*time.Second)
	if !strings.Contains(screen, "Hello from the test.") {
		t.Errorf("reply not on screen:\n%s", screen)
	}
	stop := s.WaitForEvent(codextest.Hook("Stop", start), "Stop", 10*time.Second)
	if got := stop.Field("last_assistant_message"); got != "Hello from the test." {
		t.Errorf("Stop last_assistant_message = %q", got)
	}
	for _, name := range []string{"SessionStart", "UserPromptSubmit", "PreModelRequest", "PostModelRequest"} {
		s.WaitForEvent(codextest.Hook(name, start), name, 5*time.Second)
	}
	// The title side request is a thread of its own, whose turn is
	// notified too.
	thread := s.WaitForEvent(codextest.Hook("SessionStart", start), "SessionStart", 5*time.Second).Field("session_id")
	n := s.WaitForEvent(func(e codextest.Event) bool {
		return codextest.Notify("agent-turn-complete", start)(e) && e.Field("thread-id") == thread
	}, "notify of the session's turn", 10*time.Second)
	var payload map[string]any
	if err := json.Unmarshal(n.Payload, &payload); err != nil {
		t.Fatal(err)
	}
	if payload["last-assistant-message"] != "Hello from the test." {
		t.Errorf("notify payload %s", n.Payload)
	}
	if _, err := s.API().WaitForRequest(fakeopenai.UserTurn("say hello"), time.Second); err != nil {
		t.Error(err)
	}
}
