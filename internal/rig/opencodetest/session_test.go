package opencodetest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/clitest"
	"github.com/codeman-dev/codeman/internal/rig/fakeapi"
	"github.com/codeman-dev/codeman/internal/rig/opencodetest"
)

// bash is a call of OpenCode's bash tool.
func bash(command, description string) *fakeapi.ToolCall {
	return &fakeapi.ToolCall{Name: "bash", Input: map[string]any{"command": command, "description": description}}
}

// The pinned CLI starts into the idle composer, asks the fake nothing until
// a prompt is sent, and a turn runs end to end: the prompt reaches the
// fake, the reply shows, the composer is idle again, and the recorder
// logged the prompt, the busy and idle statuses and session.idle.
func TestSession_StartAndTurn(t *testing.T) {
	s := opencodetest.NewSession(t, opencodetest.Options{RecordEvents: true})
	if got := s.Version(); got != opencodetest.Version {
		t.Errorf("version %q, want the pinned %s", got, opencodetest.Version)
	}
	if reqs := s.API().Requests(); len(reqs) != 0 {
		t.Errorf("the fake got %d requests at startup, want none", len(reqs))
	}
	if events := s.Events(); len(events) != 0 {
		t.Errorf("events at startup: %+v", events)
	}
	s.API().Handle("say hello", fakeapi.Reply{Text: "Hello from the test."})

	start := time.Now()
	s.Type("say hello")
	s.WaitFor(opencodetest.Replied("Hello from the test."), "the reply", 30*time.Second)
	idle := s.WaitForEvent(opencodetest.Hook("session.idle", start), "session.idle", 10*time.Second)
	if opencodetest.Property(idle, "sessionID") == "" {
		t.Errorf("session.idle without its session: %s", idle.Payload)
	}
	msg := s.WaitForEvent(opencodetest.Hook("chat.message", start), "chat.message", time.Second)
	busy := s.WaitForEvent(opencodetest.Status("busy", start), "session.status busy", time.Second)
	if !msg.At.Before(idle.At) || !busy.At.Before(idle.At) {
		t.Errorf("chat.message at %s and busy at %s, not before session.idle at %s", msg.At, busy.At, idle.At)
	}
	if _, err := s.API().WaitForRequest(fakeapi.UserText("say hello"), time.Second); err != nil {
		t.Error(err)
	}
}

// With bash set to ask, a command opens the permission prompt, which holds
// the turn: permission.asked is logged, the command does not run and the
// turn does not end.
func TestSession_PermissionPrompt(t *testing.T) {
	s := opencodetest.NewSession(t, opencodetest.Options{RecordEvents: true, Config: opencodetest.AskPermissions})
	s.API().Handle("make the file", fakeapi.Reply{
		Text: "Creating it.", Tool: bash("touch made.txt", "Create the file"), Next: &fakeapi.Reply{Text: "Done."},
	})

	start := time.Now()
	s.Type("make the file")
	screen := s.WaitFor(opencodetest.ShellPermissionOpen, "the permission prompt", 30*time.Second)
	if !strings.Contains(screen, "$ touch made.txt") {
		t.Errorf("the prompt does not show the command:\n%s", screen)
	}
	asked := s.WaitForEvent(opencodetest.Hook("permission.asked", start), "permission.asked", 10*time.Second)
	if got := opencodetest.Property(asked, "permission"); got != "bash" {
		t.Errorf("permission.asked permission = %q, want bash", got)
	}
	if _, err := os.Stat(filepath.Join(s.Dir(), "made.txt")); err == nil {
		t.Error("the command ran before anyone allowed it")
	}
	for _, e := range s.Events() {
		if opencodetest.Hook("session.idle", start)(e) {
			t.Errorf("session.idle while the prompt is open: %s", e.Payload)
		}
	}
}

// In a GNU screen window the same CLI starts into its idle composer, and a
// prompt typed through screen's display is answered.
func TestSession_Screen(t *testing.T) {
	s := opencodetest.NewSession(t, opencodetest.Options{Screen: true})
	if !strings.HasPrefix(s.Address(), "screen:") {
		t.Errorf("address %q, want a screen window's", s.Address())
	}
	s.Type("say hello")
	s.WaitFor(opencodetest.Replied(fakeapi.DefaultText), "the default reply", 30*time.Second)
	s.WaitFor(clitest.Contains(opencodetest.TitleText), "the session's title", 5*time.Second)
}
