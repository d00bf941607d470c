package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/hooks"
	"github.com/codeman-dev/codeman/internal/rig/claudetest"
)

// roleVar makes the test binary act as codeman's hook handler instead of
// running tests.
const roleVar = "CODEMAN_E2E_ROLE"

// TestMain dispatches the hook handler role (stdlib os/exec test style),
// gives the screen scenarios a SCREENDIR of their own, and removes the
// codeman binaries built for the scenarios that run them.
func TestMain(m *testing.M) {
	if os.Getenv(roleVar) == "hook" {
		// As `codeman hook` does: stay silent and exit 0 whatever happens,
		// since Claude shows a hook's output and reports its failures.
		// An agent whose payloads name no event (Copilot) passes it as
		// the argument.
		event := ""
		if len(os.Args) > 1 && !strings.HasPrefix(os.Args[1], "-") {
			event = os.Args[1]
		}
		_, _ = hooks.HandleEvent(os.Stdin, os.Getenv, time.Now(), event)
		os.Exit(0)
	}
	// The screen scenarios' sessions live in a private SCREENDIR, away
	// from whoever runs the tests: the daemon, which runs in this process,
	// and every screen command of the tests look there.
	screenDir, err := os.MkdirTemp("", "scr") // short: screen's socket paths are limited
	if err == nil {
		os.Setenv("SCREENDIR", screenDir)
	}
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	if screenDir != "" {
		os.RemoveAll(screenDir)
	}
	os.Exit(code)
}

// requireE2E skips the test unless everything an end-to-end run needs is
// here, naming what is missing.
func requireE2E(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("e2e: the real Claude Code CLI is not run under -short")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("e2e: tmux not found in PATH")
	}
	claude, ok := claudetest.FindClaude()
	if !ok {
		t.Skipf("e2e: Claude Code CLI not found; run scripts/install-claude.sh (installs %s under %s) or set CODEMAN_E2E_CLAUDE",
			claudetest.Version, claudetest.InstallDir())
	}
	return claude
}

// built is the codeman binary and codeman-hook beside it, built once for
// the tests that run them.
var built struct {
	once sync.Once
	dir  string
	path string
	err  string
}

// buildCodeman builds cmd/codeman and cmd/codeman-hook into a temp dir on
// first use and returns codeman's path. `codeman hooks install` finds
// codeman-hook beside it and has the hooks run that, as in an install.
func buildCodeman(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("e2e: go not found in PATH; it builds the codeman binary")
	}
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "e2e-bin")
		if err != nil {
			built.err = err.Error()
			return
		}
		built.dir = dir
		var out bytes.Buffer
		cmd := exec.Command(goBin, "build", "-o", dir+string(filepath.Separator),
			"github.com/codeman-dev/codeman/cmd/codeman", hooks.HandlerPackage)
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			built.err = "build codeman: " + err.Error() + "\n" + out.String()
			return
		}
		built.path = filepath.Join(dir, "codeman")
	})
	if built.err != "" {
		t.Fatal(built.err)
	}
	return built.path
}
