package doctor

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/codeman-dev/codeman/agents"
	"github.com/codeman-dev/codeman/agents/aicheck"
	"github.com/codeman-dev/codeman/api"
	"github.com/codeman-dev/codeman/config"
	"github.com/codeman-dev/codeman/hooks"
	"github.com/codeman-dev/codeman/screen"
	"github.com/codeman-dev/codeman/tmux"
)

// Verdict is how a doctor check ended.
type Verdict string

// Verdicts, mildest first. Only VerdictError makes the doctor fail.
const (
	VerdictOK    Verdict = "ok"
	VerdictNote  Verdict = "note"  // worth knowing, nothing to fix
	VerdictWarn  Verdict = "warn"  // works, but may misbehave
	VerdictError Verdict = "error" // something codeman needs is broken
)

// Check is one line of the doctor's report: what it looked at, what it
// found and what to do about it.
type Check struct {
	Name    string  `json:"name"`
	Verdict Verdict `json:"verdict"`
	Message string  `json:"message"`
	Fix     string  `json:"fix,omitempty"`
}

// Report is every check, in the order they ran.
type Report struct {
	Checks   []Check `json:"checks"`
	Errors   int     `json:"errors"`
	Warnings int     `json:"warnings"`
}

func (r *Report) add(c Check) {
	r.Checks = append(r.Checks, c)
	switch c.Verdict {
	case VerdictError:
		r.Errors++
	case VerdictWarn:
		r.Warnings++
	}
}

// Daemon is what the doctor asks a running daemon; *api.Client is one.
type Daemon interface {
	Health(ctx context.Context) (api.Health, error)
	Panes(ctx context.Context) ([]api.PaneStatus, error)
}

var _ Daemon = (*api.Client)(nil)

// Doctor timings.
const (
	// DefaultProgramTimeout bounds each program the doctor runs for its
	// version (tmux -V, claude --version). 10s.
	DefaultProgramTimeout = 10 * time.Second
	// DefaultControllerSettle is how long the doctor lets a daemon's
	// controller count differ from its pane count before calling it a
	// problem: they differ for a moment while a pane is attached. 2s.
	DefaultControllerSettle = 2 * time.Second
	// controllerRecheck is the wait between two health requests while the
	// counts settle.
	controllerRecheck = 100 * time.Millisecond
)

// Doctor checks a user's setup: the programs codeman drives, its hooks,
// dirs, config and daemon, and every enabled pane. Every look at the
// machine goes through a function field, so that each check's verdicts
// can be tested without the machine; New fills them with the real
// ones.
type Doctor struct {
	Binary  string              // this codeman binary, which the hooks should run
	Version string              // this binary's version, compared with the daemon's
	Env     func(string) string // the user's environment

	// LookPath finds a program on PATH.
	LookPath func(file string) (string, error)
	// Output runs a program and returns its standard output; the doctor
	// bounds it with ProgramTimeout.
	Output func(ctx context.Context, name string, args ...string) (string, error)
	// Screen runs screen for screen.InstalledVersion.
	Screen screen.Runner
	// TmuxServerVersion reads a running tmux server's version.
	TmuxServerVersion func(ctx context.Context, srv tmux.Server) (string, error)
	// TmuxPanes lists a running tmux server's panes, which proves that
	// codeman can read them; nil skips that check.
	TmuxPanes func(ctx context.Context, srv tmux.Server) ([]tmux.ListedPane, error)
	// Paths returns the daemon's paths, creating and checking the private
	// runtime dirs (api.DefaultPaths).
	Paths func() (api.Paths, error)
	// Lstat inspects a dir without following a symlink, Stat through one.
	Lstat, Stat func(path string) (fs.FileInfo, error)
	// Euid is the user the private dirs must belong to.
	Euid int
	// Hooks reads codeman's hooks in an agent's settings, as codeman
	// hooks install would write them (the agent's Installer.Check).
	Hooks func(a agents.Info) []hooks.Finding
	// Config loads the config file.
	Config func() (*config.File, error)
	// Checker sets up the AI checks with checks.claude_path.
	Checker func(claudePath string) error
	// Connect returns the running daemon, or an error wrapping
	// api.ErrNotRunning; it never starts one.
	Connect func(ctx context.Context, paths api.Paths) (Daemon, error)
	// Enabled lists the panes enabled for a daemon to adopt, for when none
	// runs.
	Enabled func(ctx context.Context, paths api.Paths) []string
	// Clock times the wait for the controller count to settle.
	Clock clockwork.Clock

	ProgramTimeout   time.Duration // default DefaultProgramTimeout
	ControllerSettle time.Duration // default DefaultControllerSettle
}

// New returns a Doctor that looks at this machine: binary and version are
// this codeman's, env the user's environment. enabled lists the panes a
// daemon starting in env would adopt (daemon.EnabledPanes): the doctor
// asks it when no daemon runs, and links no daemon of its own.
func New(binary, version string, env func(string) string, enabled func(ctx context.Context, paths api.Paths, env func(string) string) []string) *Doctor {
	return &Doctor{
		Binary:            binary,
		Version:           version,
		Env:               env,
		LookPath:          exec.LookPath,
		Output:            runOutput,
		Screen:            screen.ExecRunner{},
		TmuxServerVersion: func(ctx context.Context, srv tmux.Server) (string, error) { return srv.Version(ctx) },
		TmuxPanes:         func(ctx context.Context, srv tmux.Server) ([]tmux.ListedPane, error) { return srv.ListPanes(ctx) },
		Paths:             func() (api.Paths, error) { return api.DefaultPaths(env) },
		Lstat:             os.Lstat,
		Stat:              os.Stat,
		Euid:              os.Geteuid(),
		Hooks: func(a agents.Info) []hooks.Finding {
			if a.Hooks == nil {
				return nil // an agent without hooks
			}
			// codeman-hook beside this binary is this codeman's too.
			return a.Hooks.Check(hooks.Request{Env: env, Binary: binary, Handler: hooks.FindHandler(binary)})
		},
		Config: func() (*config.File, error) { return config.Load(config.DefaultPath()) },
		Checker: func(claudePath string) error {
			_, err := aicheck.New(aicheck.Options{ClaudePath: claudePath})
			return err
		},
		Connect: func(ctx context.Context, paths api.Paths) (Daemon, error) {
			return api.Connect(ctx, paths, "")
		},
		Enabled: func(ctx context.Context, paths api.Paths) []string {
			return enabled(ctx, paths, env)
		},
		Clock:            clockwork.NewRealClock(),
		ProgramTimeout:   DefaultProgramTimeout,
		ControllerSettle: DefaultControllerSettle,
	}
}

// Run runs every check and returns the report: the programs, the hooks,
// the dirs, the config and the AI check, the daemon, then one line per
// enabled pane.
func (d *Doctor) Run(ctx context.Context) Report {
	var rep Report
	paths, pathsErr := d.Paths()
	st := d.probeDaemon(ctx, paths, pathsErr)
	for _, c := range d.checkTmux(ctx, st.addresses()) {
		rep.add(c)
	}
	rep.add(d.checkScreen(ctx, st.addresses()))
	for _, a := range agents.List() {
		for _, c := range d.checkAgent(ctx, a) {
			rep.add(c)
		}
	}
	for _, c := range d.checkDirs(paths, pathsErr) {
		rep.add(c)
	}
	file, cfg := d.checkConfig()
	rep.add(cfg)
	rep.add(d.checkAI(file))
	for _, c := range d.checkDaemon(st) {
		rep.add(c)
	}
	return rep
}

// runOutput runs a program and returns its standard output, with its
// standard error in the error when it fails.
func runOutput(ctx context.Context, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.WaitDelay = time.Second // a child holding the pipes must not hang Wait
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return stdout.String(), fmt.Errorf("run %s: %w: %s", name, err, msg)
		}
		return stdout.String(), fmt.Errorf("run %s: %w", name, err)
	}
	return stdout.String(), nil
}

// output runs a program for its version, bounded by ProgramTimeout.
func (d *Doctor) output(ctx context.Context, name string, args ...string) (string, error) {
	timeout := d.ProgramTimeout
	if timeout <= 0 {
		timeout = DefaultProgramTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	out, err := d.Output(ctx, name, args...)
	if err != nil && ctx.Err() != nil {
		return out, fmt.Errorf("run %s %s: no answer within %s", name, strings.Join(args, " "), timeout)
	}
	return out, err
}
