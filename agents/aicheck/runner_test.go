package aicheck_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/agents/aicheck"
	"github.com/codeman-dev/codeman/internal/rig/wait"
	"github.com/codeman-dev/codeman/respawn"
)

// testLimit is the timeout of checks that are expected to answer.
const testLimit = 10 * time.Second

func idleRequest(pane string) respawn.CheckRequest {
	return respawn.CheckRequest{Kind: respawn.IdleCheck, Model: "haiku", Text: "✻ Worked for 3s\n❯ ", Limit: testLimit, PaneID: pane}
}

func planRequest(pane string) respawn.CheckRequest {
	req := idleRequest(pane)
	req.Kind = respawn.PlanCheck
	return req
}

func TestRunner_Check_Verdicts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		mode   string
		req    respawn.CheckRequest
		want   respawn.Verdict
		reason string
	}{
		{"idle", idleRequest("%1"), respawn.VerdictIdle, "The completion line is shown and the prompt is empty."},
		{"working", idleRequest("%1"), respawn.VerdictWorking, "The footer says esc to interrupt."},
		{"plan", planRequest("%1"), respawn.VerdictPlanMode, "A plan approval menu waits."},
		{"notplan", planRequest("%1"), respawn.VerdictNotPlanMode, "A question picker is open."},
		{"markdown", idleRequest("%1"), respawn.VerdictIdle, "completion line and empty prompt"},
	}
	// The same answers through either CLI: claude -p and codex exec.
	for cli, fake := range map[string]func(*testing.T) *fakeCLI{"claude": newFakeClaude, "codex": newFakeCodex} {
		for _, tt := range tests {
			t.Run(cli+"/"+tt.mode, func(t *testing.T) {
				t.Parallel()
				r := fake(t).runner(t, tt.mode, aicheck.Options{})
				res, err := r.Check(context.Background(), tt.req)
				if err != nil {
					t.Fatalf("Check: %v", err)
				}
				if res.Verdict != tt.want || res.Reason != tt.reason {
					t.Errorf("got %s %q, want %s %q", res.Verdict, res.Reason, tt.want, tt.reason)
				}
				if res.Duration <= 0 {
					t.Errorf("Duration = %s, want it measured", res.Duration)
				}
			})
		}
	}
}

func TestRunner_Check_BadOutput(t *testing.T) {
	t.Parallel()
	checkErrors(t, newFakeClaude, []errorCase{
		{"garbage", `claude -p answered without IDLE or WORKING: "I think the session might be done."`},
		{"empty", "claude -p printed nothing"},
		{"wrongkind", `claude -p answered without IDLE or WORKING: "PLAN_MODE\nA plan approval menu waits."`},
		{"fail", `claude -p exit status 1: "Error: something broke"`},
		{"stderr", `claude -p printed only to stderr: "warning: config file ignored"`},
	})
}

// errorCase is a mode of the fake and the error of a check that runs it.
type errorCase struct {
	mode string
	want string // the error
}

// checkErrors runs an idle check through a fake of the kind in each mode of
// tests and wants its error, no verdict, and neither a usage limit nor an
// unavailable checker.
func checkErrors(t *testing.T, fake func(*testing.T) *fakeCLI, tests []errorCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Parallel()
			r := fake(t).runner(t, tt.mode, aicheck.Options{})
			res, err := r.Check(context.Background(), idleRequest("%1"))
			if err == nil || err.Error() != tt.want {
				t.Fatalf("Check = %+v, %v; want the error %s", res, err, tt.want)
			}
			if res.Verdict != "" {
				t.Errorf("Verdict = %s next to an error", res.Verdict)
			}
			if errors.Is(err, respawn.ErrUsageLimit) || errors.Is(err, respawn.ErrCheckerUnavailable) {
				t.Errorf("error %v is a usage limit or unavailable", err)
			}
		})
	}
}

func TestRunner_Check_UsageLimit(t *testing.T) {
	t.Parallel()
	checkUsageLimits(t, newFakeClaude, []usageLimitCase{
		{"limit", "You've hit your 5-hour limit · resets 10:06pm (UTC)", func(t *testing.T, reset time.Time) {
			now := time.Now()
			if h, m, _ := reset.UTC().Clock(); h != 22 || m != 6 || reset.Before(now.Add(-time.Hour)) || reset.After(now.Add(24*time.Hour)) {
				t.Errorf("ResetAt = %s, want the next 22:06 UTC", reset)
			}
		}},
		{"epoch", "Claude AI usage limit reached|1767225600", func(t *testing.T, reset time.Time) {
			if !reset.Equal(time.Unix(1767225600, 0)) {
				t.Errorf("ResetAt = %s, want %s", reset, time.Unix(1767225600, 0))
			}
		}},
		{"429", "API Error: Request rejected (429) · Number of request tokens has exceeded your per-minute rate limit", wantZeroReset},
		{"529", "API Error: 529 Overloaded. This is a server-side issue, usually temporary — try again in a moment.", wantZeroReset},
	})
}

// usageLimitCase is a mode of the fake that hits a limit, the limit's line
// and a check of its reset time.
type usageLimitCase struct {
	mode      string
	line      string
	wantReset func(t *testing.T, reset time.Time)
}

// checkUsageLimits runs an idle check through a fake of the kind in each
// mode of tests and wants a usage limit error with the case's line and
// reset time.
func checkUsageLimits(t *testing.T, fake func(*testing.T) *fakeCLI, tests []usageLimitCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Parallel()
			r := fake(t).runner(t, tt.mode, aicheck.Options{})
			_, err := r.Check(context.Background(), idleRequest("%1"))
			var limit *respawn.UsageLimitError
			if !errors.As(err, &limit) || !errors.Is(err, respawn.ErrUsageLimit) {
				t.Fatalf("Check error = %v, want a *respawn.UsageLimitError", err)
			}
			if limit.Line != tt.line {
				t.Errorf("Line = %q, want %q", limit.Line, tt.line)
			}
			tt.wantReset(t, limit.ResetAt)
		})
	}
}

func wantZeroReset(t *testing.T, reset time.Time) {
	if !reset.IsZero() {
		t.Errorf("ResetAt = %s, want zero", reset)
	}
}

// trickyText is 16000 characters of pane text with everything a shell or
// an argument list would mangle.
func trickyText() string {
	piece := "line with \"double\" and 'single' quotes, $HOME and ${PATH}, `backticks`, back\\slash \\n, tab\there, ünïcödé ✻ ❯ 日本語 🙂\n"
	text := strings.Repeat(piece, 16000/len([]rune(piece))+1)
	return string([]rune(text)[:16000])
}

func TestRunner_Check_Invocation(t *testing.T) {
	t.Parallel()
	f := newFakeClaude(t)
	env := f.env("record",
		"TMUX=/tmp/tmux-1000/default,123,0", "TMUX_PANE=%3", "STY=12345.pts-0.host", "WINDOW=2",
		"CLAUDECODE=1", "CLAUDE_CODE_SSE_PORT=41234", "CLAUDE_CODE_ENTRYPOINT=cli", "CODEMAN_PANE=tmux:/tmp/tmux-1000/default:%3",
		"ANTHROPIC_API_KEY=sk-test", "ANTHROPIC_BASE_URL=http://127.0.0.1:8765", "CLAUDE_CODE_OAUTH_TOKEN=oauth-test")
	r := f.runner(t, "record", aicheck.Options{Env: env})
	req := idleRequest("%3")
	req.Model = "claude-haiku-4-5"
	req.Text = trickyText()

	res, err := r.Check(context.Background(), req)
	if err != nil || res.Verdict != respawn.VerdictIdle {
		t.Fatalf("Check = %+v, %v", res, err)
	}
	inv := f.record(t)

	wantArgs := []string{"-p", "--model", "claude-haiku-4-5", "--output-format", "text", "--max-turns", "1"}
	if !slices.Equal(inv.Args, wantArgs) {
		t.Errorf("args = %q, want %q", inv.Args, wantArgs)
	}
	if !strings.Contains(inv.Stdin, req.Text) {
		t.Errorf("stdin lacks the pane text intact (%d bytes of stdin)", len(inv.Stdin))
	}
	if strings.Contains(strings.Join(inv.Args, " "), "backticks") || strings.Contains(strings.Join(inv.Env, "\n"), "backticks") {
		t.Error("the pane text reached argv or the environment")
	}

	for _, kv := range []string{"CODEMAN_CHECK=1", "ANTHROPIC_API_KEY=sk-test", "ANTHROPIC_BASE_URL=http://127.0.0.1:8765", "CLAUDE_CODE_OAUTH_TOKEN=oauth-test", "HOME=" + os.Getenv("HOME")} {
		if !slices.Contains(inv.Env, kv) {
			t.Errorf("env lacks %s", kv)
		}
	}
	for _, kv := range inv.Env {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "TMUX", "TMUX_PANE", "STY", "WINDOW", "CLAUDECODE", "CLAUDE_CODE_SSE_PORT", "CLAUDE_CODE_ENTRYPOINT", "CODEMAN_PANE":
			t.Errorf("env keeps the pane marker %s", kv)
		}
	}

	if len(inv.DirEntries) != 0 {
		t.Errorf("check dir held %q, want it empty", inv.DirEntries)
	}
	if !strings.HasPrefix(filepath.Base(inv.Dir), "codeman-check-") {
		t.Errorf("check dir = %s", inv.Dir)
	}
	if _, err := os.Stat(inv.Dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("check dir %s still there: %v", inv.Dir, err)
	}
}

func TestRunner_Check_TimeoutKillsGroup(t *testing.T) {
	t.Parallel()
	checkTimeoutKillsGroup(t, newFakeClaude(t), "claude -p")
}

// checkTimeoutKillsGroup runs a check of f that outlasts its limit and
// wants a timeout that names command, soon, with the fake and its
// grandchild gone.
func checkTimeoutKillsGroup(t *testing.T, f *fakeCLI, command string) {
	t.Helper()
	r := f.runner(t, "sleep", aicheck.Options{})
	req := idleRequest("%1")
	// Long enough for the fake to start its grandchild on a loaded machine.
	req.Limit = 400 * time.Millisecond

	start := time.Now()
	res, err := r.Check(context.Background(), req)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), command+" timed out after 400ms") {
		t.Fatalf("Check = %+v, %v; want a timeout of %s", res, err, command)
	}
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("Check returned after %s", elapsed)
	}
	waitGone(t, "the fake", f.writtenPid(t, "child.pid"))
	waitGone(t, "the fake's grandchild", f.writtenPid(t, "grandchild.pid"))
}

func TestRunner_Check_CancelKillsGroup(t *testing.T) {
	t.Parallel()
	f := newFakeClaude(t)
	r := f.runner(t, "sleep", aicheck.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := r.Check(ctx, idleRequest("%1"))
		errc <- err
	}()
	child, grandchild := f.pid(t, "child.pid"), f.pid(t, "grandchild.pid")
	cancel()

	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "cancelled") {
			t.Errorf("Check error = %v, want cancelled", err)
		}
	case <-time.After(waitTimeout):
		t.Fatal("Check did not return after cancel")
	}
	waitGone(t, "the fake", child)
	waitGone(t, "the fake's grandchild", grandchild)
}

func TestRunner_Check_KillsAfterGrace(t *testing.T) {
	t.Parallel()
	f := newFakeClaude(t)
	r := f.runner(t, "sleep", aicheck.Options{Env: f.env("sleep", fakeIgnoreTermVar+"=1")})
	aicheck.SetKillGrace(r, 100*time.Millisecond)
	req := idleRequest("%1")
	req.Limit = 400 * time.Millisecond

	start := time.Now()
	if _, err := r.Check(context.Background(), req); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Check error = %v, want a timeout", err)
	}
	if elapsed := time.Since(start); elapsed < 500*time.Millisecond {
		t.Errorf("Check returned after %s, before the limit and the grace had passed", elapsed)
	}
	waitGone(t, "the fake ignoring SIGTERM", f.writtenPid(t, "child.pid"))
	waitGone(t, "the fake's grandchild ignoring SIGTERM", f.writtenPid(t, "grandchild.pid"))
}

func TestRunner_Check_ConcurrencyLimit(t *testing.T) {
	t.Parallel()
	f := newFakeClaude(t)
	r := f.runner(t, "block", aicheck.Options{MaxConcurrent: 2})
	results := make(chan error, 5)
	for _, pane := range []string{"%1", "%2", "%3", "%4", "%5"} {
		go func() {
			res, err := r.Check(context.Background(), idleRequest(pane))
			if err == nil && res.Verdict != respawn.VerdictIdle {
				err = errors.New("verdict " + string(res.Verdict))
			}
			results <- err
		}()
	}
	wait.For(t, "2 checks running and 3 queued", waitTimeout, func() bool {
		return f.count("running-") == 2 && aicheck.Queued(r) == 3
	})
	if n := f.count("started-"); n != 2 {
		t.Fatalf("%d fakes started with 3 checks queued, want 2", n)
	}
	f.release(t)
	for range 5 {
		if err := <-results; err != nil {
			t.Errorf("Check: %v", err)
		}
	}
	if n := f.count("started-"); n != 5 {
		t.Errorf("%d fakes started, want 5", n)
	}
	entries, err := filepath.Glob(filepath.Join(f.dir, "running-*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range entries {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if running := string(data); running != "1" && running != "2" {
			t.Errorf("%s saw %s fakes running, want at most 2", filepath.Base(name), running)
		}
	}
}

func TestRunner_Check_AlreadyChecking(t *testing.T) {
	t.Parallel()
	f := newFakeClaude(t)
	r := f.runner(t, "block", aicheck.Options{})
	first := make(chan error, 1)
	go func() {
		_, err := r.Check(context.Background(), idleRequest("%1"))
		first <- err
	}()
	wait.For(t, "the first check to start", waitTimeout, func() bool { return f.count("running-") == 1 })

	_, err := r.Check(context.Background(), idleRequest("%1"))
	if !errors.Is(err, aicheck.ErrAlreadyChecking) || !strings.Contains(err.Error(), "already checking") {
		t.Errorf("second idle check of %%1: %v, want already checking", err)
	}
	other := make(chan error, 2)
	go func() { _, err := r.Check(context.Background(), planRequest("%1")); other <- err }()
	go func() { _, err := r.Check(context.Background(), idleRequest("%2")); other <- err }()
	wait.For(t, "the plan check of %1 and the idle check of %2 to start", waitTimeout, func() bool {
		return f.count("running-") == 2 && aicheck.Queued(r) == 1
	})
	f.release(t)
	for _, c := range []chan error{first, other, other} {
		if err := <-c; err != nil {
			t.Errorf("Check: %v", err)
		}
	}
	if _, err := r.Check(context.Background(), idleRequest("%1")); err != nil {
		t.Errorf("idle check of %%1 after the first ended: %v", err)
	}
}

func TestRunner_Check_CancelWhileQueued(t *testing.T) {
	t.Parallel()
	f := newFakeClaude(t)
	r := f.runner(t, "block", aicheck.Options{MaxConcurrent: 1})
	first := make(chan error, 1)
	go func() { _, err := r.Check(context.Background(), idleRequest("%1")); first <- err }()
	wait.For(t, "the first check to start", waitTimeout, func() bool { return f.count("running-") == 1 })

	ctx, cancel := context.WithCancel(context.Background())
	queued := make(chan error, 1)
	go func() { _, err := r.Check(ctx, idleRequest("%2")); queued <- err }()
	wait.For(t, "the second check to queue", waitTimeout, func() bool { return aicheck.Queued(r) == 1 })
	cancel()
	if err := <-queued; !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "wait for a check slot") {
		t.Errorf("queued check: %v, want cancelled while waiting for a slot", err)
	}
	f.release(t)
	if err := <-first; err != nil {
		t.Errorf("first check: %v", err)
	}
	if n := f.count("started-"); n != 1 {
		t.Errorf("%d fakes started, want 1", n)
	}
}

func TestRunner_Check_InvalidRequest(t *testing.T) {
	t.Parallel()
	f := newFakeClaude(t)
	r := f.runner(t, "record", aicheck.Options{})
	for _, model := range []string{"", "haiku; rm -rf /", "$(id)", "-x", "a b", strings.Repeat("m", 101)} {
		req := idleRequest("%1")
		req.Model = model
		if _, err := r.Check(context.Background(), req); err == nil || !strings.Contains(err.Error(), "check model") {
			t.Errorf("model %q: %v, want a model error", model, err)
		}
	}
	req := idleRequest("%1")
	req.Kind = respawn.CheckKind(7)
	if _, err := r.Check(context.Background(), req); err == nil || !strings.Contains(err.Error(), "unknown check kind 7") {
		t.Errorf("kind 7: %v, want an unknown kind error", err)
	}
	if _, err := os.Stat(filepath.Join(f.dir, "record.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("claude ran for an invalid request: %v", err)
	}
}

func TestNew_ClaudeMissing(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	_, err := aicheck.New(aicheck.Options{Env: []string{"PATH=" + empty}})
	if !errors.Is(err, respawn.ErrCheckerUnavailable) || !strings.Contains(err.Error(), "claude not found on PATH; set checks.claude_path or install Claude Code") {
		t.Errorf("New without claude on PATH: %v", err)
	}
	_, err = aicheck.New(aicheck.Options{ClaudePath: filepath.Join(empty, "claude")})
	if !errors.Is(err, respawn.ErrCheckerUnavailable) || !strings.Contains(err.Error(), "checks.claude_path") {
		t.Errorf("New with a missing claude_path: %v", err)
	}
	notExec := filepath.Join(empty, "claude-text")
	if err := os.WriteFile(notExec, []byte("not a program"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := aicheck.New(aicheck.Options{ClaudePath: notExec}); !errors.Is(err, respawn.ErrCheckerUnavailable) {
		t.Errorf("New with a claude_path that is not executable: %v", err)
	}
}

func TestRunner_Check_ClaudeVanished(t *testing.T) {
	t.Parallel()
	checkVanished(t, newFakeClaude(t), false, "claude not found on PATH")
	checkVanished(t, newFakeClaude(t), true, "checks.claude_path")
}

// checkVanished runs a check of f, removes f and wants the next check to
// find no checker, with an error containing want. configured names f by
// its path in the options instead of finding it on PATH.
func checkVanished(t *testing.T, f *fakeCLI, configured bool, want string) {
	t.Helper()
	// Only the fake's directory on PATH, so that no real CLI is found.
	opts := aicheck.Options{Env: []string{"PATH=" + f.binDir, fakeModeVar + "=idle", "GORACE=atexit_sleep_ms=0"}}
	if configured {
		opts.ClaudePath, opts.CodexPath = f.path(), f.path() // the runner reads its CLI's
	}
	r := f.runner(t, "idle", opts)
	if _, err := r.Check(context.Background(), idleRequest("%1")); err != nil {
		t.Fatalf("Check with %s present: %v", f.name, err)
	}
	if err := os.Remove(f.path()); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Check(context.Background(), idleRequest("%1")); !errors.Is(err, respawn.ErrCheckerUnavailable) || !strings.Contains(err.Error(), want) {
		t.Errorf("Check after %s vanished (configured path %t): %v, want ErrCheckerUnavailable with %q", f.name, configured, err, want)
	}
}

func TestRunner_Check_LogsOneLine(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, nil))
	for _, mode := range []string{"working", "garbage"} {
		buf.Reset()
		r := newFakeClaude(t).runner(t, mode, aicheck.Options{Logger: log})
		_, checkErr := r.Check(context.Background(), idleRequest("tmux:/tmp/tmux-0/default:%3"))

		lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
		if len(lines) != 1 {
			t.Fatalf("%s: logged %d lines, want 1:\n%s", mode, len(lines), buf.String())
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(lines[0]), &rec); err != nil {
			t.Fatal(err)
		}
		want := map[string]any{"kind": "idle", "pane": "tmux:/tmp/tmux-0/default:%3", "model": "haiku"}
		if checkErr == nil {
			want["verdict"], want["reason"], want["level"] = "WORKING", "The footer says esc to interrupt.", "INFO"
		} else {
			want["err"], want["level"] = checkErr.Error(), "WARN"
		}
		for k, v := range want {
			if rec[k] != v {
				t.Errorf("%s: log %s = %v, want %v", mode, k, rec[k], v)
			}
		}
		if d, ok := rec["duration"].(float64); !ok || d <= 0 {
			t.Errorf("%s: log duration = %v, want it measured", mode, rec["duration"])
		}
	}
}

func TestRunner_Check_CancelledBefore(t *testing.T) {
	t.Parallel()
	f := newFakeClaude(t)
	r := f.runner(t, "record", aicheck.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Check(ctx, idleRequest("%1")); !errors.Is(err, context.Canceled) {
		t.Errorf("Check with a cancelled ctx: %v, want context.Canceled", err)
	}
	if _, err := os.Stat(filepath.Join(f.dir, "record.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("claude ran for a cancelled check: %v", err)
	}
}
