package opencodetest

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/clitest"
	"github.com/codeman-dev/codeman/internal/rig/fakeapi"
)

// DefaultStartTimeout bounds the wait for OpenCode's idle composer. It
// takes about 4 s on 2 cores with the config dir seeded; the margin is for
// a loaded CI machine.
const DefaultStartTimeout = 45 * time.Second

// Options shape a Session. The zero value runs opencode in an empty
// project against a new fake API, with OpenCode's default permissions
// (everything allowed).
type Options struct {
	// API is the fake OpenCode talks to; nil starts one for the test, whose
	// first rule answers the title request with TitleText.
	API *fakeapi.Server
	// Config is merged over Config's (clitest.Merge): AskPermissions, for
	// one, makes commands and file writes ask first.
	Config map[string]any
	// Env adds KEY=VALUE pairs to opencode's environment, after (and so
	// over) the defaults.
	Env []string
	// Args are extra opencode arguments.
	Args []string
	// Files are written into the project dir before opencode starts, by
	// slash-separated path relative to it.
	Files map[string]string
	// RecordEvents installs codeman's own OpenCode plugin with a handler
	// that logs each event it forwards (session.status busy and retry,
	// session.idle, session.error, permission.asked and
	// permission.replied; the hooks chat.message, tool.execute.before and
	// tool.execute.after); see Events and WaitForEvent.
	RecordEvents bool
	// Screen runs opencode in a window of a GNU screen session, whose
	// display the tmux pane holds (clitest.Launch.Screen): Address is then
	// the window's. It does not go with Record.
	Screen bool
	// Record captures the pane's raw output from before OpenCode's first
	// frame, for SaveCast.
	Record bool
	// Width is the pane's width in columns; 0 is tmuxtest.Width (200).
	Width int
	// Ready says when opencode has started; default PromptReady.
	Ready func(screen string) bool
	// StartTimeout bounds the wait for Ready; default DefaultStartTimeout.
	StartTimeout time.Duration
}

// TitleText is what a new fake answers OpenCode's title request with (the
// first request of a session's first turn: small_model, no tools); it
// shows at the top right.
const TitleText = "Fake title"

// Session is one real OpenCode in a pane of a private tmux server,
// talking to a fake API: a clitest.Pane, which types into the pane, waits
// on its screen, reads the log of events and records the pane. Its methods
// report failures through the test and must be called from the test's
// goroutine.
type Session struct {
	*clitest.Pane
	t         testing.TB
	opencode  string
	api       *fakeapi.Server
	configDir string
	config    map[string]any
}

// NewAPI starts a fake for one test whose first rule answers OpenCode's
// title request, the one request without tools, with TitleText.
func NewAPI(t testing.TB) *fakeapi.Server {
	t.Helper()
	api := fakeapi.New(t)
	api.HandleFunc(func(r fakeapi.Request) (fakeapi.Reply, bool) {
		return fakeapi.Reply{Text: TitleText}, len(r.Tools) == 0
	})
	return api
}

// NewSession starts opencode and waits until it is ready. It skips the
// test under -short, without tmux and without the CLI, and cleans
// everything up (tmux server, opencode, HOME) when the test ends.
func NewSession(t testing.TB, opts Options) *Session {
	t.Helper()
	opencode := Require(t)
	s := &Session{t: t, opencode: opencode, api: opts.API}
	if s.api == nil {
		s.api = NewAPI(t)
	}
	// Enter needs no delay: text and its CR in one write submit
	// (docs/opencode.md, "Keys").
	s.Pane = clitest.NewPane(t, clitest.Config{Pkg: "opencodetest", Program: "opencode",
		APILog: func() []string { return clitest.MessagesAPILog(s.api.Requests()) }})
	s.configDir = filepath.Join(s.Home(), ".config", "opencode")
	s.config = clitest.Merge(Config(s.api.URL()), opts.Config)
	if err := s.seed(opts); err != nil {
		t.Fatalf("opencodetest: %v", err)
	}
	env, err := ProviderEnv(s.config)
	if err != nil {
		t.Fatalf("opencodetest: %v", err)
	}
	ready, timeout := opts.Ready, opts.StartTimeout
	if ready == nil {
		ready = PromptReady
	}
	if timeout == 0 {
		timeout = DefaultStartTimeout
	}
	env = append(env, "HOME="+s.Home())
	if opts.Screen {
		// The window is screen's terminal, not tmux's: with tmux's
		// TERM_PROGRAM, which the window inherits from the pane, OpenCode
		// wraps its terminal queries for tmux, screen shows them as text
		// and the start takes half a minute or more.
		env = append(env, "TERM_PROGRAM=", "TERM_PROGRAM_VERSION=")
	}
	s.Start(clitest.Launch{
		Env: append(env, opts.Env...), Argv: append([]string{opencode}, opts.Args...),
		Record: opts.Record, Width: opts.Width, Screen: opts.Screen, Ready: ready, Timeout: timeout,
	})
	return s
}

// API returns the fake API the session talks to.
func (s *Session) API() *fakeapi.Server { return s.api }

// ConfigDir returns ~/.config/opencode, which holds the seeded
// dependencies and plugins/.
func (s *Session) ConfigDir() string { return s.configDir }

// OpenCode returns the path of the CLI binary the session runs.
func (s *Session) OpenCode() string { return s.opencode }

// Version returns the version the session's CLI reports, failing the test
// when it cannot be read.
func (s *Session) Version() string {
	s.t.Helper()
	v, err := CLIVersion(s.opencode, s.Home())
	if err != nil {
		s.t.Fatalf("opencodetest: %v", err)
	}
	return v
}
