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
	"github.com/codeman-dev/codeman/internal/rig/fakeapi"
	"github.com/codeman-dev/codeman/internal/rig/opencodetest"
	"github.com/codeman-dev/codeman/respawn"
)

// realOpenCode returns a Runner of OpenCode checks that runs the pinned
// OpenCode against api as its anthropic provider, with a HOME of its own
// whose config dir is seeded as in docs/opencode.md.
func realOpenCode(t *testing.T, api *fakeapi.Server) (*aicheck.Runner, string) {
	t.Helper()
	opencode := opencodetest.Require(t)
	home := t.TempDir()
	if err := opencodetest.SeedConfigDir(filepath.Join(home, ".config", "opencode")); err != nil {
		t.Fatal(err)
	}
	env, err := opencodetest.ProviderEnv(opencodetest.Config(api.URL()))
	if err != nil {
		t.Fatal(err)
	}
	env = append(env, "HOME="+home, "TMPDIR="+t.TempDir(), "PATH="+os.Getenv("PATH"))
	r, err := aicheck.New(aicheck.Options{CLI: aicheck.OpenCode, OpenCodePath: opencode, Env: env})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return r, home
}

// openCodeRequest is an idle check of a finished OpenCode turn with
// Claude's default model, which leaves the model to the user's config.
func openCodeRequest() respawn.CheckRequest {
	return respawn.CheckRequest{
		Kind:  respawn.IdleCheck,
		Model: respawn.DefaultCheckModel,
		Text: "  ┃  list the project files\n\n     The project has a single README.md.\n     ▣  Build · Claude Sonnet 4.5 (latest) · 2.8s\n" +
			"  ┃\n  ┃\n  ┃\n  ┃  Build · Claude Sonnet 4.5 (latest) Anthropic\n  ╹▀▀▀▀▀▀▀▀\n   ~/proj   8.0K (1%) · $0.02  ctrl+p commands    • OpenCode 1.18.33\n",
		Limit:  45 * time.Second,
		PaneID: "tmux:/tmp/t:%1",
	}
}

// One model request, the configured model's, with no tool offered and no
// title request; the session is kept out of the user's session list.
func TestIntegration_OpenCode_Idle(t *testing.T) {
	api := fakeapi.New(t)
	r, home := realOpenCode(t, api)
	api.Handle("TERMINAL CAPTURE", fakeapi.Reply{Text: "IDLE\nThe reply is done and the composer is empty."})

	res, err := r.Check(context.Background(), openCodeRequest())
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	if res.Verdict != respawn.VerdictIdle || res.Reason != "The reply is done and the composer is empty." {
		t.Errorf("Check = %s %q, want IDLE and the fake's reason", res.Verdict, res.Reason)
	}
	reqs := api.Requests()
	if len(reqs) != 1 {
		t.Fatalf("the fake got %d requests, want 1: %+v", len(reqs), reqs)
	}
	if want := strings.TrimPrefix(opencodetest.Model, "anthropic/"); reqs[0].Model != want {
		t.Errorf("model = %q, want the config's %q", reqs[0].Model, want)
	}
	if len(reqs[0].Tools) != 0 {
		t.Errorf("the check offered the model tools: %q", reqs[0].Tools)
	}
	if text := reqs[0].LastUserText; !strings.Contains(text, "an OpenCode session") || !strings.Contains(text, "The project has a single README.md.") {
		t.Errorf("prompt sent = %.200q…, want the OpenCode idle prompt over the pane text", text)
	}
	dbs, _ := filepath.Glob(filepath.Join(home, ".local", "share", "opencode", "opencode.db*")) // none is fine
	for _, db := range dbs {
		if data, err := os.ReadFile(db); err == nil && strings.Contains(string(data), "codeman check") {
			t.Errorf("the check's session is in %s", db)
		}
	}
}

// A reply that calls a tool anyway runs nothing: every tool is denied, and
// the answer after the refused call is the verdict.
func TestIntegration_OpenCode_RunsNoTool(t *testing.T) {
	api := fakeapi.New(t)
	r, _ := realOpenCode(t, api)
	ran := filepath.Join(t.TempDir(), "ran.txt")
	api.Handle("TERMINAL CAPTURE", fakeapi.Reply{
		Text: "Let me check.",
		Tool: &fakeapi.ToolCall{Name: "bash", Input: map[string]any{"command": "touch " + ran, "description": "Leave a mark"}},
		Next: &fakeapi.Reply{Text: "WORKING\nNot sure."},
	})

	res, err := r.Check(context.Background(), openCodeRequest())
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

// An authentication failure, which OpenCode does not retry, is an error
// quoting the API's message, not a limit.
func TestIntegration_OpenCode_AuthError(t *testing.T) {
	api := fakeapi.New(t)
	r, _ := realOpenCode(t, api)
	api.Handle("TERMINAL CAPTURE", fakeapi.Reply{Status: 401})

	_, err := r.Check(context.Background(), openCodeRequest())
	if err == nil || errors.Is(err, respawn.ErrUsageLimit) || !strings.Contains(err.Error(), "invalid x-api-key (fake) (HTTP 401)") {
		t.Fatalf("Check error = %v, want OpenCode's authentication error", err)
	}
}
