package codextest

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/clitest"
	"github.com/codeman-dev/codeman/internal/rig/fakeopenai"
)

// DefaultStartTimeout bounds the wait for Codex's first idle prompt. It
// takes 1-3 s on 2 cores; the margin is for a loaded CI machine.
const DefaultStartTimeout = 30 * time.Second

// Options shape a Session. The zero value runs codex against a new fake
// API with the seeded config.
type Options struct {
	// API is the fake Codex talks to; nil starts one for the test.
	API *fakeopenai.Server
	// Config is merged over the seeded config.toml: tables merge key by
	// key and arrays append; anything else replaces the seed's value.
	Config map[string]any
	// Env adds KEY=VALUE pairs to codex's environment, after (and so over)
	// the defaults.
	Env []string
	// Args are extra codex arguments.
	Args []string
	// Files are written into the project dir before codex starts, by
	// slash-separated path relative to it (e.g. "AGENTS.md").
	Files map[string]string
	// RecordHooks installs and trusts a hook command for
	// RecordedHookEvents that logs each call; see Events and WaitForEvent.
	RecordHooks bool
	// RecordNotify sets Codex's notify program to one that logs each
	// notification with the hook calls.
	RecordNotify bool
	// Setup runs once CODEX_HOME is seeded, before codex starts: to
	// install hooks the way a user would (then leave RecordHooks off).
	Setup func(codexHome string) error
	// Screen runs codex in a window of a GNU screen session, whose display
	// the tmux pane holds (clitest.Launch.Screen): Address is then the
	// window's, screen:<PID.name>:0. It does not go with Record.
	Screen bool
	// Record captures the pane's raw output from before Codex's first
	// frame, for SaveCast.
	Record bool
	// Width is the pane's width in columns; 0 is tmuxtest.Width (200).
	Width int
	// Ready says when codex has started; default PromptReady.
	Ready func(screen string) bool
	// StartTimeout bounds the wait for Ready; default DefaultStartTimeout.
	StartTimeout time.Duration
}

// Session is one real Codex CLI in a pane of a private tmux server,
// talking to a fake API: a clitest.Pane, which types into the pane, waits
// on its screen, reads the log of hook calls and notify runs and records
// the pane. Its methods report failures through the test and must be
// called from the test's goroutine.
type Session struct {
	*clitest.Pane
	t         testing.TB
	codex     string
	api       *fakeopenai.Server
	codexHome string
}

// pasteEnterWindow is how long after a burst of keys Codex takes Enter for
// a newline in the pasted text rather than a submit (120 ms in 0.171.0,
// docs/codex.md), with a margin: Codex takes keys that arrive less than
// 8 ms apart for a paste.
const pasteEnterWindow = 200 * time.Millisecond

// NewSession starts codex and waits for its idle prompt. It skips the test
// under -short, without tmux and without the CLI, and cleans everything up
// (tmux server, codex, HOME) when the test ends.
func NewSession(t testing.TB, opts Options) *Session {
	t.Helper()
	codex := cli().Require(t)
	s := &Session{t: t, codex: codex, api: opts.API}
	if s.api == nil {
		s.api = fakeopenai.New(t)
	}
	s.Pane = clitest.NewPane(t, clitest.Config{
		Pkg: "codextest", Program: "codex", EnterDelay: pasteEnterWindow, APILog: func() []string { return clitest.APILog(s.api.Requests()) },
	})
	s.codexHome = filepath.Join(s.Home(), ".codex")
	if err := s.seed(opts); err != nil {
		t.Fatalf("codextest: %v", err)
	}
	if opts.Setup != nil {
		if err := opts.Setup(s.codexHome); err != nil {
			t.Fatalf("codextest: set up %s: %v", s.codexHome, err)
		}
	}
	ready, timeout := opts.Ready, opts.StartTimeout
	if ready == nil {
		ready = PromptReady
	}
	if timeout == 0 {
		timeout = DefaultStartTimeout
	}
	s.Start(clitest.Launch{
		Env: s.codexEnv(opts), Argv: append([]string{codex}, opts.Args...),
		Record: opts.Record, Width: opts.Width, Screen: opts.Screen, Ready: ready, Timeout: timeout,
	})
	return s
}

// codexEnv is what codex needs to run offline against the fake
// (docs/codex.md).
func (s *Session) codexEnv(opts Options) []string {
	env := []string{
		"HOME=" + s.Home(),
		"CODEX_HOME=" + s.codexHome,
		apiKeyEnv + "=" + FakeAPIKey,
	}
	env = append(env, clitest.NoProxyEnv()...)
	return append(env, opts.Env...)
}

// API returns the fake API the session talks to.
func (s *Session) API() *fakeopenai.Server { return s.api }

// CodexHome returns CODEX_HOME, which holds config.toml.
func (s *Session) CodexHome() string { return s.codexHome }

// Codex returns the path of the CLI binary the session runs.
func (s *Session) Codex() string { return s.codex }

// Version returns the version the session's CLI reports, failing the test
// when it cannot be read.
func (s *Session) Version() string {
	s.t.Helper()
	v, err := CLIVersion(s.codex)
	if err != nil {
		s.t.Fatalf("codextest: %v", err)
	}
	return v
}
