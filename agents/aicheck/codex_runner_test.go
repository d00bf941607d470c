package aicheck_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/agents/aicheck"
	"github.com/codeman-dev/codeman/respawn"
)

func TestCodexRunner_Errors(t *testing.T) {
	t.Parallel()
	checkErrors(t, newFakeCodex, []errorCase{
		{"garbage", `codex exec answered without IDLE or WORKING: "I think the session might be done."`},
		{"codex-500", `codex exec exit status 1: "We’re currently experiencing high demand, which may cause temporary errors."`},
		{"codex-config", `codex exec exit status 1: "Error loading configuration: approval_policy = \"untrusted\" is no longer supported"`},
	})
}

func TestCodexRunner_UsageLimit(t *testing.T) {
	t.Parallel()
	checkUsageLimits(t, newFakeCodex, []usageLimitCase{
		{"codex-limit", "You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/usage to purchase more credits or try again at 10:06 PM.", func(t *testing.T, reset time.Time) {
			now := time.Now()
			if h, m, _ := reset.UTC().Clock(); h != 22 || m != 6 || reset.Before(now.Add(-time.Hour)) || reset.After(now.Add(24*time.Hour)) {
				t.Errorf("ResetAt = %s, want the next 22:06 UTC", reset)
			}
		}},
		{"codex-dated", "You’ve hit your usage limit. Try again at Dec 4th, 2026 3:45 PM.", func(t *testing.T, reset time.Time) {
			if want := time.Date(2026, 12, 4, 15, 45, 0, 0, time.UTC); !reset.Equal(want) {
				t.Errorf("ResetAt = %s, want %s", reset, want)
			}
		}},
		{"codex-429", "exceeded retry limit, last status: 429 Too Many Requests, request id: req_fake_1", wantZeroReset},
		{"codex-capacity", "Selected model is at capacity. Please try a different model.", wantZeroReset},
	})
}

func TestCodexRunner_Invocation(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		model string
		args  []string // after the common ones
	}{
		{"gpt-5.5", []string{"--model", "gpt-5.5", "-"}},
		{respawn.DefaultCheckModel, []string{"-"}}, // Codex's own model
	} {
		t.Run(tc.model, func(t *testing.T) {
			t.Parallel()
			f := newFakeCodex(t)
			env := f.env("record",
				"TMUX=/tmp/tmux-1000/default,123,0", "TMUX_PANE=%3", "CODEMAN_PANE=tmux:/tmp/tmux-1000/default:%3",
				"TZ=Europe/Vienna", "CODEX_HOME=/home/dev/.codex", "OPENAI_API_KEY=sk-test")
			r := f.runner(t, "record", aicheck.Options{Env: env})
			req := idleRequest("%3")
			req.Model = tc.model
			req.Text = trickyText()

			res, err := r.Check(context.Background(), req)
			if err != nil || res.Verdict != respawn.VerdictIdle || res.Reason != "recorded" {
				t.Fatalf("Check = %+v, %v", res, err)
			}
			inv := f.record(t)
			wantArgs := append([]string{"exec", "--json", "--ephemeral", "--skip-git-repo-check",
				"--sandbox", "read-only", "--config", `approval_policy="never"`}, tc.args...)
			if !slices.Equal(inv.Args, wantArgs) {
				t.Errorf("args = %q, want %q", inv.Args, wantArgs)
			}
			if !strings.Contains(inv.Stdin, req.Text) || !strings.Contains(inv.Stdin, "a Codex session") {
				t.Errorf("stdin lacks the pane text intact or the Codex prompt (%d bytes of stdin)", len(inv.Stdin))
			}
			for _, kv := range []string{"CODEMAN_CHECK=1", "TZ=UTC", "CODEX_HOME=/home/dev/.codex", "OPENAI_API_KEY=sk-test"} {
				if !slices.Contains(inv.Env, kv) {
					t.Errorf("env lacks %s", kv)
				}
			}
			for _, kv := range inv.Env {
				name, _, _ := strings.Cut(kv, "=")
				if name == "TMUX" || name == "TMUX_PANE" || name == "CODEMAN_PANE" || kv == "TZ=Europe/Vienna" {
					t.Errorf("env keeps %s", kv)
				}
			}
			if len(inv.DirEntries) != 0 || !strings.HasPrefix(filepath.Base(inv.Dir), "codeman-check-") {
				t.Errorf("check dir %s held %q, want a fresh empty one", inv.Dir, inv.DirEntries)
			}
		})
	}
}

func TestCodexRunner_TimeoutKillsGroup(t *testing.T) {
	t.Parallel()
	checkTimeoutKillsGroup(t, newFakeCodex(t), "codex exec")
}

func TestNew_CodexMissing(t *testing.T) {
	t.Parallel()
	// A claude on PATH is no codex.
	claude := newFakeClaude(t)
	_, err := aicheck.New(aicheck.Options{CLI: aicheck.Codex, Env: []string{"PATH=" + claude.binDir}})
	if !errors.Is(err, respawn.ErrCheckerUnavailable) || !strings.Contains(err.Error(), "codex not found on PATH; set checks.codex_path or install the Codex CLI") {
		t.Errorf("New without codex on PATH: %v", err)
	}
	// ClaudePath is not Codex's.
	_, err = aicheck.New(aicheck.Options{CLI: aicheck.Codex, ClaudePath: claude.path(), Env: []string{"PATH=" + claude.binDir}})
	if !errors.Is(err, respawn.ErrCheckerUnavailable) {
		t.Errorf("New with only a claude path: %v", err)
	}
	missing := filepath.Join(t.TempDir(), "codex")
	_, err = aicheck.New(aicheck.Options{CLI: aicheck.Codex, CodexPath: missing})
	if !errors.Is(err, respawn.ErrCheckerUnavailable) || !strings.Contains(err.Error(), "checks.codex_path "+missing+" is not an executable") {
		t.Errorf("New with a missing codex_path: %v", err)
	}
	codex := newFakeCodex(t)
	if _, err := aicheck.New(aicheck.Options{CLI: aicheck.Codex, CodexPath: codex.path(), Env: []string{"PATH=/nonexistent"}}); err != nil {
		t.Errorf("New with codex_path set: %v", err)
	}
}

func TestNew_UnknownCLI(t *testing.T) {
	t.Parallel()
	if _, err := aicheck.New(aicheck.Options{CLI: aicheck.CLI(9)}); err == nil || !strings.Contains(err.Error(), "unknown check CLI 9") {
		t.Errorf("New with CLI 9: %v", err)
	}
}

func TestCodexRunner_CodexVanished(t *testing.T) {
	t.Parallel()
	checkVanished(t, newFakeCodex(t), false, "codex not found on PATH")
}
