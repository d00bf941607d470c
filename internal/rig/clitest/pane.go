package clitest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/codeman-dev/codeman/internal/rig/tmuxtest"
)

// Config says what a Pane needs to know of the CLI it runs.
type Config struct {
	// Pkg is the test package's name ("claudetest"). It prefixes failure
	// messages and names the session's temp dir, start gate and paste
	// buffer.
	Pkg string
	// Program is what the tmux session and messages call the CLI
	// ("claude").
	Program string
	// EnterDelay is the least time Type leaves between the text's first
	// key and Enter, for a CLI that takes an Enter soon after a burst of
	// keys as a newline in a paste.
	EnterDelay time.Duration
	// APILog lists the fake API's requests for a failed wait's dump, one
	// line each, oldest first; nil lists none.
	APILog func() []string
}

// Launch says how Start runs the CLI.
type Launch struct {
	// Env is the CLI's environment over the server's, as KEY=VALUE.
	Env []string
	// Argv is the CLI's path and its arguments.
	Argv []string
	// Record captures the pane's raw output from before the CLI's first
	// frame, for SaveCast.
	Record bool
	// Ready says when the CLI has started; Timeout bounds the wait for it.
	Ready   func(screen string) bool
	Timeout time.Duration
	// Width is the pane's width in columns; 0 is tmuxtest.Width. A CLI
	// that wraps its own rows is recorded at several widths with it.
	Width int
	// FromShell starts an interactive bash in the pane (with Env), which
	// runs the CLI the way a person does, by a command line typed at its
	// prompt: the CLI is then the pane's foreground program, and bash is
	// again once the CLI exits. It does not go with Screen.
	FromShell bool
	// Screen runs the CLI in window 0 of a GNU screen session instead of
	// in the pane itself. The pane then holds screen's display of the
	// session, attached as a person's terminal would be: capture, typed
	// keys and the pane title (the window's title) all go through it, and
	// Address names the window. It does not go with Record.
	Screen bool
}

// Pane is one real CLI in a pane of a private tmux server, with a
// throwaway HOME. Its methods report failures through the test and must be
// called from the test's goroutine.
type Pane struct {
	t      testing.TB
	cfg    Config
	root   string // everything the session writes: HOME, TMPDIR, event log
	home   string
	dir    string // the project dir the CLI runs in
	tmp    string
	events string // the event log dir, once RecordEvents made it
	tmux   *tmuxtest.Server
	socket string
	pane   string
	pid    int // the CLI's pid: the pane's shell execs it
	width  int // the pane's columns
	// serverPID is the tmux server's pid, for $TMUX.
	serverPID string
	rec       *recorder
	screen    *screenSession // the GNU screen session the CLI runs in, nil in a plain pane
}

// NewPane lays out the session's dirs: HOME, the project dir HOME/proj
// and TMPDIR. It removes them, and stops the server and the CLI once
// started, when the test ends.
func NewPane(t testing.TB, cfg Config) *Pane {
	t.Helper()
	p := &Pane{t: t, cfg: cfg}
	t.Cleanup(p.close)
	if err := p.makeDirs(); err != nil {
		t.Fatalf("%s: %v", cfg.Pkg, err)
	}
	return p
}

// makeDirs creates the session's root and the dirs in it.
func (p *Pane) makeDirs() error {
	// A short root of our own rather than t.TempDir(): its path shows on
	// screen (the CLIs name the project dir) and in every hook payload,
	// and the recordings should not carry test names.
	dir, err := os.MkdirTemp("", p.cfg.Pkg+"-")
	if err != nil {
		return fmt.Errorf("create session dir: %w", err)
	}
	p.root = dir
	// The CLIs key their trust of the project dir by its path as they
	// resolve it, so the root must be free of symlinks.
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return fmt.Errorf("resolve session dir: %w", err)
	}
	p.home = filepath.Join(root, "home")
	p.dir = filepath.Join(p.home, "proj")
	// TMPDIR beside HOME, not above it: Codex refuses to put its helper
	// links into a CODEX_HOME under the temp dir.
	p.tmp = filepath.Join(root, "tmp")
	for _, dir := range []string{p.dir, p.tmp} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("create session dir: %w", err)
		}
	}
	return nil
}

// Start starts the private tmux server, opens the pane, attaches the
// recorder (or, with Launch.Screen, starts the screen session in the
// pane), lets the CLI run and waits until Ready holds.
func (p *Pane) Start(l Launch) {
	p.t.Helper()
	p.width = l.Width
	if p.width == 0 {
		p.width = tmuxtest.Width
	}
	if l.Screen {
		p.screen = p.newScreenSession(l)
	}
	p.tmux = tmuxtest.NewServerWith(p.t, tmuxtest.Options{Config: serverConf, Env: serverEnv(p.home, p.tmp)})
	if err := p.open(l); err != nil {
		p.t.Fatalf("%s: %v", p.cfg.Pkg, err)
	}
	if p.screen != nil {
		p.screen.find()
	}
	p.WaitFor(l.Ready, p.cfg.Program+" to start", l.Timeout)
	if p.screen != nil {
		p.pid = p.screen.programPID()
	}
}

// open opens the pane, attaches the recorder, and lets the CLI run.
func (p *Pane) open(l Launch) error {
	out, err := p.tmux.Run("new-session", "-d", "-s", p.cfg.Program, "-x", strconv.Itoa(p.width), "-y", strconv.Itoa(tmuxtest.Height),
		"-c", p.dir, "-P", "-F", "#{pane_id} #{pane_pid} #{socket_path} #{pid}", p.paneCommand(l))
	if err != nil {
		return err
	}
	fields := strings.Fields(out)
	if len(fields) != 4 {
		return fmt.Errorf("new-session printed %q, want pane id, pane pid, socket and server pid", out)
	}
	p.pane, p.socket, p.serverPID = fields[0], fields[2], fields[3]
	if p.pid, err = strconv.Atoi(fields[1]); err != nil {
		return fmt.Errorf("new-session printed pid %q: %w", fields[1], err)
	}
	if l.Record {
		if p.rec, err = startRecorder(p.tmux, p.pane, filepath.Join(p.root, "output.fifo")); err != nil {
			return err
		}
	}
	if _, err := p.tmux.Run("wait-for", "-S", p.startGate()); err != nil || !l.FromShell {
		return err
	}
	// The shell reads the line once it is ready: the terminal holds it.
	line := make([]string, len(l.Argv))
	for i, w := range l.Argv {
		line[i] = ShellQuote(w)
	}
	_, err = p.tmux.Run("send-keys", "-t", p.pane, "-l", strings.Join(line, " "))
	if err == nil {
		_, err = p.tmux.Run("send-keys", "-t", p.pane, "Enter")
	}
	return err
}

// startGate is the tmux wait-for channel the pane blocks on before it
// execs the CLI, so the recorder is attached before the first frame.
func (p *Pane) startGate() string { return p.cfg.Pkg + "-start" }

// paneCommand is the shell command of the pane: wait at the gate, then
// exec the CLI. The environment is in the command itself because a tmux
// server that already runs does not pass a client's environment on
// (docs/claude-code.md).
func (p *Pane) paneCommand(l Launch) string {
	words := append(append([]string(nil), l.Env...), l.Argv...)
	if l.FromShell {
		words = append(append([]string(nil), l.Env...), "PS1=$ ", "bash", "--norc", "--noprofile", "-i")
	}
	if p.screen != nil {
		words = p.screen.command(words)
	} else {
		words = append([]string{"env"}, words...)
	}
	for i, w := range words {
		words[i] = ShellQuote(w)
	}
	// Inside the pane $TMUX names this server, so the bare tmux client
	// reaches it.
	return "tmux wait-for " + p.startGate() + " && exec " + strings.Join(words, " ")
}

// Socket returns the tmux server's socket path.
func (p *Pane) Socket() string { return p.socket }

// PaneID returns the CLI's pane id, such as "%0".
func (p *Pane) PaneID() string { return p.pane }

// Address returns the pane's canonical address, tmux:<socket>:<pane id>;
// with Launch.Screen, the window's, screen:<PID.name>:0.
func (p *Pane) Address() string {
	if p.screen != nil {
		return p.screen.address()
	}
	return "tmux:" + p.socket + ":" + p.pane
}

// Home returns the throwaway HOME.
func (p *Pane) Home() string { return p.home }

// Dir returns the project dir the CLI runs in.
func (p *Pane) Dir() string { return p.dir }

// Tmux runs a tmux command against the session's server and returns its
// output, failing the test on error.
func (p *Pane) Tmux(args ...string) string {
	p.t.Helper()
	return p.tmux.Tmux(args...)
}

// PaneTitle returns the pane's title, which the CLI sets.
func (p *Pane) PaneTitle() string {
	p.t.Helper()
	return strings.TrimSuffix(p.Tmux("display-message", "-p", "-t", p.pane, "#{pane_title}"), "\n")
}

// PaneEnv returns the environment a program started in the CLI's pane
// would see: the server's minimal environment plus TMUX and TMUX_PANE
// (with Launch.Screen: STY and WINDOW). Run codeman with it to act on the
// session as if from inside the pane.
func (p *Pane) PaneEnv() []string {
	if p.screen != nil {
		return append(p.tmux.Env(), "STY="+p.screen.name, "WINDOW=0")
	}
	return append(p.tmux.Env(),
		"TMUX="+p.socket+","+p.serverPID+",0", "TMUX_PANE="+p.pane)
}
