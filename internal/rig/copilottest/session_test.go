package copilottest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/clitest"
	"github.com/codeman-dev/codeman/internal/rig/copilottest"
	"github.com/codeman-dev/codeman/internal/rig/fakeopenai"
)

// Untrusted, Copilot asks first; "1" trusts the folder for this run.
func TestSession_TrustDialog(t *testing.T) {
	s := copilottest.NewSession(t, copilottest.Options{Untrusted: true})
	s.SendKeys("1")
	s.WaitFor(copilottest.PromptReady, "the idle box after trusting the folder", 10*time.Second)
}

// The pinned CLI starts into the idle box of a trusted project, without the
// trust dialog, and asks the fake nothing until a prompt is sent. A turn
// end to end: the prompt reaches the fake, the reply shows, the idle box
// comes back and Copilot's hooks report the turn.
func TestSession_TurnAndHooks(t *testing.T) {
	s := copilottest.NewSession(t, copilottest.Options{RecordHooks: true})
	if got := s.Version(); got != copilottest.Version {
		t.Errorf("version %q, want the pinned %s", got, copilottest.Version)
	}
	// The project dir is under HOME, which Copilot shows as ~.
	screen := s.Capture()
	if !strings.Contains(screen, " ~/proj\n") || copilottest.TrustOpen(screen) {
		t.Errorf("idle screen without the project dir, or with the trust dialog:\n%s", screen)
	}
	if reqs := s.API().Requests(); len(reqs) != 0 {
		t.Errorf("the fake got %d requests at startup, want none", len(reqs))
	}
	if events := s.Events(); len(events) != 0 {
		t.Errorf("hooks ran at startup: %+v", events)
	}
	s.API().Handle("say hello", fakeopenai.Reply{Text: "Hello from the test."})

	start := time.Now()
	s.Type("say hello")
	s.WaitFor(copilottest.Replied("Hello from the test."), "the reply", 20*time.Second)
	stop := s.WaitForEvent(copilottest.MainTurnDone(start), "agentStop", 10*time.Second)
	if got := stop.Field("stopReason"); got != "end_turn" {
		t.Errorf("agentStop stopReason = %q, want end_turn", got)
	}
	submitted := s.WaitForEvent(copilottest.Hook("userPromptSubmitted", start), "userPromptSubmitted", 5*time.Second)
	if got := submitted.Field("prompt"); got != "say hello" {
		t.Errorf("userPromptSubmitted prompt = %q", got)
	}
	if got := s.WaitForEvent(copilottest.Hook("sessionStart", start), "sessionStart", 5*time.Second).Field("source"); got != "new" {
		t.Errorf("sessionStart source = %q, want new", got)
	}
	if _, err := s.API().WaitForRequest(fakeopenai.UserTurn("say hello"), time.Second); err != nil {
		t.Error(err)
	}
}

// A command that needs permission opens the shell permission prompt, which
// holds the turn: the command does not run and the turn does not end.
func TestSession_PermissionPrompt(t *testing.T) {
	s := copilottest.NewSession(t, copilottest.Options{RecordHooks: true})
	s.API().Handle("make the file", fakeopenai.Reply{
		Text: "Creating it.",
		Tool: &fakeopenai.ToolCall{Name: "bash", Arguments: map[string]any{"command": "touch made.txt", "description": "Create the file"}},
		Next: &fakeopenai.Reply{Text: "Done."},
	})

	start := time.Now()
	s.Type("make the file")
	screen := s.WaitFor(copilottest.ShellPermissionOpen, "the permission prompt", 20*time.Second)
	if !strings.Contains(screen, "touch made.txt") || !strings.Contains(screen, "Create the file") {
		t.Errorf("the prompt does not show the command and its description:\n%s", screen)
	}
	req := s.WaitForEvent(copilottest.Hook("permissionRequest", start), "permissionRequest", 10*time.Second)
	if got := req.Field("toolName"); got != "bash" {
		t.Errorf("permissionRequest toolName = %q, want bash", got)
	}
	if _, err := os.Stat(filepath.Join(s.Dir(), "made.txt")); err == nil {
		t.Error("the command ran before anyone allowed it")
	}
	for _, e := range s.Events() {
		if copilottest.MainTurnDone(start)(e) {
			t.Errorf("agentStop while the prompt is open: %s", e.Payload)
		}
	}
}

// In a GNU screen window the same CLI starts into its idle box, and a
// prompt typed through screen's display is answered.
func TestSession_Screen(t *testing.T) {
	s := copilottest.NewSession(t, copilottest.Options{Screen: true})
	if !strings.HasPrefix(s.Address(), "screen:") {
		t.Errorf("address %q, want a screen window's", s.Address())
	}
	s.Type("say hello")
	s.WaitFor(clitest.Contains("● "+fakeopenai.DefaultText), "the default reply", 20*time.Second)
}
