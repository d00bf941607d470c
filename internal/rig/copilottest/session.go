package copilottest

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/clitest"
	"github.com/codeman-dev/codeman/internal/rig/fakeopenai"
)

// DefaultStartTimeout bounds the wait for Copilot's idle box or trust
// dialog. It takes 2.5-3.5 s on 2 cores; the margin is for a loaded CI
// machine.
const DefaultStartTimeout = 30 * time.Second

// Options shape a Session. The zero value runs copilot in a trusted
// project against a new fake API.
type Options struct {
	// API is the fake Copilot talks to; nil starts one for the test.
	API *fakeopenai.Server
	// Env adds KEY=VALUE pairs to copilot's environment, after (and so
	// over) the defaults.
	Env []string
	// Args are extra copilot arguments (--allow-tool, --mode, ...).
	Args []string
	// Files are written into the project dir before copilot starts, by
	// slash-separated path relative to it.
	Files map[string]string
	// Settings, when set, is written as $COPILOT_HOME/settings.json.
	Settings map[string]any
	// Untrusted leaves the project folder out of config.json, so that
	// Copilot opens with its trust dialog; Ready then defaults to
	// TrustOpen.
	Untrusted bool
	// RecordHooks registers a hook command for RecordedHookEvents in
	// $COPILOT_HOME/hooks/rec.json that logs each call; see Events and
	// WaitForEvent.
	RecordHooks bool
	// Setup runs once COPILOT_HOME is seeded, before copilot starts: to
	// install hooks the way a user would. Copilot runs them beside the
	// recorder's, each hooks/*.json file's.
	Setup func(copilotHome string) error
	// Screen runs copilot in a window of a GNU screen session, whose
	// display the tmux pane holds (clitest.Launch.Screen): Address is then
	// the window's. It does not go with Record.
	Screen bool
	// Record captures the pane's raw output from before Copilot's first
	// frame, for SaveCast.
	Record bool
	// FromShell starts copilot from an interactive bash in the pane, as a
	// person would (clitest.Launch.FromShell).
	FromShell bool
	// Width is the pane's width in columns; 0 is tmuxtest.Width (200).
	Width int
	// Ready says when copilot has started; default PromptReady, or
	// TrustOpen with Untrusted.
	Ready func(screen string) bool
	// StartTimeout bounds the wait for Ready; default DefaultStartTimeout.
	StartTimeout time.Duration
}

// Session is one real Copilot CLI in a pane of a private tmux server,
// talking to a fake API: a clitest.Pane, which types into the pane, waits
// on its screen, reads the log of hook calls and records the pane. Its
// methods report failures through the test and must be called from the
// test's goroutine.
type Session struct {
	*clitest.Pane
	t           testing.TB
	copilot     string
	api         *fakeopenai.Server
	copilotHome string
}

// NewSession starts copilot and waits until it is ready. It skips the test
// under -short, without tmux and without the CLI, and cleans everything up
// (tmux server, copilot, HOME) when the test ends.
func NewSession(t testing.TB, opts Options) *Session {
	t.Helper()
	copilot := Require(t)
	s := &Session{t: t, copilot: copilot, api: opts.API}
	if s.api == nil {
		s.api = fakeopenai.New(t)
	}
	// Enter needs no delay: Copilot takes the keys of one read for a
	// paste, and Type sends Enter in a tmux command of its own once the
	// text shows (docs/copilot.md, "Typing").
	s.Pane = clitest.NewPane(t, clitest.Config{Pkg: "copilottest", Program: "copilot", APILog: func() []string { return clitest.APILog(s.api.Requests()) }})
	s.copilotHome = filepath.Join(s.Home(), ".copilot")
	if err := s.seed(opts); err != nil {
		t.Fatalf("copilottest: %v", err)
	}
	if opts.Setup != nil {
		if err := opts.Setup(s.copilotHome); err != nil {
			t.Fatalf("copilottest: set up %s: %v", s.copilotHome, err)
		}
	}
	ready, timeout := opts.Ready, opts.StartTimeout
	switch {
	case ready != nil:
	case opts.Untrusted:
		ready = TrustOpen
	default:
		ready = PromptReady
	}
	if timeout == 0 {
		timeout = DefaultStartTimeout
	}
	s.Start(clitest.Launch{
		Env: s.Env(opts.Env...), Argv: append([]string{copilot}, opts.Args...),
		Record: opts.Record, Width: opts.Width, Screen: opts.Screen, FromShell: opts.FromShell,
		Ready: ready, Timeout: timeout,
	})
	return s
}

// Env is what copilot needs to run offline against the session's fake
// (docs/copilot.md, "Running it offline"), then extra. A command that runs
// copilot beside the pane's, such as an AI check, runs with it too.
func (s *Session) Env(extra ...string) []string {
	env := append(ProviderEnv(s.api.BaseURL()),
		"HOME="+s.Home(),
		"COPILOT_HOME="+s.copilotHome,
		"COPILOT_CACHE_HOME="+CacheHome(),
	)
	return append(env, extra...)
}

// ProviderEnv is the environment that points Copilot at a fake Responses
// API at baseURL and keeps it off the network: BYOK mode, offline mode, no
// auto-update, every proxy at a closed port. It sets neither HOME nor
// COPILOT_HOME.
func ProviderEnv(baseURL string) []string {
	return append([]string{
		"COPILOT_PROVIDER_BASE_URL=" + baseURL,
		"COPILOT_PROVIDER_TYPE=openai",
		"COPILOT_PROVIDER_WIRE_API=responses",
		"COPILOT_PROVIDER_API_KEY=" + FakeAPIKey,
		"COPILOT_MODEL=" + Model,
		"COPILOT_OFFLINE=true",
		"COPILOT_AUTO_UPDATE=false",
	}, clitest.NoProxyEnv()...)
}

// API returns the fake API the session talks to.
func (s *Session) API() *fakeopenai.Server { return s.api }

// CopilotHome returns COPILOT_HOME, which holds config.json, settings.json
// and hooks/.
func (s *Session) CopilotHome() string { return s.copilotHome }

// Copilot returns the path of the CLI binary the session runs.
func (s *Session) Copilot() string { return s.copilot }

// Version returns the version the session's CLI reports, failing the test
// when it cannot be read.
func (s *Session) Version() string {
	s.t.Helper()
	v, err := CLIVersion(s.copilot)
	if err != nil {
		s.t.Fatalf("copilottest: %v", err)
	}
	return v
}
