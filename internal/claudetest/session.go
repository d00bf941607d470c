package claudetest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/fakeapi"
	"github.com/codeman-dev/codeman/internal/tmuxtest"
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
	// logs each call; see HookEvents and WaitForHook.
	RecordHooks bool
	// Record captures the pane's raw output from before Claude's first
	// frame, for SaveCast.
	Record bool
	// Ready says when claude has started; default PromptReady.
	Ready func(screen string) bool
	// StartTimeout bounds the wait for Ready; default DefaultStartTimeout.
	StartTimeout time.Duration
}

// Session is one real Claude Code CLI in a pane of a private tmux server.
// Its methods report failures through the test and must be called from the
// test's goroutine.
type Session struct {
	t      testing.TB
	claude string
	api    *fakeapi.Server
	tmux   *tmuxtest.Server
	root   string // everything the session writes: HOME, TMPDIR, hook log
	home   string
	dir    string // the project dir claude runs in
	hooks  string // hook log dir, when RecordHooks
	socket string
	pane   string
	pid    int // claude's pid: the pane's shell execs it
	// serverPID is the tmux server's pid, for $TMUX.
	serverPID string
	rec       *recorder
}

// startGate is the tmux wait-for channel the pane blocks on before it
// execs claude, so the recorder is attached before the first frame.
const startGate = "claudetest-start"

// NewSession starts claude and waits for its idle prompt box. It skips the
// test under -short, without tmux and without the CLI, and cleans
// everything up (tmux server, claude, HOME) when the test ends.
func NewSession(t testing.TB, opts Options) *Session {
	t.Helper()
	if testing.Short() {
		t.Skip("claudetest: the real Claude Code CLI is not run under -short")
	}
	claude, ok := FindClaude()
	if !ok {
		t.Skip(missingClaude())
	}
	s := &Session{t: t, claude: claude, api: opts.API}
	if s.api == nil {
		s.api = fakeapi.New(t)
	}
	t.Cleanup(s.close)
	if err := s.prepare(opts); err != nil {
		t.Fatalf("claudetest: %v", err)
	}
	if err := s.start(opts); err != nil {
		t.Fatalf("claudetest: %v", err)
	}
	ready, timeout := opts.Ready, opts.StartTimeout
	if ready == nil {
		ready = PromptReady
	}
	if timeout == 0 {
		timeout = DefaultStartTimeout
	}
	s.WaitFor(ready, "claude to start", timeout)
	return s
}

// prepare lays out the session's files (HOME with its seeds, the project
// dir, the hook recorder) and starts its tmux server.
func (s *Session) prepare(opts Options) error {
	// A short root of our own rather than t.TempDir(): its path shows on
	// screen (permission prompts name the project dir) and in every hook
	// payload, and the recordings should not carry test names.
	dir, err := os.MkdirTemp("", "claudetest-")
	if err != nil {
		return fmt.Errorf("create session dir: %w", err)
	}
	s.root = dir
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return fmt.Errorf("resolve session dir: %w", err)
	}
	s.home = filepath.Join(root, "home")
	// The trust seed is keyed by the cwd as claude sees it, so the path
	// must be free of symlinks.
	s.dir = filepath.Join(s.home, "proj")
	tmp := filepath.Join(root, "tmp")
	for _, dir := range []string{s.dir, tmp} {
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

// start opens the pane, attaches the recorder, and lets claude run.
func (s *Session) start(opts Options) error {
	out, err := s.tmux.Run("new-session", "-d", "-s", "claude", "-x", strconv.Itoa(tmuxtest.Width), "-y", strconv.Itoa(tmuxtest.Height),
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
// exec claude. The environment is in the command itself because a tmux
// server that already runs does not pass a client's environment on
// (docs/claude-code.md).
func (s *Session) paneCommand(opts Options) string {
	var words []string
	for _, w := range append(append(s.claudeEnv(opts), s.claude), opts.Args...) {
		words = append(words, shellQuote(w))
	}
	// Inside the pane $TMUX names this server, so the bare tmux client
	// reaches it.
	return "tmux wait-for " + startGate + " && exec env " + strings.Join(words, " ")
}

// claudeEnv is what claude needs to run offline against the fake
// (docs/claude-code.md): no telemetry, update or title side
// traffic, and one retry so an API error shows within seconds.
func (s *Session) claudeEnv(opts Options) []string {
	env := []string{
		"HOME=" + s.home,
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

// API returns the fake API the session talks to.
func (s *Session) API() *fakeapi.Server { return s.api }

// Socket returns the tmux server's socket path.
func (s *Session) Socket() string { return s.socket }

// PaneID returns claude's pane id, such as "%0".
func (s *Session) PaneID() string { return s.pane }

// Address returns the pane's canonical address, tmux:<socket>:<pane id>.
func (s *Session) Address() string { return "tmux:" + s.socket + ":" + s.pane }

// Home returns the throwaway HOME.
func (s *Session) Home() string { return s.home }

// Dir returns the project dir claude runs in.
func (s *Session) Dir() string { return s.dir }

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

// Tmux runs a tmux command against the session's server and returns its
// output, failing the test on error.
func (s *Session) Tmux(args ...string) string {
	s.t.Helper()
	return s.tmux.Tmux(args...)
}

// PaneEnv returns the environment a program started in claude's pane
// would see: the server's minimal environment plus TMUX and TMUX_PANE. Run
// codeman with it to act on the session as if from inside the pane.
func (s *Session) PaneEnv() []string {
	return append(s.tmux.Env(),
		"TMUX="+s.socket+","+s.serverPID+",0", "TMUX_PANE="+s.pane)
}
