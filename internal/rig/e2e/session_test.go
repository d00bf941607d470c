package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/agents/claude/claudehooks"
	"github.com/codeman-dev/codeman/hooks"
	"github.com/codeman-dev/codeman/internal/rig/claudetest"
	"github.com/codeman-dev/codeman/internal/rig/fakeapi"
	"github.com/codeman-dev/codeman/internal/rig/fakeserver"
	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
)

// claude is one real Claude Code session under test, with the timeline of
// its screen.
type claude struct {
	*claudetest.Session
	t     *testing.T
	rig   *rig
	mon   *monitor
	start time.Time // times in failure dumps count from here
}

// newClaude starts a session whose hook handler reaches the rig's daemon.
// hookBinary is the codeman whose hook entries go into the session's
// settings; "" installs none. Claude's own hook calls are always recorded.
func (r *rig) newClaude(t *testing.T, opts claudetest.Options, hookBinary string) *claude {
	t.Helper()
	opts.RecordHooks, opts.Screen = true, opts.Screen || r.screen
	// The handler writes its markers into the spool under the daemon's
	// runtime dir; Claude passes its environment on to hook commands.
	opts.Env = append(opts.Env, "XDG_RUNTIME_DIR="+r.env["XDG_RUNTIME_DIR"])
	if hookBinary != "" {
		settings := codemanHookSettings(t, hookBinary)
		for k, v := range opts.Settings {
			settings[k] = v // the test's own settings beside the hooks
		}
		opts.Settings = settings
	}
	start := time.Now()
	s := claudetest.NewSession(t, opts)
	c := &claude{Session: s, t: t, rig: r, start: start}
	c.mon = watchScreen(t, s.Socket(), s.PaneID())
	// Every failure ends with the whole story of the session.
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("e2e: %s at the end:\n%s", c.Address(), c.dump())
		}
	})
	return c
}

// startupHintsFade bounds the wait for the hints Claude shows in its first
// seconds to go.
const startupHintsFade = 30 * time.Second

// waitStartupHints waits until Claude has taken down the hints of its first
// seconds ("◐ medium · /effort" above the prompt box, "← for agents" in the
// footer). Their fading is output, which would break a silence the test
// means to keep.
func (c *claude) waitStartupHints() {
	c.t.Helper()
	c.WaitFor(func(screen string) bool {
		return !strings.Contains(screen, "/effort") && !strings.Contains(screen, "← for agents")
	}, "the startup hints to fade", startupHintsFade)
}

// codemanHookSettings returns the settings `codeman hooks install` writes
// for binary, to be merged into the session's settings.json before Claude
// starts.
func codemanHookSettings(t *testing.T, binary string) map[string]any {
	t.Helper()
	path := filepath.Join(t.TempDir(), "settings.json")
	if _, err := hooks.Install(hooks.InstallOptions{Entries: claudehooks.Entries, SettingsPath: path, Binary: binary}); err != nil {
		t.Fatalf("install codeman hooks: %v", err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var settings map[string]any
	if err := json.Unmarshal(data, &settings); err != nil {
		t.Fatalf("read installed hooks: %v", err)
	}
	return settings
}

// waitRequest returns the first request, past or future, that pred
// accepts.
func (c *claude) waitRequest(pred func(fakeapi.Request) bool, what string, timeout time.Duration) fakeapi.Request {
	c.t.Helper()
	return awaitRequest(c.t, c.API().WaitForRequest, pred, what, timeout)
}

// awaitRequest returns the first request, past or future, that pred
// accepts, of the fake API whose WaitForRequest is waitFor.
func awaitRequest[R any](t *testing.T, waitFor func(func(R) bool, time.Duration) (R, error), pred func(R) bool, what string, timeout time.Duration) R {
	t.Helper()
	req, err := waitFor(pred, timeout)
	if err != nil {
		t.Fatalf("wait for %s: %v", what, err)
	}
	return req
}

// checkTimeline runs the checks every scenario ends with: nothing typed
// into the pane while Claude worked, and every send of codeman's made on
// an idle screen.
func (c *claude) checkTimeline() {
	c.t.Helper()
	c.mon.checkNoTypingWhileBusy(c.t, c.start)
	c.mon.checkSends(c.t, c.start, sends(c.rig.decisions(c)))
}

// dump describes the session for a failed test: the screen, codeman's
// view of the pane, the request log, the hook log, the screen timeline and
// the daemon log.
func (c *claude) dump() string {
	screen, err := capturePane(c.Socket(), c.PaneID())
	if err != nil {
		screen = err.Error()
	}
	return c.rig.dumpSession(c.Address(), c.start, c.mon, sessionLogs{
		screenHeading: "screen of " + c.Address(),
		screen:        screen,
		requests:      describeRequests(c.start, c.API().Requests()),
		agent:         "Claude",
		hooks:         describeHooks(c.start, c.Events()),
	})
}

// sessionLogs are what a dump shows of one agent's session besides
// codeman's view, the screen timeline and the daemon log.
type sessionLogs struct {
	screenHeading, screen string
	requests              string // the fake API's request log
	agent, hooks          string // whose hook log, and the log
}

// dumpSession describes the session on address for a failed test: the
// screen, codeman's view of the pane, the request log, the agent's hook
// log, the screen timeline and the daemon log.
func (r *rig) dumpSession(address string, start time.Time, mon *monitor, logs sessionLogs) string {
	var b strings.Builder
	if strings.HasPrefix(address, "screen:") {
		fmt.Fprintf(&b, "--- on %s ---\n", tmuxtest.Releases())
	}
	fmt.Fprintf(&b, "--- %s ---\n%s\n", logs.screenHeading, logs.screen)
	fmt.Fprintf(&b, "--- codeman's view (times are wall clock; the session started %s) ---\n%s",
		start.Format("15:04:05.000"), r.describePane(address))
	fmt.Fprintf(&b, "--- fake API requests ---\n%s", logs.requests)
	fmt.Fprintf(&b, "--- %s's hooks ---\n%s", logs.agent, logs.hooks)
	fmt.Fprintf(&b, "--- screen timeline ---\n%s", mon.describe(start))
	b.WriteString(r.daemonLog())
	return b.String()
}

func describeRequests(start time.Time, reqs []fakeapi.Request) string {
	var b strings.Builder
	for _, r := range reqs {
		kind := "turn"
		switch {
		case isCheck(r):
			kind = "AI check"
		case r.ToolResult:
			kind = "tool result"
		}
		b.WriteString(requestLine(start, r.Request, kind))
	}
	return b.String()
}

// requestLine is r's line in a dump's request log: kind says what the
// request is unless it is a title request.
func requestLine(start time.Time, r fakeserver.Request, kind string) string {
	if r.Title {
		kind = "title"
	}
	if r.Retry {
		kind += " (retry)"
	}
	return fmt.Sprintf("%s %s %s status=%d %s %q\n", rel(start, r.At), r.Method, r.Path, r.Status, kind, clip(r.LastUserText, 90))
}

func describeHooks(start time.Time, events []claudetest.HookEvent) string {
	var b strings.Builder
	for _, e := range events {
		detail := ""
		for _, key := range []string{"prompt", "tool_name", "source", "reason", "notification_type", "error"} {
			if v := e.Field(key); v != "" {
				detail += fmt.Sprintf(" %s=%q", key, clip(v, 60))
			}
		}
		fmt.Fprintf(&b, "%s %s%s\n", rel(start, e.At), e.Name, detail)
	}
	return b.String()
}

// clip shortens s to n characters for a dump.
func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
