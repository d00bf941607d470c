package claudetest

import (
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/clitest"
	"github.com/codeman-dev/codeman/internal/rig/fakeapi"
)

// DefaultStartTimeout bounds the wait for Claude's first idle prompt box.
// It takes 1–1.4 s on 2 cores (docs/claude-code.md); the
// margin is for a loaded CI machine.
const DefaultStartTimeout = 30 * time.Second

// Options shape a Session. The zero value runs claude with an API key
// against a new fake API.
type Options struct {
	// API is the fake Claude talks to; nil starts one for the test.
	API *fakeapi.Server
	// Settings is merged over the seeded ~/.claude/settings.json: maps
	// merge key by key and lists append, so hook entries (codeman's, say)
	// join the recorder's.
	Settings map[string]any
	// ClaudeJSON is merged over the seeded ~/.claude.json, e.g.
	// {"messageIdleNotifThresholdMs": 5000}.
	ClaudeJSON map[string]any
	// OAuth runs claude with CLAUDE_CODE_OAUTH_TOKEN instead of
	// ANTHROPIC_API_KEY: subscription-style auth, under which a 429 with
	// fakeapi.UsageLimit shows as a usage limit.
	OAuth bool
	// Env adds KEY=VALUE pairs to claude's environment, after (and so
	// over) the defaults.
	Env []string
	// Args are extra claude arguments.
	Args []string
	// Files are written into the project dir before claude starts, by
	// slash-separated path relative to it (e.g. "CLAUDE.md").
	Files map[string]string
	// RecordHooks installs a hook command for RecordedHookEvents that
	// logs each call; see Events and WaitForEvent.
	RecordHooks bool
	// Screen runs claude in a window of a GNU screen session, whose display
	// the tmux pane holds (clitest.Launch.Screen): Address is then the
	// window's, screen:<PID.name>:0. It does not go with Record.
	Screen bool
	// FromShell runs claude from an interactive bash in the pane, typed
	// at its prompt (clitest.Launch.FromShell): when claude exits, the
	// pane runs bash.
	FromShell bool
	// Record captures the pane's raw output from before Claude's first
	// frame, for SaveCast.
	Record bool
	// Ready says when claude has started; default PromptReady.
	Ready func(screen string) bool
	// StartTimeout bounds the wait for Ready; default DefaultStartTimeout.
	StartTimeout time.Duration
}

// Session is one real Claude Code CLI in a pane of a private tmux server,
// talking to a fake API: a clitest.Pane, which types into the pane, waits
// on its screen, reads the hook log and records the pane. Its methods
// report failures through the test and must be called from the test's
// goroutine.
type Session struct {
	*clitest.Pane
	t      testing.TB
	claude string
	api    *fakeapi.Server
}

// NewSession starts claude and waits for its idle prompt box. It skips the
// test under -short, without tmux and without the CLI, and cleans
// everything up (tmux server, claude, HOME) when the test ends.
func NewSession(t testing.TB, opts Options) *Session {
	t.Helper()
	claude := cli().Require(t)
	s := &Session{t: t, claude: claude, api: opts.API}
	if s.api == nil {
		s.api = fakeapi.New(t)
	}
	s.Pane = clitest.NewPane(t, clitest.Config{Pkg: "claudetest", Program: "claude", APILog: s.apiLog})
	if err := s.seed(opts); err != nil {
		t.Fatalf("claudetest: %v", err)
	}
	ready, timeout := opts.Ready, opts.StartTimeout
	if ready == nil {
		ready = PromptReady
	}
	if timeout == 0 {
		timeout = DefaultStartTimeout
	}
	s.Start(clitest.Launch{
		Env: s.claudeEnv(opts), Argv: append([]string{claude}, opts.Args...),
		Record: opts.Record, Screen: opts.Screen, FromShell: opts.FromShell, Ready: ready, Timeout: timeout,
	})
	return s
}

// claudeEnv is what claude needs to run offline against the fake
// (docs/claude-code.md): no telemetry, update or title side
// traffic, and one retry so an API error shows within seconds.
func (s *Session) claudeEnv(opts Options) []string {
	env := []string{
		"HOME=" + s.Home(),
		"ANTHROPIC_BASE_URL=" + s.api.URL(),
		"DISABLE_TELEMETRY=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_MAX_RETRIES=1",
	}
	if opts.OAuth {
		env = append(env, "CLAUDE_CODE_OAUTH_TOKEN="+FakeOAuthToken)
	} else {
		env = append(env, "ANTHROPIC_API_KEY="+FakeAPIKey)
	}
	return append(env, opts.Env...)
}

// apiLog lists the fake API's requests for a failed wait's dump.
func (s *Session) apiLog() []string { return clitest.MessagesAPILog(s.api.Requests()) }

// API returns the fake API the session talks to.
func (s *Session) API() *fakeapi.Server { return s.api }

// Claude returns the path of the CLI binary the session runs.
func (s *Session) Claude() string { return s.claude }

// Version returns the version the session's CLI reports, failing the test
// when it cannot be read.
func (s *Session) Version() string {
	s.t.Helper()
	v, err := CLIVersion(s.claude)
	if err != nil {
		s.t.Fatalf("claudetest: %v", err)
	}
	return v
}
