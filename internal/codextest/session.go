package codextest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/fakeopenai"
	"github.com/codeman-dev/codeman/internal/tmuxtest"
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
	// Record captures the pane's raw output from before Codex's first
	// frame, for SaveCast.
	Record bool
	// Ready says when codex has started; default PromptReady.
	Ready func(screen string) bool
	// StartTimeout bounds the wait for Ready; default DefaultStartTimeout.
	StartTimeout time.Duration
}

// Session is one real Codex CLI in a pane of a private tmux server. Its
// methods report failures through the test and must be called from the
// test's goroutine.
type Session struct {
	t         testing.TB
	codex     string
	api       *fakeopenai.Server
	tmux      *tmuxtest.Server
	root      string // everything the session writes: HOME, TMPDIR, event log
	home      string
	codexHome string
	dir       string // the project dir codex runs in
	events    string // hook and notify log dir, when recording either
	socket    string
	pane      string
	pid       int // codex's pid: the pane's shell execs it
	serverPID string
	rec       *recorder
}

// startGate is the tmux wait-for channel the pane blocks on before it
// execs codex, so the recorder is attached before the first frame.
const startGate = "codextest-start"

// NewSession starts codex and waits for its idle prompt. It skips the test
// under -short, without tmux and without the CLI, and cleans everything up
// (tmux server, codex, HOME) when the test ends.
func NewSession(t testing.TB, opts Options) *Session {
	t.Helper()
	if testing.Short() {
		t.Skip("codextest: the real Codex CLI is not run under -short")
	}
	codex, ok := FindCodex()
	if !ok {
		t.Skip(missingCodex())
	}
	s := &Session{t: t, codex: codex, api: opts.API}
	if s.api == nil {
		s.api = fakeopenai.New(t)
	}
	t.Cleanup(s.close)
	if err := s.prepare(opts); err != nil {
		t.Fatalf("codextest: %v", err)
	}
	if err := s.start(opts); err != nil {
		t.Fatalf("codextest: %v", err)
	}
	ready, timeout := opts.Ready, opts.StartTimeout
	if ready == nil {
		ready = PromptReady
	}
	if timeout == 0 {
		timeout = DefaultStartTimeout
	}
	s.WaitFor(ready, "codex to start", timeout)
	return s
}

// prepare lays out the session's files (HOME, CODEX_HOME with its config,
// the project dir, the recorder) and starts its tmux server.
func (s *Session) prepare(opts Options) error {
	// A short root of our own rather than t.TempDir(): its path shows on
	// screen (the header names the project dir) and in every hook payload,
	// and the recordings should not carry test names.
	dir, err := os.MkdirTemp("", "codextest-")
	if err != nil {
		return fmt.Errorf("create session dir: %w", err)
	}
	s.root = dir
	// Trust entries are keyed by paths as Codex resolves them, so the
	// root must be free of symlinks.
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return fmt.Errorf("resolve session dir: %w", err)
	}
	s.home = filepath.Join(root, "home")
	s.codexHome = filepath.Join(s.home, ".codex")
	s.dir = filepath.Join(s.home, "proj")
	// TMPDIR outside CODEX_HOME's parent: Codex refuses to put its helper
	// links into a CODEX_HOME under the temp dir, and says so on stderr.
	tmp := filepath.Join(root, "tmp")
	for _, dir := range []string{s.dir, s.codexHome, tmp} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("create session dir: %w", err)
		}
	}
	if err := s.seed(root, opts); err != nil {
		return err
	}
	s.tmux = tmuxtest.NewServerWith(s.t, tmuxtest.Options{Config: serverConf, Env: serverEnv(s.home, tmp)})
	return nil
}

// start opens the pane, attaches the recorder, and lets codex run.
func (s *Session) start(opts Options) error {
	out, err := s.tmux.Run("new-session", "-d", "-s", "codex", "-x", strconv.Itoa(tmuxtest.Width), "-y", strconv.Itoa(tmuxtest.Height),
		"-c", s.dir, "-P", "-F", "#{pane_id} #{pane_pid} #{socket_path} #{pid}", s.paneCommand(opts))
	if err != nil {
		return err
	}
	fields := strings.Fields(out)
	if len(fields) != 4 {
		return fmt.Errorf("new-session printed %q, want pane id, pane pid, socket and server pid", out)
	}
	s.pane, s.socket, s.serverPID = fields[0], fields[2], fields[3]
	if s.pid, err = strconv.Atoi(fields[1]); err != nil {
		return fmt.Errorf("new-session printed pid %q: %w", fields[1], err)
	}
	if opts.Record {
		if s.rec, err = startRecorder(s.tmux, s.pane, filepath.Join(s.root, "output.fifo")); err != nil {
			return err
		}
	}
	_, err = s.tmux.Run("wait-for", "-S", startGate)
	return err
}

// paneCommand is the shell command of the pane: wait at the gate, then
// exec codex. The environment is in the command itself because a tmux
// server that already runs does not pass a client's environment on.
func (s *Session) paneCommand(opts Options) string {
	var words []string
	for _, w := range append(append(s.codexEnv(opts), s.codex), opts.Args...) {
		words = append(words, shellQuote(w))
	}
	// Inside the pane $TMUX names this server, so the bare tmux client
	// reaches it.
	return "tmux wait-for " + startGate + " && exec env " + strings.Join(words, " ")
}

// deadProxy is a loopback port nothing listens on: every proxy variable
// points there, so a request that is not for loopback fails at once.
const deadProxy = "http://127.0.0.1:9"

// codexEnv is what codex needs to run offline against the fake
// (docs/codex.md).
func (s *Session) codexEnv(opts Options) []string {
	env := []string{
		"HOME=" + s.home,
		"CODEX_HOME=" + s.codexHome,
		apiKeyEnv + "=" + FakeAPIKey,
		"HTTP_PROXY=" + deadProxy, "HTTPS_PROXY=" + deadProxy, "ALL_PROXY=" + deadProxy,
		"http_proxy=" + deadProxy, "https_proxy=" + deadProxy, "all_proxy=" + deadProxy,
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
	}
	return append(env, opts.Env...)
}

// API returns the fake API the session talks to.
func (s *Session) API() *fakeopenai.Server { return s.api }

// Socket returns the tmux server's socket path.
func (s *Session) Socket() string { return s.socket }

// PaneID returns codex's pane id, such as "%0".
func (s *Session) PaneID() string { return s.pane }

// Address returns the pane's canonical address, tmux:<socket>:<pane id>.
func (s *Session) Address() string { return "tmux:" + s.socket + ":" + s.pane }

// Home returns the throwaway HOME.
func (s *Session) Home() string { return s.home }

// CodexHome returns CODEX_HOME, which holds config.toml.
func (s *Session) CodexHome() string { return s.codexHome }

// Dir returns the project dir codex runs in.
func (s *Session) Dir() string { return s.dir }

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

// Tmux runs a tmux command against the session's server and returns its
// output, failing the test on error.
func (s *Session) Tmux(args ...string) string {
	s.t.Helper()
	return s.tmux.Tmux(args...)
}

// PaneTitle returns the pane's title, which Codex sets (a spinner while
// it works, "Action Required" while it asks).
func (s *Session) PaneTitle() string {
	s.t.Helper()
	return strings.TrimSuffix(s.Tmux("display-message", "-p", "-t", s.pane, "#{pane_title}"), "\n")
}

// PaneEnv returns the environment a program started in codex's pane would
// see: the server's minimal environment plus TMUX and TMUX_PANE.
func (s *Session) PaneEnv() []string {
	return append(s.tmux.Env(),
		"TMUX="+s.socket+","+s.serverPID+",0", "TMUX_PANE="+s.pane)
}
