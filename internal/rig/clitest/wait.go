package clitest

import (
	"fmt"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/fakeapi"
	"github.com/codeman-dev/codeman/internal/rig/fakeopenai"
	"github.com/codeman-dev/codeman/internal/rig/fakeserver"
	"github.com/codeman-dev/codeman/internal/rig/wait"
)

// Capture returns the pane's screen as plain text, one line per row.
func (p *Pane) Capture() string {
	p.t.Helper()
	return p.Tmux("capture-pane", "-p", "-t", p.pane)
}

// CaptureANSI returns the pane's screen with its colours and attributes as
// escape sequences (capture-pane -e).
func (p *Pane) CaptureANSI() string {
	p.t.Helper()
	return p.Tmux("capture-pane", "-p", "-e", "-t", p.pane)
}

// WaitFor captures the pane until pred holds and returns that screen. It
// fails the test, dumping the pane and the fake API's log, when timeout
// passes or the CLI exits first; what names the awaited condition.
func (p *Pane) WaitFor(pred func(screen string) bool, what string, timeout time.Duration) string {
	p.t.Helper()
	screen, err := p.poll(pred, what, timeout)
	if err != nil {
		p.t.Fatalf("%s: %v\n%s", p.cfg.Pkg, err, p.dump(screen))
	}
	return screen
}

// WaitForExit waits until the CLI has exited and returns the pane's last
// screen and the CLI's exit status.
func (p *Pane) WaitForExit(timeout time.Duration) (screen, status string) {
	p.t.Helper()
	err := wait.Until(p.cfg.Program+" to exit", timeout, func() bool {
		var err error
		screen, status, err = p.captureState()
		return err != nil || status != ""
	})
	if err != nil || status == "" {
		p.t.Fatalf("%s: %v\n%s", p.cfg.Pkg, err, p.dump(screen))
	}
	return screen, status
}

// poll is WaitFor without the failure. It gives up early when the pane
// cannot be read or the CLI has exited.
func (p *Pane) poll(pred func(string) bool, what string, timeout time.Duration) (string, error) {
	var screen, dead string
	var held bool
	var captureErr error
	err := wait.Until(what, timeout, func() bool {
		screen, dead, captureErr = p.captureState()
		held = captureErr == nil && pred(screen)
		return held || captureErr != nil || dead != ""
	})
	switch {
	case captureErr != nil:
		return screen, fmt.Errorf("wait for %s: %w", what, captureErr)
	case held:
		return screen, nil
	case dead != "":
		return screen, fmt.Errorf("wait for %s: %s exited (status %s)", what, p.cfg.Program, dead)
	}
	return screen, err
}

// captureState captures the screen and, in the same tmux call, whether the
// pane's program has exited (its exit status then, else "").
func (p *Pane) captureState() (screen, deadStatus string, err error) {
	out, err := p.tmux.Run("capture-pane", "-p", "-t", p.pane, ";",
		"display-message", "-p", "-t", p.pane, "#{?pane_dead,dead #{pane_dead_status}:#{pane_dead_signal},alive}")
	if err != nil {
		return "", "", err
	}
	out = strings.TrimSuffix(out, "\n")
	cut := strings.LastIndexByte(out, '\n')
	screen, state := out[:cut+1], out[cut+1:]
	// tmux marks the pane dead when its pty closes and learns the status
	// only when it reaps the child: until then neither is set and the CLI
	// is not reported as exited yet.
	if dead, ok := strings.CutPrefix(state, "dead "); ok {
		switch status, signal, _ := strings.Cut(dead, ":"); {
		case status != "":
			deadStatus = status
		case signal != "":
			deadStatus = "signal " + signal
		default:
			p.nudgeReaper()
		}
	}
	return strings.TrimSuffix(screen, "\n"), deadStatus, nil
}

// nudgeReaper sends the tmux server a SIGCHLD. tmux 3.3a now and then
// misses the one the kernel sent when the CLI exited and leaves it a
// zombie, its pane dead with no status, until another child exits; the
// extra signal makes it reap. A SIGCHLD with nothing to reap is harmless.
func (p *Pane) nudgeReaper() {
	if pid, err := strconv.Atoi(p.serverPID); err == nil && pid > 0 {
		_ = syscall.Kill(pid, syscall.SIGCHLD)
	}
}

// captureOrError returns the screen, or why it could not be read.
func (p *Pane) captureOrError() string {
	screen, _, err := p.captureState()
	if err != nil {
		return err.Error()
	}
	return screen
}

// dumpRequests is how many of the fake API's requests a dump shows, the
// most recent.
const dumpRequests = 10

// dump shows a failed wait's last screen and the fake API's recent
// requests.
func (p *Pane) dump(screen string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "--- pane %s ---\n%s\n--- fake API requests ---\n", p.pane, screen)
	var reqs []string
	if p.cfg.APILog != nil {
		reqs = p.cfg.APILog()
	}
	if len(reqs) > dumpRequests {
		fmt.Fprintf(&b, "(%d earlier)\n", len(reqs)-dumpRequests)
		reqs = reqs[len(reqs)-dumpRequests:]
	}
	for _, r := range reqs {
		b.WriteString(r + "\n")
	}
	return b.String()
}

// Clip cuts text after n bytes for a request's line in APILog, marking
// the cut with an ellipsis.
func Clip(text string, n int) string {
	if len(text) > n {
		return text[:n] + "…"
	}
	return text
}

// RequestLine is one line of a fake API's request log in a failed wait's
// dump: time, method, path, status, the API's tool-loop flag by its name,
// whether it is the title request, and the last user text, clipped.
func RequestLine(r fakeserver.Request, loopFlag string, loop bool) string {
	return fmt.Sprintf("%s %s %s status=%d %s=%t title=%t %q",
		r.At.Format("15:04:05.000"), r.Method, r.Path, r.Status, loopFlag, loop, r.Title, Clip(r.LastUserText, 80))
}

// APILog lists a fake OpenAI API's requests for a failed wait's dump, one
// line each, oldest first (Config.APILog).
func APILog(reqs []fakeopenai.Request) []string {
	lines := make([]string, 0, len(reqs))
	for _, r := range reqs {
		lines = append(lines, RequestLine(r.Request, "tool_output", r.ToolOutput))
	}
	return lines
}

// MessagesAPILog lists a fake Anthropic Messages API's requests for a
// failed wait's dump, one line each, oldest first (Config.APILog).
func MessagesAPILog(reqs []fakeapi.Request) []string {
	lines := make([]string, 0, len(reqs))
	for _, r := range reqs {
		lines = append(lines, RequestLine(r.Request, "tool_result", r.ToolResult))
	}
	return lines
}
