package aicheck_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/agents/aicheck"
	"github.com/codeman-dev/codeman/internal/rig/copilottest"
	"github.com/codeman-dev/codeman/internal/rig/fakeopenai"
	"github.com/codeman-dev/codeman/respawn"
)

// realCopilot returns a Runner of Copilot checks that runs the pinned
// Copilot CLI against api in BYOK mode, with a HOME and COPILOT_HOME of its
// own, as in docs/copilot.md.
func realCopilot(t *testing.T, api *fakeopenai.Server) *aicheck.Runner {
	t.Helper()
	copilot := copilottest.Require(t)
	home := t.TempDir()
	env := append(copilottest.ProviderEnv(api.BaseURL()),
		"HOME="+home, "COPILOT_HOME="+filepath.Join(home, ".copilot"), "COPILOT_CACHE_HOME="+copilottest.CacheHome(),
		"TMPDIR="+t.TempDir(), "PATH="+os.Getenv("PATH"))
	r, err := aicheck.New(aicheck.Options{CLI: aicheck.Copilot, CopilotPath: copilot, Env: env})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return r
}

// copilotRequest is an idle check of a finished Copilot turn with Claude's
// default model, which leaves the model to the user's Copilot setup.
func copilotRequest() respawn.CheckRequest {
	return respawn.CheckRequest{
		Kind:   respawn.IdleCheck,
		Model:  respawn.DefaultCheckModel,
		Text:   " ❯ list the project files                14:51\n ● The project has a single README.md.\n ~/proj\n────\n❯\n────\n ← open sidebar · Interactive · Manual Approval · / commands · ? help · tab next tab   gpt-5.5\n",
		Limit:  30 * time.Second,
		PaneID: "tmux:/tmp/t:%1",
	}
}

func TestIntegration_Copilot_Idle(t *testing.T) {
	api := fakeopenai.New(t)
	r := realCopilot(t, api)
	api.Handle("TERMINAL CAPTURE", fakeopenai.Reply{Text: "IDLE\nThe reply is done and the box is empty."})

	res, err := r.Check(context.Background(), copilotRequest())
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	if res.Verdict != respawn.VerdictIdle || res.Reason != "The reply is done and the box is empty." {
		t.Errorf("Check = %s %q, want IDLE and the fake's reason", res.Verdict, res.Reason)
	}
	reqs := api.Requests()
	if len(reqs) != 1 {
		t.Fatalf("the fake got %d requests, want 1: %+v", len(reqs), reqs)
	}
	if reqs[0].Model != copilottest.Model {
		t.Errorf("model = %q, want COPILOT_MODEL's %q", reqs[0].Model, copilottest.Model)
	}
	if len(reqs[0].Tools) != 0 {
		t.Errorf("the check offered the model tools: %q", reqs[0].Tools)
	}
	if text := reqs[0].LastUserText; !strings.Contains(text, "GitHub Copilot CLI session") || !strings.Contains(text, "The project has a single README.md.") {
		t.Errorf("prompt sent = %.200q…, want the Copilot idle prompt over the pane text", text)
	}
}

// A reply that calls a tool anyway runs nothing: the check offers none, and
// the answer after the refused call is the verdict.
func TestIntegration_Copilot_RunsNoTool(t *testing.T) {
	api := fakeopenai.New(t)
	r := realCopilot(t, api)
	ran := filepath.Join(t.TempDir(), "ran.txt")
	api.Handle("TERMINAL CAPTURE", fakeopenai.Reply{
		Text: "Let me check.",
		Tool: &fakeopenai.ToolCall{Name: "bash", Arguments: map[string]any{"command": "touch " + ran, "description": "Leave a mark"}},
		Next: &fakeopenai.Reply{Text: "WORKING\nNot sure."},
	})

	res, err := r.Check(context.Background(), copilotRequest())
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	if res.Verdict != respawn.VerdictWorking || res.Reason != "Not sure." {
		t.Errorf("Check = %s %q, want WORKING and the reason after the tool call", res.Verdict, res.Reason)
	}
	if _, err := os.Stat(ran); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the check ran the command: %v", err)
	}
}

// An authentication failure is an error quoting Copilot's message, not a
// limit.
func TestIntegration_Copilot_AuthError(t *testing.T) {
	api := fakeopenai.New(t)
	r := realCopilot(t, api)
	api.Handle("TERMINAL CAPTURE", fakeopenai.Reply{Status: 401})

	_, err := r.Check(context.Background(), copilotRequest())
	if err == nil || errors.Is(err, respawn.ErrUsageLimit) || !strings.Contains(err.Error(), "Authentication failed with provider at "+api.BaseURL()) {
		t.Fatalf("Check error = %v, want Copilot's authentication error", err)
	}
}
