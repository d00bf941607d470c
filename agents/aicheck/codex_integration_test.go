package aicheck_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/agents/aicheck"
	"github.com/codeman-dev/codeman/internal/rig/codextest"
	"github.com/codeman-dev/codeman/internal/rig/fakeopenai"
	"github.com/codeman-dev/codeman/respawn"
)

// fakeAPIKeyVar is the variable the fake provider's env_key names. It is
// not codextest's: a check's environment drops every CODEMAN_ variable.
const fakeAPIKeyVar = "FAKE_OPENAI_API_KEY"

// deadProxy is a loopback port nothing listens on: a request that is not
// for loopback fails at once instead of leaving the machine.
const deadProxy = "http://127.0.0.1:9"

// realCodex returns a Runner of Codex checks that runs the pinned Codex CLI
// against api: a CODEX_HOME of its own whose config.toml makes the fake
// the model provider, as in docs/codex.md.
func realCodex(t *testing.T, api *fakeopenai.Server) (r *aicheck.Runner, codexHome string) {
	t.Helper()
	if testing.Short() {
		t.Skip("the real Codex CLI is not run under -short")
	}
	codex, ok := codextest.FindCodex()
	if !ok {
		t.Skipf("the OpenAI Codex CLI %s is not installed: run scripts/install-codex.sh (installs it under %s) or set CODEMAN_E2E_CODEX",
			codextest.Version, codextest.InstallDir())
	}
	home := t.TempDir()
	codexHome = filepath.Join(home, ".codex")
	config := fmt.Sprintf(`model = %q
model_provider = "fakeopenai"
check_for_update_on_startup = false

[model_providers.fakeopenai]
name = "Fake OpenAI"
base_url = %q
env_key = %q
wire_api = "responses"
request_max_retries = 1
stream_max_retries = 1

[analytics]
enabled = false

[features]
daemon_auto_start = false
`, codextest.Model, api.BaseURL(), fakeAPIKeyVar)
	if err := os.MkdirAll(codexHome, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{
		"HOME=" + home, "CODEX_HOME=" + codexHome, "TMPDIR=" + t.TempDir(),
		"PATH=" + os.Getenv("PATH"), fakeAPIKeyVar + "=" + codextest.FakeAPIKey,
		"HTTP_PROXY=" + deadProxy, "HTTPS_PROXY=" + deadProxy, "ALL_PROXY=" + deadProxy,
		"http_proxy=" + deadProxy, "https_proxy=" + deadProxy, "all_proxy=" + deadProxy,
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
	}
	r, err := aicheck.New(aicheck.Options{CLI: aicheck.Codex, CodexPath: codex, Env: env})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return r, codexHome
}

// codexRequest is an idle check of a finished Codex turn with Claude's
// default model, which leaves the model to Codex's config.
func codexRequest() respawn.CheckRequest {
	return respawn.CheckRequest{
		Kind:   respawn.IdleCheck,
		Model:  respawn.DefaultCheckModel,
		Text:   "› list the project files\n• The project has a single README.md.\n  Worked for 4s • 18:41\n› Ask Codex to do anything\n  GPT-5.5 default · ~/proj\n",
		Limit:  30 * time.Second,
		PaneID: "tmux:/tmp/t:%1",
	}
}

func TestIntegration_Codex_Idle(t *testing.T) {
	t.Parallel()
	api := fakeopenai.New(t)
	r, codexHome := realCodex(t, api)
	api.Handle("TERMINAL CAPTURE", fakeopenai.Reply{Text: "IDLE\nThe turn ended with Worked for and the composer is empty."})

	res, err := r.Check(context.Background(), codexRequest())
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	if res.Verdict != respawn.VerdictIdle || res.Reason != "The turn ended with Worked for and the composer is empty." {
		t.Errorf("Check = %s %q, want IDLE and the fake's reason", res.Verdict, res.Reason)
	}
	reqs := api.Requests()
	if len(reqs) != 1 {
		t.Fatalf("the fake got %d requests, want 1: %+v", len(reqs), reqs)
	}
	if reqs[0].Model != codextest.Model {
		t.Errorf("model = %q, want the config's %q", reqs[0].Model, codextest.Model)
	}
	if text := reqs[0].LastUserText; !strings.Contains(text, "a Codex session") || !strings.Contains(text, "Worked for 4s • 18:41") {
		t.Errorf("prompt sent = %.200q…, want the Codex idle prompt over the pane text", text)
	}
	if _, err := os.Stat(filepath.Join(codexHome, "sessions")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the check left a session in %s: %v", codexHome, err)
	}
}

func TestIntegration_Codex_UsageLimit(t *testing.T) {
	t.Parallel()
	api := fakeopenai.New(t)
	r, _ := realCodex(t, api)
	// Two hours ahead, on the minute, so that the printed clock time is
	// exact; Codex prints a date with it when the day differs.
	reset := time.Now().UTC().Add(2 * time.Hour).Truncate(time.Minute)
	api.Handle("TERMINAL CAPTURE", fakeopenai.Reply{Status: 429, UsageLimit: &fakeopenai.UsageLimit{ResetAt: reset}})

	_, err := r.Check(context.Background(), codexRequest())
	var limit *respawn.UsageLimitError
	if !errors.As(err, &limit) || !errors.Is(err, respawn.ErrUsageLimit) {
		t.Fatalf("Check error = %v, want a *respawn.UsageLimitError", err)
	}
	if !strings.Contains(limit.Line, "hit your usage limit") {
		t.Errorf("Line = %q, want Codex's usage limit message", limit.Line)
	}
	if !limit.ResetAt.Equal(reset) {
		t.Errorf("ResetAt = %s, want %s (Line %q)", limit.ResetAt, reset, limit.Line)
	}
}
